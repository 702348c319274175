//===- ProfileTransforms.cpp - Profile -> Profile filters and merging -----===//
#include "ProfileTransforms.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <map>
#include <regex>
#include <tuple>

namespace spinelprof {

namespace {

// Copies a profile's header and frames (everything but the samples).
Profile withoutSamples(const Profile &P) {
  Profile Out = headerOf(P);
  Out.Frames = P.Frames;
  return Out;
}

void addWeight(std::optional<uint64_t> &Into, const std::optional<uint64_t> &From) {
  if (Into && From)
    *Into += *From;
  else
    Into.reset();
}

} // namespace

bool hasWeights(const Profile &P) {
  for (const Sample &S : P.Samples)
    if (!S.WeightNs)
      return false;
  return !P.Samples.empty();
}

Profile normalizeProfile(const Profile &P) {
  Profile Out = withoutSamples(P);
  std::vector<int64_t> NewIndex(P.Frames.size(), -1);
  Out.Frames.clear();
  std::map<std::pair<int64_t, std::vector<uint32_t>>, size_t> Seen;
  for (const Sample &S : P.Samples) {
    Sample N;
    N.Thread = S.Thread;
    N.Count = S.Count;
    N.WeightNs = S.WeightNs;
    N.Objects = S.Objects;
    for (uint32_t F : S.Stack) {
      if (NewIndex[F] < 0) {
        NewIndex[F] = static_cast<int64_t>(Out.Frames.size());
        Out.Frames.push_back(P.Frames[F]);
      }
      N.Stack.push_back(static_cast<uint32_t>(NewIndex[F]));
    }
    auto [It, Inserted] = Seen.try_emplace({N.Thread, N.Stack}, Out.Samples.size());
    if (Inserted) {
      Out.Samples.push_back(std::move(N));
    } else {
      Sample &Into = Out.Samples[It->second];
      Into.Count += N.Count;
      addWeight(Into.WeightNs, N.WeightNs);
      addWeight(Into.Objects, N.Objects);
    }
  }
  return Out;
}

Profile selectThread(const Profile &P, const std::string &Spec) {
  std::optional<int64_t> Tid;
  if (!Spec.empty() && Spec.find_first_not_of("-0123456789") == std::string::npos &&
      Spec.size() < 19)
    Tid = std::stoll(Spec);
  std::vector<int64_t> Chosen;
  for (const ThreadInfo &T : P.Threads)
    if ((Tid && T.Tid == *Tid) || T.Name == Spec)
      Chosen.push_back(T.Tid);
  if (Chosen.empty() && Tid)
    for (const Sample &S : P.Samples)
      if (S.Thread == *Tid) {
        Chosen.push_back(*Tid);
        break;
      }
  if (Chosen.empty()) {
    std::string Known;
    for (const ThreadInfo &T : P.Threads)
      Known += fmt::format("{}{}{}", Known.empty() ? "" : ", ", T.Tid,
                           T.Name.empty() ? "" : " " + T.Name);
    throw InputError(fmt::format("{}: no thread '{}' ({})", P.SourcePath, Spec,
                                 Known.empty() ? "the profile has no thread information"
                                               : "threads: " + Known));
  }
  Profile Out = withoutSamples(P);
  for (const Sample &S : P.Samples)
    for (int64_t T : Chosen)
      if (S.Thread == T) {
        Out.Samples.push_back(S);
        break;
      }
  Out.Threads.clear();
  for (const ThreadInfo &T : P.Threads)
    for (int64_t C : Chosen)
      if (T.Tid == C)
        Out.Threads.push_back(T);
  return Out;
}

Profile focusOn(const Profile &P, const std::string &Regex, const std::string &Command) {
  std::regex Re;
  try {
    Re = std::regex(Regex, std::regex::ECMAScript);
  } catch (const std::regex_error &E) {
    throw UsageError(Command, fmt::format("--focus: bad regular expression '{}': {}", Regex,
                                          E.what()));
  }
  std::vector<char> Matches(P.Frames.size());
  for (size_t I = 0; I < P.Frames.size(); ++I)
    Matches[I] = std::regex_search(P.Frames[I].Name, Re);
  Profile Out = withoutSamples(P);
  for (const Sample &S : P.Samples)
    for (uint32_t F : S.Stack)
      if (Matches[F]) {
        Out.Samples.push_back(S);
        break;
      }
  return Out;
}

Profile collapseRecursion(const Profile &P) {
  Profile Out = withoutSamples(P);
  for (const Sample &S : P.Samples) {
    Sample N = S;
    N.Stack.clear();
    for (uint32_t F : S.Stack)
      if (N.Stack.empty() || N.Stack.back() != F)
        N.Stack.push_back(F);
    Out.Samples.push_back(std::move(N));
  }
  return normalizeProfile(Out);
}

Profile mergeProfiles(const std::vector<Profile> &Profiles) {
  Profile Out;
  if (Profiles.empty())
    return Out;
  using FrameKey = std::tuple<std::string, std::string, int, std::string, uint32_t>;
  std::map<FrameKey, uint32_t> FrameIndex;
  std::map<int64_t, size_t> ThreadIndex;
  ProfileMetadata &M = Out.Metadata;
  M.Command = Profiles.front().Metadata.Command;
  M.Pid = Profiles.front().Metadata.Pid;
  M.StartTime = Profiles.front().Metadata.StartTime;
  M.StartTimeNs = Profiles.front().Metadata.StartTimeNs;
  M.Mode = Profiles.front().Metadata.Mode;
  M.Timer = Profiles.front().Metadata.Timer;
  M.RequestedHz = Profiles.front().Metadata.RequestedHz;
  M.AllocRate = Profiles.front().Metadata.AllocRate;
  Out.SelfDescribing = true;
  Out.Kind = Profiles.front().Kind;
  for (const Profile &P : Profiles)
    if (P.Kind != Out.Kind)
      throw InputError(fmt::format(
          "{}: cannot merge an allocation profile with a CPU profile ({})",
          P.SourcePath, Profiles.front().SourcePath));
  std::string Sources;
  auto Sum = [](std::optional<uint64_t> &Into, const std::optional<uint64_t> &From,
                bool First) {
    if (First)
      Into = From;
    else if (Into && From)
      *Into += *From;
    else
      Into.reset();
  };
  for (size_t N = 0; N < Profiles.size(); ++N) {
    const Profile &P = Profiles[N];
    bool First = N == 0;
    Out.SelfDescribing &= P.SelfDescribing;
    Sources += (First ? "" : "+") + P.SourcePath;
    Sum(M.CpuTimeNs, P.Metadata.CpuTimeNs, First);
    Sum(M.Dropped, P.Metadata.Dropped, First);
    Sum(M.Truncated, P.Metadata.Truncated, First);
    if (P.Metadata.DurationNs)
      M.DurationNs = std::max(M.DurationNs.value_or(0), *P.Metadata.DurationNs);
    if (M.Mode != P.Metadata.Mode)
      M.Mode.reset();
    if (M.Timer != P.Metadata.Timer)
      M.Timer.reset();
    if (M.RequestedHz != P.Metadata.RequestedHz)
      M.RequestedHz.reset();
    if (M.AllocRate != P.Metadata.AllocRate)
      M.AllocRate.reset();
    for (const ThreadInfo &T : P.Threads)
      if (ThreadIndex.try_emplace(T.Tid, Out.Threads.size()).second)
        Out.Threads.push_back(T);
    std::vector<uint32_t> Map(P.Frames.size());
    for (size_t I = 0; I < P.Frames.size(); ++I) {
      const Frame &F = P.Frames[I];
      FrameKey Key{F.Name, F.CName, static_cast<int>(F.Kind), F.File, F.Line};
      auto [It, Inserted] =
          FrameIndex.try_emplace(Key, static_cast<uint32_t>(Out.Frames.size()));
      if (Inserted)
        Out.Frames.push_back(F);
      Map[I] = It->second;
    }
    for (const Sample &S : P.Samples) {
      Sample C = S;
      for (uint32_t &F : C.Stack)
        F = Map[F];
      Out.Samples.push_back(std::move(C));
    }
  }
  Out.SourcePath = Sources;
  Out = normalizeProfile(Out);
  M.SampleCount = Out.Kind == ProfileKind::Alloc ? Out.totalObjects()
                                                  : Out.totalCount();
  if (Out.Kind == ProfileKind::Cpu && M.CpuTimeNs && *M.CpuTimeNs)
    M.AchievedHz = static_cast<double>(*M.SampleCount) / (*M.CpuTimeNs / 1e9);
  Out.Metadata = M;
  return Out;
}

} // namespace spinelprof
