//===- TimelineTransforms.cpp - Keeping Profile::Timelines true -----------===//
#include "TimelineTransforms.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <cmath>

namespace spinelprof {

void remapTimelines(const std::vector<ThreadTimeline> &From, const std::vector<int64_t> &NewIndex,
                    Profile &Out) {
  std::vector<ThreadTimeline> Timelines;
  for (const ThreadTimeline &T : From) {
    ThreadTimeline N = T;
    N.Events.clear();
    for (const TimelineEvent &E : T.Events) {
      int64_t To = E.Sample < NewIndex.size() ? NewIndex[E.Sample] : DroppedSample;
      if (To == DroppedSample)
        continue;
      N.Events.push_back(E);
      N.Events.back().Sample = static_cast<uint32_t>(To);
    }
    if (N.Events.empty() && !T.Events.empty())
      continue;
    Timelines.push_back(std::move(N));
  }
  Out.Timelines = std::move(Timelines); // From may be Out's own.
}

namespace {

// Seconds ("2", "1.5", ".25") to ns; nullopt for anything else.
std::optional<uint64_t> parseSeconds(const std::string &Text) {
  if (Text.empty() || Text.find_first_not_of("0123456789.") != std::string::npos ||
      Text.find('.') != Text.rfind('.') || Text == "." || Text.size() > 20)
    return std::nullopt;
  double Seconds = std::strtod(Text.c_str(), nullptr);
  if (!(Seconds * 1e9 < 1.8e19)) // Beyond uint64_t's ns (584 years).
    return std::nullopt;
  return static_cast<uint64_t>(std::llround(Seconds * 1e9));
}

std::string seconds(uint64_t Ns) { return fmt::format("{:g} s", double(Ns) / 1e9); }

} // namespace

TimeRange parseTimeRange(const std::string &Command, const std::string &Option,
                         const std::string &Text) {
  size_t Colon = Text.find(':');
  auto Bad = [&](const std::string &Why) {
    return UsageError(Command, fmt::format("{}: {} in '{}' (expected FROM:TO, seconds from "
                                           "the run's start, either side may be empty: "
                                           "2:, :1.5, 0.5:3)",
                                           Option, Why, Text));
  };
  if (Colon == std::string::npos || Text.find(':', Colon + 1) != std::string::npos)
    throw Bad("no single ':'");
  TimeRange R;
  std::string From = Text.substr(0, Colon), To = Text.substr(Colon + 1);
  if (!From.empty() && !(R.FromNs = parseSeconds(From)))
    throw Bad(fmt::format("'{}' is not a number of seconds", From));
  if (!To.empty() && !(R.ToNs = parseSeconds(To)))
    throw Bad(fmt::format("'{}' is not a number of seconds", To));
  if (R.FromNs && R.ToNs && *R.FromNs > *R.ToNs)
    throw UsageError(Command, fmt::format("{}: FROM ({}) is after TO ({})", Option, From, To));
  return R;
}

std::string describeTimeRange(const TimeRange &R) {
  return fmt::format("{} to {}", R.FromNs ? seconds(*R.FromNs) : "start",
                     R.ToNs ? seconds(*R.ToNs) : "end");
}

Profile selectTimeRange(const Profile &P, const TimeRange &R) {
  if (P.Timelines.empty())
    throw InputError(fmt::format("{}: --time: the profile has no timeline (a folded file, a "
                                 ".sprof before version 4, or a run that recorded none)",
                                 P.SourcePath));
  auto InRange = [&](uint64_t T) {
    return (!R.FromNs || T >= *R.FromNs) && (!R.ToNs || T < *R.ToNs);
  };
  // Each sample's values, summed from its events in range.
  std::vector<Sample> Summed(P.Samples.size());
  std::vector<char> Seen(P.Samples.size());
  for (const ThreadTimeline &T : P.Timelines)
    for (const TimelineEvent &E : T.Events) {
      if (!InRange(E.TimeNs))
        continue;
      Sample &S = Summed[E.Sample];
      Seen[E.Sample] = 1;
      S.Count += E.Count;
      S.WeightNs = S.WeightNs.value_or(0) + E.WeightNs;
      S.Objects = S.Objects.value_or(0) + E.Objects;
    }
  Profile Out = headerOf(P);
  Out.Frames = P.Frames;
  Out.Range = R;
  std::vector<int64_t> NewIndex(P.Samples.size(), DroppedSample);
  for (size_t I = 0; I < P.Samples.size(); ++I) {
    if (!Seen[I])
      continue;
    Sample S = P.Samples[I];
    S.Count = Summed[I].Count;
    if (S.WeightNs)
      S.WeightNs = Summed[I].WeightNs;
    if (S.Objects)
      S.Objects = Summed[I].Objects;
    NewIndex[I] = static_cast<int64_t>(Out.Samples.size());
    Out.Samples.push_back(std::move(S));
  }
  std::vector<ThreadTimeline> Cut = P.Timelines; // To the range, then renumbered.
  for (ThreadTimeline &T : Cut) {
    std::vector<TimelineEvent> Kept;
    for (const TimelineEvent &E : T.Events)
      if (InRange(E.TimeNs))
        Kept.push_back(E);
    T.Events = std::move(Kept);
    T.Missing = 0; // Records without an event are outside every range.
  }
  remapTimelines(Cut, NewIndex, Out);
  // The header's counts are the stretch's; drops and truncations are the
  // whole run's, with no time to place them at.
  ProfileMetadata &M = Out.Metadata;
  M.SampleCount = Out.Kind == ProfileKind::Alloc ? Out.totalObjects() : Out.totalCount();
  M.Dropped.reset();
  M.Truncated.reset();
  return Out;
}

} // namespace spinelprof
