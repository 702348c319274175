//===- ProfileTransforms.cpp - Profile -> Profile filters and merging -----===//
#include "ProfileTransforms.h"
#include "TimelineTransforms.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <map>
#include <set>
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

// The samples of P that Keep accepts into Out, with the timelines' events
// of those samples.
template <typename Predicate> void keepSamples(const Profile &P, Profile &Out, Predicate Keep) {
  std::vector<int64_t> NewIndex(P.Samples.size(), DroppedSample);
  for (size_t I = 0; I < P.Samples.size(); ++I)
    if (Keep(P.Samples[I])) {
      NewIndex[I] = static_cast<int64_t>(Out.Samples.size());
      Out.Samples.push_back(P.Samples[I]);
    }
  remapTimelines(P.Timelines, NewIndex, Out);
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
  std::map<std::tuple<uint32_t, int64_t, std::vector<uint32_t>>, size_t> Seen;
  std::vector<int64_t> SampleIndex;
  SampleIndex.reserve(P.Samples.size());
  for (const Sample &S : P.Samples) {
    Sample N;
    N.Run = S.Run;
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
    auto [It, Inserted] = Seen.try_emplace({N.Run, N.Thread, N.Stack}, Out.Samples.size());
    SampleIndex.push_back(static_cast<int64_t>(It->second));
    if (Inserted) {
      Out.Samples.push_back(std::move(N));
    } else {
      Sample &Into = Out.Samples[It->second];
      Into.Count += N.Count;
      addWeight(Into.WeightNs, N.WeightNs);
      addWeight(Into.Objects, N.Objects);
    }
  }
  remapTimelines(P.Timelines, SampleIndex, Out);
  return Out;
}

/// The header's counts after a selection (What: "--thread burner") chose
/// Out's samples from P's: Out's count, of P's; and for threads, the rate
/// their samples were taken at, per CPU-second of theirs (cpu mode).
static void noteSelection(const Profile &P, Profile &Out, const std::string &What,
                          bool RateOfChosen) {
  if (Out.Kind == ProfileKind::Alloc)
    return; // Its header's totals are the chosen samples' already.
  ProfileMetadata &M = Out.Metadata;
  M.SelectedFrom = P.Metadata.SelectedFrom.value_or(
      P.Metadata.SampleCount.value_or(P.totalCount()));
  M.SampleCount = Out.totalCount();
  M.Selection += (M.Selection.empty() ? "" : ", ") + What;
  if (!RateOfChosen || M.Mode != "cpu")
    return;
  uint64_t CpuNs = 0;
  for (const Sample &S : Out.Samples) {
    if (!S.WeightNs)
      return; // No weights: the rate stays the whole run's.
    CpuNs += *S.WeightNs;
  }
  if (CpuNs)
    M.AchievedHz = static_cast<double>(*M.SampleCount) / (CpuNs / 1e9);
}

Profile selectThread(const Profile &P, const std::string &Spec) {
  // A tid, a name, or, in a profile of several runs, RUN:TID (threadLabel).
  auto Number = [](const std::string &Text) -> std::optional<int64_t> {
    if (!Text.empty() && Text.find_first_not_of("-0123456789") == std::string::npos &&
        Text.size() < 19)
      return std::stoll(Text);
    return std::nullopt;
  };
  std::optional<int64_t> Tid = Number(Spec), Run;
  if (size_t Colon = Spec.find(':'); !Tid && !P.Runs.empty() && Colon != std::string::npos) {
    Run = Number(Spec.substr(0, Colon));
    Tid = Number(Spec.substr(Colon + 1));
    if (!Run || !Tid)
      Run = Tid = std::nullopt;
    else
      *Run -= 1; // Runs are counted from 1 where people see them.
  }
  using Key = std::pair<uint32_t, int64_t>;
  auto Matches = [&](uint32_t R, int64_t T) {
    return Tid && T == *Tid && (!Run || int64_t(R) == *Run);
  };
  std::set<Key> Chosen;
  for (const ThreadInfo &T : P.Threads)
    if (Matches(T.Run, T.Tid) || T.Name == Spec)
      Chosen.insert({T.Run, T.Tid});
  if (Chosen.empty() && Tid)
    for (const Sample &S : P.Samples)
      if (Matches(S.Run, S.Thread))
        Chosen.insert({S.Run, S.Thread});
  if (Chosen.empty()) {
    std::string Known;
    for (const ThreadInfo &T : P.Threads)
      Known += fmt::format("{}{}{}", Known.empty() ? "" : ", ", threadLabel(P, T.Run, T.Tid),
                           T.Name.empty() ? "" : " " + T.Name);
    throw InputError(fmt::format("{}: no thread '{}' ({})", P.SourcePath, Spec,
                                 Known.empty() ? "the profile has no thread information"
                                               : "threads: " + Known));
  }
  Profile Out = withoutSamples(P);
  keepSamples(P, Out, [&](const Sample &S) { return Chosen.count({S.Run, S.Thread}) != 0; });
  Out.Threads.clear();
  for (const ThreadInfo &T : P.Threads)
    if (Chosen.count({T.Run, T.Tid}))
      Out.Threads.push_back(T);
  noteSelection(P, Out, "--thread " + Spec, true);
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
  keepSamples(P, Out, [&](const Sample &S) {
    for (uint32_t F : S.Stack)
      if (Matches[F])
        return true;
    return false;
  });
  noteSelection(P, Out, "--focus " + Regex, false);
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
  Out.Timelines = P.Timelines; // Same indexes so far; normalizeProfile renumbers.
  return normalizeProfile(Out);
}

/// What P's metadata says about its one run.
static ProfileRun runOf(const ProfileMetadata &M) {
  ProfileRun R;
  R.Command = M.Command;
  R.Pid = M.Pid;
  R.StartTime = M.StartTime;
  R.StartTimeNs = M.StartTimeNs;
  R.DurationNs = M.DurationNs;
  R.CpuTimeNs = M.CpuTimeNs;
  return R;
}

namespace {

/// What the profiles being merged share, taken from the first; a profile
/// of another kind is an error.
void startMerge(const std::vector<Profile> &Profiles, Profile &Out) {
  const Profile &First = Profiles.front();
  ProfileMetadata &M = Out.Metadata;
  M.Command = First.Metadata.Command;
  M.Pid = First.Metadata.Pid;
  M.StartTime = First.Metadata.StartTime;
  M.StartTimeNs = First.Metadata.StartTimeNs;
  M.Mode = First.Metadata.Mode;
  M.Timer = First.Metadata.Timer;
  M.RequestedHz = First.Metadata.RequestedHz;
  M.AllocRate = First.Metadata.AllocRate;
  Out.SelfDescribing = true;
  Out.Kind = First.Kind;
  for (const Profile &P : Profiles)
    if (P.Kind != Out.Kind)
      throw InputError(fmt::format(
          "{}: cannot merge an allocation profile with a CPU profile ({})",
          P.SourcePath, First.SourcePath));
}

/// Into += From, or From for the first profile; unknown once either is.
void addKnown(std::optional<uint64_t> &Into, const std::optional<uint64_t> &From,
              bool First) {
  if (First)
    Into = From;
  else if (Into && From)
    *Into += *From;
  else
    Into.reset();
}

/// P's metadata into the merged one: totals add up, the duration is the
/// longest, a setting the profiles disagree on becomes unknown.
void mergeMetadata(ProfileMetadata &M, const ProfileMetadata &From, bool First) {
  addKnown(M.CpuTimeNs, From.CpuTimeNs, First);
  addKnown(M.Dropped, From.Dropped, First);
  addKnown(M.Truncated, From.Truncated, First);
  if (From.DurationNs)
    M.DurationNs = std::max(M.DurationNs.value_or(0), *From.DurationNs);
  if (M.Mode != From.Mode)
    M.Mode.reset();
  if (M.Timer != From.Timer)
    M.Timer.reset();
  if (M.RequestedHz != From.RequestedHz)
    M.RequestedHz.reset();
  if (M.AllocRate != From.AllocRate)
    M.AllocRate.reset();
}

/// Frames merged by what they are, threads by (run, thread id).
struct MergeIndex {
  using FrameKey = std::tuple<std::string, std::string, int, std::string, uint32_t>;
  std::map<FrameKey, uint32_t> Frames;
  std::set<std::pair<uint32_t, int64_t>> Threads;
};

/// P's runs, threads, frames and samples appended to Out. Each run keeps
/// its own threads: the runs of P (a merged profile), else P itself as one
/// run, after those already merged.
void appendProfile(const Profile &P, MergeIndex &Index, Profile &Out) {
  uint32_t FirstRun = static_cast<uint32_t>(Out.Runs.size());
  if (P.Runs.empty())
    Out.Runs.push_back(runOf(P.Metadata));
  else
    Out.Runs.insert(Out.Runs.end(), P.Runs.begin(), P.Runs.end());
  for (ThreadInfo T : P.Threads) {
    T.Run += FirstRun;
    if (Index.Threads.insert({T.Run, T.Tid}).second)
      Out.Threads.push_back(std::move(T));
  }
  std::vector<uint32_t> Map(P.Frames.size());
  for (size_t I = 0; I < P.Frames.size(); ++I) {
    const Frame &F = P.Frames[I];
    MergeIndex::FrameKey Key{F.Name, F.CName, static_cast<int>(F.Kind), F.File, F.Line};
    auto [It, Inserted] =
        Index.Frames.try_emplace(Key, static_cast<uint32_t>(Out.Frames.size()));
    if (Inserted)
      Out.Frames.push_back(F);
    Map[I] = It->second;
  }
  uint32_t FirstSample = static_cast<uint32_t>(Out.Samples.size());
  for (const Sample &S : P.Samples) {
    Sample C = S;
    C.Run += FirstRun;
    for (uint32_t &F : C.Stack)
      F = Map[F];
    Out.Samples.push_back(std::move(C));
  }
  // Each run keeps its timelines, their times from its own start.
  for (ThreadTimeline T : P.Timelines) {
    T.Run += FirstRun;
    for (TimelineEvent &E : T.Events)
      E.Sample += FirstSample;
    Out.Timelines.push_back(std::move(T));
  }
}

/// One run, or runs nothing is known about (plain folded files): no runs,
/// and threads by thread id alone.
void dropUnknownRuns(Profile &Out) {
  bool AnyRunKnown = false;
  for (const ProfileRun &R : Out.Runs)
    AnyRunKnown |= !R.Command.empty() || R.Pid || R.StartTimeNs || R.DurationNs;
  if (Out.Runs.size() >= 2 && AnyRunKnown)
    return;
  // Runs nothing tells apart: their times are from different starts, and
  // one thread id may be two runs' threads.
  if (Out.Runs.size() >= 2)
    Out.Timelines.clear();
  for (ThreadTimeline &T : Out.Timelines)
    T.Run = 0;
  Out.Runs.clear();
  for (Sample &S : Out.Samples)
    S.Run = 0;
  std::vector<ThreadInfo> Threads;
  std::set<int64_t> Tids;
  for (ThreadInfo &T : Out.Threads)
    if (Tids.insert(T.Tid).second) {
      T.Run = 0;
      Threads.push_back(std::move(T));
    }
  Out.Threads = std::move(Threads);
}

} // namespace

Profile mergeProfiles(const std::vector<Profile> &Profiles) {
  Profile Out;
  if (Profiles.empty())
    return Out;
  startMerge(Profiles, Out);
  MergeIndex Index;
  std::string Sources;
  for (size_t N = 0; N < Profiles.size(); ++N) {
    const Profile &P = Profiles[N];
    Out.SelfDescribing &= P.SelfDescribing;
    Sources += (N == 0 ? "" : "+") + P.SourcePath;
    mergeMetadata(Out.Metadata, P.Metadata, N == 0);
    appendProfile(P, Index, Out);
  }
  dropUnknownRuns(Out);
  Out.SourcePath = Sources;
  Out = normalizeProfile(Out);
  ProfileMetadata &M = Out.Metadata;
  M.SampleCount = Out.Kind == ProfileKind::Alloc ? Out.totalObjects() : Out.totalCount();
  if (Out.Kind == ProfileKind::Cpu && M.CpuTimeNs && *M.CpuTimeNs)
    M.AchievedHz = static_cast<double>(*M.SampleCount) / (*M.CpuTimeNs / 1e9);
  return Out;
}

} // namespace spinelprof
