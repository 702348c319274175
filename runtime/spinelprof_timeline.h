//===- spinelprof_timeline.h - Each thread's samples in order ---*- C++ -*-===//
//
// The timeline: per thread and per profile (CPU, allocation), the records
// of the sample tables in the order the thread made them, each an event
// (time, table slot, count, weight) of 16 bytes in a log of its own. The
// memory is one pool reserved at start-up (MAP_NORESERVE: a page costs RSS
// only once an event is written to it), SPINEL_PROFILE_TIMELINE_MB in all,
// handed out in chunks that threads claim lock-free and never give back.
//
// Past the cap: a thread that can get no chunk coarsens its own log in
// place: events of the same stack within a bucket of width W (from the
// run's start) become one event at the bucket's start; W doubles until a
// quarter of the log is free. The end of the run is never lost, only its
// resolution. Records that find no room even so are counted as missing.
//
// Each log is written by its own thread alone (the signal handler, a
// blocking call's wrapper, an allocation's slow path); the writer reads
// it while the thread goes on, and retries when its sequence number says
// a compaction ran meanwhile. Logs are keyed by the thread's record in the
// sample table (registerThread), so a thread that exited keeps its log.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TIMELINE_H
#define SPINELPROF_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

namespace spinelprof {

/// Which of a thread's two logs.
enum class TimelineKind : uint32_t { Cpu = 0, Alloc = 1 };

/// The largest count and weight an event holds; a record beyond them is
/// split into several events at the same time.
inline constexpr uint64_t TimelineMaxCount = (uint64_t(1) << 24) - 1;
inline constexpr uint64_t TimelineMaxWeight = (uint64_t(1) << 40) - 1;

/// Reserves the pool: CapMb MiB in all (0: no timeline), the run starting
/// at StartNs (CLOCK_MONOTONIC). Returns 0 or an errno. Start-up only.
int initTimeline(unsigned CapMb, uint64_t StartNs);

/// Appends a record to the log of Kind of thread record Record
/// (registerThread's number; 0: none) of thread Tid: at TimeNs
/// (CLOCK_MONOTONIC), table slot Slot, Count and Weight (the table's
/// units; an allocation's count in 1/256 objects). Async-signal-safe (no
/// malloc, locks or libc); on the record's own thread only.
void appendTimeline(uint32_t Record, uint32_t Tid, TimelineKind Kind,
                    uint64_t TimeNs, uint32_t Slot, uint64_t Count,
                    uint64_t Weight);

/// The fork child: every log forgotten, the run starting at StartNs.
/// Only while no other thread runs.
void resetTimeline(uint64_t StartNs);

/// One event as the writer reads it: time from the run's start, the
/// table slot (an index of SampleTable::slot), count and weight.
struct TimelineEvent {
  uint64_t TimeNs;
  uint32_t Slot;
  uint64_t Count;
  uint64_t Weight;
};

/// A consistent copy of one log, for the writer.
struct TimelineSnapshot {
  uint32_t Tid = 0;
  uint64_t BucketNs = 0, Merged = 0, Missing = 0;
  uint64_t *Words = nullptr; ///< Two per event, from scratchAlloc.
  size_t Events = 0;
  TimelineEvent event(size_t I) const;
};

/// The largest thread record with a log (an upper bound of Record; 0
/// without a timeline).
uint32_t timelineRecordLimit();

/// The thread of the log of Record and Kind, 0 while it has none. The
/// writer; async-signal-safe.
uint32_t timelineTid(uint32_t Record, TimelineKind Kind);

/// Copies the log of Record and Kind into Out (Words from scratchAlloc:
/// the caller frees it). Returns false when the log has no thread or
/// memory is short; a log under compaction is retried, then read as
/// empty with its events counted missing. The writer; async-signal-safe.
bool snapshotTimeline(uint32_t Record, TimelineKind Kind,
                      TimelineSnapshot &Out);

} // namespace spinelprof

#endif // SPINELPROF_TIMELINE_H
