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

  // Threads in the profile's order, then any thread only samples mention.
  std::map<int64_t, std::string> Names;
  std::vector<int64_t> Order;
  for (const ThreadInfo &T : P.Threads)
    if (Names.emplace(T.Tid, T.Name).second)
      Order.push_back(T.Tid);
  for (const Sample &S : P.Samples)
    if (Names.emplace(S.Thread, "").second)
      Order.push_back(S.Thread);

  Json Profiles = Json::array();
  for (int64_t Tid : Order) {
    Json Samples = Json::array(), Weights = Json::array();
    uint64_t End = 0;
    for (const Sample &S : P.Samples) {
      if (S.Thread != Tid)
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
                       : Names[Tid].empty() ? fmt::format("thread {}", Tid)
                                            : fmt::format("{} ({})", Names[Tid], Tid);
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
