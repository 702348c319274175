//===- Profile.h - The in-memory profile every command reads ----*- C++ -*-===//
//
// One model for both inputs (docs/formats.md): a .sprof fills everything, a
// plain folded file fills names and counts only. Later commands (flamegraph,
// convert, diff, merge) take a Profile too, so the model keeps what the
// .sprof carries — per-frame kind and location, per-sample thread and weight
// — even where `report` does not print it yet.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_PROFILE_H
#define SPINELPROF_TOOLS_PROFILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spinelprof {

/// What a frame is; mirrors enum spinelprof_frame_kind in abi.h, plus
/// Unknown for frames read from a plain folded file.
enum class FrameKind { Unknown, User, Block, Runtime, GC, Synthetic };

/// The spelling used in .sprof files ("user", "gc", ...); "-" for Unknown.
std::string_view frameKindName(FrameKind Kind);

/// Parses a .sprof kind string; std::nullopt if it is not one of the five.
std::optional<FrameKind> parseFrameKind(std::string_view Name);

/// A native address the runtime could not name (.sprof version 3).
struct NativeAddress {
  std::string Object;  ///< The object's path when the program ran.
  std::string BuildId; ///< Its build-id in hex, "" when unknown.
  uint64_t Address = 0; ///< In the object's ELF virtual addresses.
};

/// One function (or synthetic frame) that appears in some sample.
struct Frame {
  std::string Name;  ///< Display name: "Geo::Vec#zero?".
  std::string CName; ///< C symbol, "" when unknown.
  FrameKind Kind = FrameKind::Unknown;
  std::string File;  ///< Definition site, "" when unknown.
  uint32_t Line = 0; ///< 0 when unknown.
  /// Set only between reading a .sprof and nameNativeFrames (NativeNames.h).
  std::optional<NativeAddress> Native;
};

/// Thread id used for samples whose thread is unknown (folded input).
inline constexpr int64_t UnknownThread = -1;

/// What a profile measures (docs/formats.md).
enum class ProfileKind {
  Cpu,   ///< CPU or wall-time samples; Sample::Count is samples.
  Alloc, ///< Allocations (<name>.alloc.sprof); Sample::Count is bytes.
};

/// Samples that share one (run, thread, stack).
struct Sample {
  /// The run (Profile::Runs) the samples are from; 0 in a profile of one run.
  uint32_t Run = 0;
  int64_t Thread = UnknownThread;
  std::vector<uint32_t> Stack; ///< Indexes into Profile::Frames, root first.
  /// The profile's value: samples (CPU profiles) or bytes (allocation
  /// profiles), the unit every command shows.
  uint64_t Count = 0;
  std::optional<uint64_t> WeightNs; ///< CPU (or wall) time they stand for.
  /// Allocation profiles: objects allocated (unknown from a folded file).
  std::optional<uint64_t> Objects;
};

/// One event of a thread's timeline (.sprof version 4): a sample, a
/// blocking call's samples, or, past the timeline's memory cap, a stack's
/// records within one bucket.
struct TimelineEvent {
  uint64_t TimeNs = 0; ///< From the run's start (absolute, not a delta).
  /// In Sample::Count's unit: samples (CPU profiles) or bytes (allocation).
  uint64_t Count = 0;
  uint64_t WeightNs = 0; ///< CPU profiles: the time they stand for.
  uint64_t Objects = 0;  ///< Allocation profiles: objects allocated.
  uint32_t Sample = 0;   ///< Index into Profile::Samples.
};

/// A thread's samples in time order.
struct ThreadTimeline {
  uint32_t Run = 0; ///< As Sample::Run.
  int64_t Tid = 0;
  /// 0: each event is one record; else events are merged per stack within
  /// buckets of this width (the thread outgrew the runtime's cap).
  uint64_t BucketNs = 0;
  uint64_t Merged = 0;  ///< Records merged into buckets.
  uint64_t Missing = 0; ///< Records without an event (in Samples still).
  std::vector<TimelineEvent> Events; ///< In time order.
};

/// A stretch of every run (`--time FROM:TO`), in ns from the run's start;
/// an unset side is open.
struct TimeRange {
  std::optional<uint64_t> FromNs;
  std::optional<uint64_t> ToNs;
};

struct ThreadInfo {
  uint32_t Run = 0; ///< As Sample::Run: threads are keyed by (run, tid).
  int64_t Tid = 0;
  std::string Name;
};

/// One run (a process) of a profile made by merging profiles of several:
/// what the profile's metadata says about a run of one.
struct ProfileRun {
  std::vector<std::string> Command;
  std::optional<int64_t> Pid;
  std::optional<std::string> StartTime;
  std::optional<int64_t> StartTimeNs;
  std::optional<uint64_t> DurationNs;
  std::optional<uint64_t> CpuTimeNs;
};

/// Run metadata from a .sprof; every field is optional because a folded file
/// has none and a future writer may leave some out.
struct ProfileMetadata {
  std::vector<std::string> Command;
  std::optional<int64_t> Pid;
  std::optional<std::string> StartTime;
  std::optional<int64_t> StartTimeNs; ///< Unix time of the start, in ns.
  std::optional<uint64_t> DurationNs;
  std::optional<uint64_t> CpuTimeNs;
  std::optional<std::string> Mode;
  std::optional<std::string> Timer;
  std::optional<double> RequestedHz;
  std::optional<double> AchievedHz;
  std::optional<uint64_t> SampleCount;
  /// After --thread or --focus: the samples they chose from (SampleCount
  /// is then the chosen ones'), and what chose them ("--thread burner").
  std::optional<uint64_t> SelectedFrom;
  std::string Selection;
  std::optional<uint64_t> Dropped;
  std::optional<uint64_t> Truncated;
  std::optional<uint64_t> AllocRate; ///< Bytes between allocation samples.
  std::optional<std::string> FoldedPath;
  std::optional<std::string> FoldedUnit;
  std::optional<uint64_t> FoldedBytes;
};

/// A whole profile.
struct Profile {
  /// The file the samples came from, for messages and report headers.
  std::string SourcePath;
  /// True when read from a .sprof (metadata, kinds, threads are meaningful).
  bool SelfDescribing = false;
  ProfileKind Kind = ProfileKind::Cpu;
  ProfileMetadata Metadata;
  /// Empty for a profile of one run (Metadata describes it); else every
  /// run merged into it, which Sample::Run and ThreadInfo::Run index.
  std::vector<ProfileRun> Runs;
  std::vector<Frame> Frames;
  std::vector<ThreadInfo> Threads;
  std::vector<Sample> Samples;
  /// Each thread's samples in time order; empty when the input had none
  /// (a folded file, a .sprof before version 4). Every event's Sample
  /// indexes Samples, so a transform that renumbers Samples renumbers
  /// these or clears them.
  std::vector<ThreadTimeline> Timelines;
  /// Set when the samples are those of a stretch of the run (`--time`).
  std::optional<TimeRange> Range;

  /// Sum of Sample::Count over all samples.
  uint64_t totalCount() const;

  /// Sum of Sample::Objects, or nullopt when some sample has none.
  std::optional<uint64_t> totalObjects() const;

  /// The unit of Sample::Count: "samples" or "bytes".
  const char *unit() const { return Kind == ProfileKind::Alloc ? "bytes" : "samples"; }
};

/// A copy of P's header: everything but its frames and samples (the one
/// place that knows what a header is, so no transform drops a field).
Profile headerOf(const Profile &P);

/// Which threads listThreads adds to the profile's own.
struct ThreadListing {
  /// Samples of no thread (UnknownThread: a folded file's).
  bool UnknownSamples = true;
  /// A (run, tid) that only a timeline names.
  bool Timelines = false;
};

/// The threads a writer lists: the profile's, in its order, then, once
/// each, any (run, tid) that only samples name, then (if \p L says so) any
/// that only timelines name; those without a ThreadInfo are named "".
std::vector<ThreadInfo> listThreads(const Profile &P, ThreadListing L);

/// How messages and reports name thread Tid of run Run: "5448", or, in a
/// profile of several runs, "2:5448" (runs counted from 1).
std::string threadLabel(const Profile &P, uint32_t Run, int64_t Tid);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_PROFILE_H
