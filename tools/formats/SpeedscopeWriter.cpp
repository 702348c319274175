//===- SpeedscopeWriter.cpp - A Profile as speedscope JSON ----------------===//
#include "SpeedscopeWriter.h"
#include "ProfileTransforms.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>

namespace spinelprof {

std::string renderSpeedscope(const Profile &P, const std::string &Exporter) {
  using Json = nlohmann::ordered_json;
  bool Alloc = P.Kind == ProfileKind::Alloc;
  bool Weighted = !Alloc && hasWeights(P);
  Json Root;
  Root["$schema"] = "https://www.speedscope.app/file-format-schema.json";
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
  Root["shared"] = {{"frames", std::move(Frames)}};

  // Threads (keyed by run and tid) in the profile's order, then any
  // thread only samples mention.
  using Key = std::pair<uint32_t, int64_t>;
  std::map<Key, std::string> Names;
  std::vector<Key> Order;
  for (const ThreadInfo &T : P.Threads)
    if (Names.emplace(Key{T.Run, T.Tid}, T.Name).second)
      Order.push_back({T.Run, T.Tid});
  for (const Sample &S : P.Samples)
    if (Names.emplace(Key{S.Run, S.Thread}, "").second)
      Order.push_back({S.Run, S.Thread});

  Json Profiles = Json::array();
  for (const Key &K : Order) {
    int64_t Tid = K.second;
    Json Samples = Json::array(), Weights = Json::array();
    uint64_t End = 0;
    for (const Sample &S : P.Samples) {
      if (S.Thread != Tid || S.Run != K.first)
        continue;
      uint64_t W = Weighted ? *S.WeightNs : S.Count;
      if (W == 0)
        continue;
      Samples.push_back(S.Stack);
      Weights.push_back(W);
      End += W;
    }
    if (Samples.empty())
      continue;
    Json Prof;
    Prof["type"] = "sampled";
    std::string Name = Tid == UnknownThread ? "all samples"
                       : Names[K].empty() ? fmt::format("thread {}", Tid)
                                          : fmt::format("{} ({})", Names[K], Tid);
    if (!P.Runs.empty()) // Several runs: which one.
      Name = fmt::format("run {}: {}", K.first + 1, Name);
    Prof["name"] = Name;
    Prof["unit"] = Alloc ? "bytes" : Weighted ? "nanoseconds" : "none";
    Prof["startValue"] = 0;
    Prof["endValue"] = End;
    Prof["samples"] = std::move(Samples);
    Prof["weights"] = std::move(Weights);
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
