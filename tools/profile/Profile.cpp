//===- Profile.cpp - The in-memory profile every command reads ------------===//
#include "Profile.h"

#include <fmt/format.h>

#include <set>

namespace spinelprof {

namespace {
struct KindSpelling {
  FrameKind Kind;
  std::string_view Name;
};
// The .sprof spellings, in the order of enum spinelprof_frame_kind.
constexpr KindSpelling KindSpellings[] = {
    {FrameKind::User, "user"},       {FrameKind::Block, "block"},
    {FrameKind::Runtime, "runtime"}, {FrameKind::GC, "gc"},
    {FrameKind::Synthetic, "synthetic"},
};
} // namespace

std::string_view frameKindName(FrameKind Kind) {
  for (const KindSpelling &S : KindSpellings)
    if (S.Kind == Kind)
      return S.Name;
  return "-";
}

std::optional<FrameKind> parseFrameKind(std::string_view Name) {
  for (const KindSpelling &S : KindSpellings)
    if (S.Name == Name)
      return S.Kind;
  return std::nullopt;
}

std::optional<uint64_t> Profile::totalObjects() const {
  uint64_t Total = 0;
  for (const Sample &S : Samples) {
    if (!S.Objects)
      return std::nullopt;
    Total += *S.Objects;
  }
  return Total;
}

Profile headerOf(const Profile &P) {
  Profile Out;
  Out.SourcePath = P.SourcePath;
  Out.SelfDescribing = P.SelfDescribing;
  Out.Kind = P.Kind;
  Out.Metadata = P.Metadata;
  Out.Runs = P.Runs;
  Out.Threads = P.Threads;
  Out.Range = P.Range;
  return Out;
}

std::vector<ThreadInfo> listThreads(const Profile &P, ThreadListing L) {
  std::vector<ThreadInfo> Threads;
  std::set<std::pair<uint32_t, int64_t>> Seen;
  auto Add = [&](uint32_t Run, int64_t Tid, const std::string &Name) {
    if (Seen.insert({Run, Tid}).second)
      Threads.push_back({Run, Tid, Name});
  };
  for (const ThreadInfo &T : P.Threads)
    Add(T.Run, T.Tid, T.Name);
  for (const Sample &S : P.Samples)
    if (L.UnknownSamples || S.Thread != UnknownThread)
      Add(S.Run, S.Thread, "");
  if (L.Timelines)
    for (const ThreadTimeline &T : P.Timelines)
      Add(T.Run, T.Tid, "");
  return Threads;
}

std::string threadLabel(const Profile &P, uint32_t Run, int64_t Tid) {
  return P.Runs.empty() ? fmt::format("{}", Tid) : fmt::format("{}:{}", Run + 1, Tid);
}

uint64_t Profile::totalCount() const {
  uint64_t Total = 0;
  for (const Sample &S : Samples)
    Total += S.Count;
  return Total;
}

} // namespace spinelprof
