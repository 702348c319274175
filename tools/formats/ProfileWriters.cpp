//===- ProfileWriters.cpp - A Profile back to folded or .sprof ------------===//
#include "ProfileWriters.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace spinelprof {

std::string encodeFoldedName(const std::string &Name) {
  std::string Out;
  for (char C : Name) {
    switch (C) {
    case '%': Out += "%25"; break;
    case ';': Out += "%3B"; break;
    case '\n': Out += "%0A"; break;
    case '\r': Out += "%0D"; break;
    default: Out += C;
    }
  }
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

std::string renderSprof(const Profile &P) {
  using Json = nlohmann::ordered_json;
  const ProfileMetadata &M = P.Metadata;
  Json Root;
  Root["format"] = "spinelprof";
  // Version 2 only for what version 1 cannot say: several runs.
  bool Runs = !P.Runs.empty();
  Root["version"] = Runs ? 2 : 1;
  bool Alloc = P.Kind == ProfileKind::Alloc;
  if (Alloc)
    Root["profile"] = "alloc";
  Root["command"] = M.Command;
  if (M.Pid) Root["pid"] = *M.Pid;
  if (M.StartTime) Root["start_time"] = *M.StartTime;
  if (M.StartTimeNs) Root["start_time_ns"] = *M.StartTimeNs;
  if (M.DurationNs) Root["duration_ns"] = *M.DurationNs;
  if (M.CpuTimeNs) Root["cpu_time_ns"] = *M.CpuTimeNs;
  if (M.Mode) Root["mode"] = *M.Mode;
  if (M.Timer) Root["timer"] = *M.Timer;
  if (M.RequestedHz) Root["requested_hz"] = *M.RequestedHz;
  if (M.AchievedHz) Root["achieved_hz"] = *M.AchievedHz;
  if (M.AllocRate) Root["alloc_rate"] = *M.AllocRate;
  if (Alloc) {
    if (std::optional<uint64_t> Objects = M.SampleCount ? M.SampleCount : P.totalObjects())
      Root["sample_count"] = *Objects;
  } else {
    Root["sample_count"] = M.SampleCount.value_or(P.totalCount());
  }
  if (M.Dropped) Root["dropped"] = *M.Dropped;
  if (M.Truncated) Root["truncated"] = *M.Truncated;
  if (Runs) {
    Json List = Json::array();
    for (const ProfileRun &R : P.Runs) {
      Json J;
      J["command"] = R.Command;
      if (R.Pid) J["pid"] = *R.Pid;
      if (R.StartTime) J["start_time"] = *R.StartTime;
      if (R.StartTimeNs) J["start_time_ns"] = *R.StartTimeNs;
      if (R.DurationNs) J["duration_ns"] = *R.DurationNs;
      if (R.CpuTimeNs) J["cpu_time_ns"] = *R.CpuTimeNs;
      List.push_back(std::move(J));
    }
    Root["runs"] = std::move(List);
  }
  Json Frames = Json::array();
  for (const Frame &F : P.Frames) {
    Json J;
    J["name"] = F.Name;
    J["c_name"] = F.CName;
    if (F.Kind != FrameKind::Unknown) // a folded file's frames have no kind
      J["kind"] = std::string(frameKindName(F.Kind));
    J["file"] = F.File;
    J["line"] = F.Line;
    Frames.push_back(std::move(J));
  }
  Root["frames"] = std::move(Frames);
  Json Threads = Json::array();
  for (const ThreadInfo &T : P.Threads) {
    Json J;
    if (Runs)
      J["run"] = T.Run;
    J["tid"] = T.Tid;
    J["name"] = T.Name;
    Threads.push_back(std::move(J));
  }
  Root["threads"] = std::move(Threads);
  Json Samples = Json::array();
  for (const Sample &S : P.Samples) {
    Json J;
    if (Runs)
      J["run"] = S.Run;
    if (S.Thread != UnknownThread)
      J["thread"] = S.Thread;
    J["stack"] = S.Stack;
    if (Alloc) {
      if (S.Objects)
        J["count"] = *S.Objects;
      J["bytes"] = S.Count;
    } else {
      J["count"] = S.Count;
    }
    if (S.WeightNs)
      J["weight_ns"] = *S.WeightNs;
    Samples.push_back(std::move(J));
  }
  Root["samples"] = std::move(Samples);
  return Root.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace spinelprof
