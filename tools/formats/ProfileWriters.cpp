//===- ProfileWriters.cpp - A Profile back to folded or .sprof ------------===//
#include "ProfileWriters.h"
#include "SprofFormat.h"

#include "spinelprof/folded_name.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace spinelprof {

std::string encodeFoldedName(const std::string &Name) {
  std::string Out;
  folded::escapeName(Name.data(), Name.size(),
                     [&Out](const char *P, size_t N) { Out.append(P, N); });
  return Out;
}

std::string renderFolded(const Profile &P) {
  std::map<std::string, uint64_t> Counts;
  for (const Sample &S : P.Samples) {
    if (S.Stack.empty() || S.Count == 0)
      continue;
    std::string Text;
    for (size_t I = 0; I < S.Stack.size(); ++I)
      Text += (I ? ";" : "") + encodeFoldedName(P.Frames[S.Stack[I]].Name);
    Counts[Text] += S.Count;
  }
  std::vector<std::pair<std::string, uint64_t>> Lines(Counts.begin(), Counts.end());
  std::stable_sort(Lines.begin(), Lines.end(),
                   [](const auto &A, const auto &B) { return A.second > B.second; });
  std::string Out;
  for (const auto &[Text, Count] : Lines)
    Out += fmt::format("{} {}\n", Text, Count);
  return Out;
}

namespace {

using Json = nlohmann::ordered_json;

// A value the Profile may not have: written when it has.
template <typename T> void put(Json &Object, const char *Key, const std::optional<T> &V) {
  if (V)
    Object[Key] = *V;
}
void put(Json &Object, const char *Key, const std::vector<std::string> &V) {
  Object[Key] = V;
}

// "sample_count": the input's, else computed (objects of an allocation
// profile when every sample knows them).
std::optional<uint64_t> derivedSampleCount(const Profile &P) {
  const ProfileMetadata &M = P.Metadata;
  if (P.Kind == ProfileKind::Alloc)
    return M.SampleCount ? M.SampleCount : P.totalObjects();
  return M.SampleCount.value_or(P.totalCount());
}

// The Structure rows of sprof_format.inc: one function each.
void putFormat(Json &Root, const char *Key, const Profile &) { Root[Key] = "spinelprof"; }

// The later version only for what the first cannot say: a timeline
// (version 4 reads runs too), else several runs.
void putVersion(Json &Root, const char *Key, const Profile &P) {
  Root[Key] = !P.Timelines.empty() ? sprof::VersionTimeline
              : P.Runs.empty()     ? sprof::VersionOneRun
                                   : sprof::VersionRuns;
}

void putKind(Json &Root, const char *Key, const Profile &P) {
  if (P.Kind == ProfileKind::Alloc)
    Root[Key] = "alloc";
}

// "folded" describes the file written with the runtime's .sprof; merge
// writes none.
void putFolded(Json &, const char *, const Profile &) {}

void putRuns(Json &Root, const char *Key, const Profile &P) {
  if (P.Runs.empty())
    return;
  Json List = Json::array();
  for (const ProfileRun &R : P.Runs) {
    Json J;
#define SPROF_RUN_FIELD(Member, Key, Type) put(J, Key, R.Member);
#include "spinelprof/sprof_format.inc"
    List.push_back(std::move(J));
  }
  Root[Key] = std::move(List);
}

void putFrames(Json &Root, const char *Key, const Profile &P) {
  namespace key = sprof::frame_key;
  Json Frames = Json::array();
  for (const Frame &F : P.Frames) {
    Json J;
    J[key::Name] = F.Name;
    J[key::CName] = F.CName;
    if (F.Kind != FrameKind::Unknown) // a folded file's frames have no kind
      J[key::Kind] = std::string(frameKindName(F.Kind));
    J[key::File] = F.File;
    J[key::Line] = F.Line;
    Frames.push_back(std::move(J));
  }
  Root[Key] = std::move(Frames);
}

void putThreads(Json &Root, const char *Key, const Profile &P) {
  namespace key = sprof::thread_key;
  Json Threads = Json::array();
  for (const ThreadInfo &T : P.Threads) {
    Json J;
    if (!P.Runs.empty())
      J[key::Run] = T.Run;
    J[key::Tid] = T.Tid;
    J[key::Name] = T.Name;
    Threads.push_back(std::move(J));
  }
  Root[Key] = std::move(Threads);
}

void putSamples(Json &Root, const char *Key, const Profile &P) {
  namespace key = sprof::sample_key;
  Json Samples = Json::array();
  for (const Sample &S : P.Samples) {
    Json J;
    if (!P.Runs.empty())
      J[key::Run] = S.Run;
    if (S.Thread != UnknownThread)
      J[key::Thread] = S.Thread;
    J[key::Stack] = S.Stack;
    if (P.Kind == ProfileKind::Alloc) {
      put(J, key::Count, S.Objects);
      J[key::Bytes] = S.Count;
    } else {
      J[key::Count] = S.Count;
    }
    put(J, key::WeightNs, S.WeightNs);
    Samples.push_back(std::move(J));
  }
  Root[Key] = std::move(Samples);
}

/// Each thread's events as the runtime writes them: columns, times
/// delta-encoded (the first from the run's start). Allocation profiles:
/// "bytes" is the event's Count, "count" its objects, as in "samples".
void putTimeline(Json &Root, const char *Key, const Profile &P) {
  namespace key = sprof::timeline_key;
  if (P.Timelines.empty())
    return;
  bool Alloc = P.Kind == ProfileKind::Alloc;
  Json List = Json::array();
  for (const ThreadTimeline &T : P.Timelines) {
    Json Times = Json::array(), Samples = Json::array(), Counts = Json::array(),
         Second = Json::array();
    uint64_t Previous = 0;
    for (const TimelineEvent &E : T.Events) {
      Times.push_back(E.TimeNs - Previous);
      Previous = E.TimeNs;
      Samples.push_back(E.Sample);
      Counts.push_back(E.Count);
      Second.push_back(Alloc ? E.Objects : E.WeightNs);
    }
    Json J;
    if (!P.Runs.empty())
      J[key::Run] = T.Run;
    J[key::Thread] = T.Tid;
    J[key::BucketNs] = T.BucketNs;
    J[key::Merged] = T.Merged;
    J[key::Missing] = T.Missing;
    J[key::TimeNs] = std::move(Times);
    J[key::Sample] = std::move(Samples);
    if (Alloc) {
      J[key::Count] = std::move(Second);
      J[key::Bytes] = std::move(Counts);
    } else {
      J[key::Count] = std::move(Counts);
      J[key::WeightNs] = std::move(Second);
    }
    List.push_back(std::move(J));
  }
  Root[Key] = std::move(List);
}

} // namespace

std::string renderSprof(const Profile &P) {
  const ProfileMetadata &M = P.Metadata;
  Json Root;
#define SPROF_WRITE_Structure(Member, Key) put##Member(Root, Key, P);
#define SPROF_WRITE_Kept(Member, Key) put(Root, Key, M.Member);
#define SPROF_WRITE_Derived(Member, Key) put(Root, Key, derived##Member(P));
#define SPROF_WRITE_Read(Member, Key)
#define SPROF_WRITE_Ignored(Member, Key)
#define SPROF_FIELD(Member, Key, Type, Profile, Tool) SPROF_WRITE_##Tool(Member, Key)
#include "spinelprof/sprof_format.inc"
#undef SPROF_WRITE_Structure
#undef SPROF_WRITE_Kept
#undef SPROF_WRITE_Derived
#undef SPROF_WRITE_Read
#undef SPROF_WRITE_Ignored
  return Root.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace spinelprof
