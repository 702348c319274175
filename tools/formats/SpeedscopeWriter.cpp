//===- SpeedscopeWriter.cpp - A Profile as speedscope JSON ----------------===//
#include "SpeedscopeWriter.h"
#include "ProfileTransforms.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace spinelprof {

namespace {

using Json = nlohmann::ordered_json;

/// One "sampled" profile's stacks and weights, in the order speedscope
/// lays them end to end from Start.
struct SampledSeries {
  Json Samples = Json::array();
  Json Weights = Json::array();
  uint64_t Start = 0;
  uint64_t End = 0;
};

/// Without a timeline: the thread's stacks, each once, in the profile's
/// order (speedscope's Time Order view is then no order of time).
SampledSeries aggregatedSeries(const Profile &P, std::pair<uint32_t, int64_t> K, bool Weighted) {
  SampledSeries Out;
  for (const Sample &S : P.Samples) {
    if (S.Thread != K.second || S.Run != K.first)
      continue;
    uint64_t W = Weighted ? *S.WeightNs : S.Count;
    if (W == 0)
      continue;
    Out.Samples.push_back(S.Stack);
    Out.Weights.push_back(W);
    Out.End += W;
  }
  return Out;
}

/// A timeline: its events in time order. With CPU weights the axis is
/// time from the run's start: an event of weight W ends at its time (a
/// bucket's event starts at its time, the bucket's start), and
/// the gaps between events (the thread not running) are idle, empty
/// stacks, so the phases are where they happened. Else (allocation
/// profiles: bytes; no weights: counts) events are laid end to end.
SampledSeries timelineSeries(const Profile &P, const ThreadTimeline &T, bool Weighted) {
  SampledSeries Out;
  bool Alloc = P.Kind == ProfileKind::Alloc;
  uint64_t At = 0; // Where the next event is laid.
  for (const TimelineEvent &E : T.Events) {
    uint64_t W = Weighted ? E.WeightNs : E.Count;
    if (W == 0)
      continue;
    // A sample stands for the W before its time; a bucket's event is
    // laid from its time, the bucket's start.
    uint64_t Begin = T.BucketNs ? E.TimeNs : E.TimeNs - std::min(E.TimeNs, W);
    if (Weighted && !Alloc && Begin > At) {
      uint64_t Idle = Begin - At;
      if (Out.Samples.empty())
        Out.Start = At = Begin; // The profile starts at its first event.
      else {
        Out.Samples.push_back(Json::array());
        Out.Weights.push_back(Idle);
        At += Idle;
      }
    }
    Out.Samples.push_back(P.Samples[E.Sample].Stack);
    Out.Weights.push_back(W);
    At += W;
  }
  Out.End = At;
  return Out;
}

// speedscope's shared frames: name, and file and line where known.
Json framesJson(const Profile &P) {
  Json Frames = Json::array();
  for (const Frame &F : P.Frames) {
    Json J;
    J["name"] = F.Name;
    if (!F.File.empty())
      J["file"] = F.File;
    if (F.Line)
      J["line"] = F.Line;
    Frames.push_back(std::move(J));
  }
  return Frames;
}

// A thread, keyed by run and tid.
using ThreadKey = std::pair<uint32_t, int64_t>;

// One thread's sampled profile, named for it: its timeline where it has
// one, else its samples aggregated; null when it has no sample.
Json threadProfile(const Profile &P, const ThreadKey &K, const std::string &ThreadName,
                   const ThreadTimeline *Timeline, bool Weighted) {
  int64_t Tid = K.second;
  std::string Name = Tid == UnknownThread ? "all samples"
                     : ThreadName.empty() ? fmt::format("thread {}", Tid)
                                          : fmt::format("{} ({})", ThreadName, Tid);
  if (!P.Runs.empty()) // Several runs: which one.
    Name = fmt::format("run {}: {}", K.first + 1, Name);
  SampledSeries Series = Timeline && !Timeline->Events.empty()
                             ? timelineSeries(P, *Timeline, Weighted)
                             : aggregatedSeries(P, K, Weighted);
  if (Series.Samples.empty())
    return nullptr;
  bool Alloc = P.Kind == ProfileKind::Alloc;
  Json Prof;
  Prof["type"] = "sampled";
  Prof["name"] = Name;
  Prof["unit"] = Alloc ? "bytes" : Weighted ? "nanoseconds" : "none";
  Prof["startValue"] = Series.Start;
  Prof["endValue"] = Series.End;
  Prof["samples"] = std::move(Series.Samples);
  Prof["weights"] = std::move(Series.Weights);
  return Prof;
}

} // namespace

std::string renderSpeedscope(const Profile &P, const std::string &Exporter) {
  bool Weighted = P.Kind != ProfileKind::Alloc && hasWeights(P);
  Json Root;
  Root["$schema"] = "https://www.speedscope.app/file-format-schema.json";
  Root["shared"] = {{"frames", framesJson(P)}};
  std::map<ThreadKey, const ThreadTimeline *> Timelines;
  for (const ThreadTimeline &T : P.Timelines)
    Timelines[{T.Run, T.Tid}] = &T;
  Json Profiles = Json::array();
  for (const ThreadInfo &T : listThreads(P, {})) {
    ThreadKey K{T.Run, T.Tid};
    auto It = Timelines.find(K);
    Json Prof = threadProfile(P, K, T.Name, It == Timelines.end() ? nullptr : It->second, Weighted);
    if (!Prof.is_null())
      Profiles.push_back(std::move(Prof));
  }
  if (Profiles.empty()) // speedscope needs a profile to show, even an empty one
    Profiles.push_back({{"type", "sampled"}, {"name", "all samples"}, {"unit", "none"},
                        {"startValue", 0}, {"endValue", 0}, {"samples", Json::array()},
                        {"weights", Json::array()}});
  Root["profiles"] = std::move(Profiles);
  Root["name"] = P.SourcePath;
  Root["activeProfileIndex"] = 0;
  Root["exporter"] = Exporter;
  return Root.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace spinelprof
