//===- TimelineTransforms.h - Keeping Profile::Timelines true -*- C++ -*-===//
//
// Every event of a timeline indexes Profile::Samples, so a transform that
// renumbers, drops or sums samples carries the timelines along with
// remapTimelines; selectTimeRange is `--time FROM:TO`: the samples of a
// stretch of the run, rebuilt from its events.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_TIMELINETRANSFORMS_H
#define SPINELPROF_TOOLS_TIMELINETRANSFORMS_H

#include "Profile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spinelprof {

/// Marks a sample a transform dropped, in the maps remapTimelines takes.
inline constexpr int64_t DroppedSample = -1;

/// Out.Timelines becomes From with each event's Sample replaced by
/// NewIndex[Sample]; events of a dropped sample (DroppedSample) go, and so
/// does a timeline that had events and has none left.
void remapTimelines(const std::vector<ThreadTimeline> &From, const std::vector<int64_t> &NewIndex,
                    Profile &Out);

/// Parses "FROM:TO" (seconds, decimals allowed, either side empty); throws
/// UsageError naming Option for bad syntax or FROM > TO.
TimeRange parseTimeRange(const std::string &Command, const std::string &Option,
                         const std::string &Text);

/// "2.5 s to 4 s", "start to 1.5 s", "2 s to end": how reports show R.
std::string describeTimeRange(const TimeRange &R);

/// Keeps the events in [FROM, TO) (a bucketed event by its bucket's start,
/// the time it carries) and rebuilds every sample's count, weight and
/// objects from them; samples with no event in range go, and so do the
/// records no event carries (a thread past the runtime's cap, threads with
/// no timeline). Throws InputError naming the file when P has no timeline.
Profile selectTimeRange(const Profile &P, const TimeRange &R);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_TIMELINETRANSFORMS_H
