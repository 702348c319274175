//===- spinelprof_sample_table.h - Lock-free table of stacks ----*- C++ -*-===//
//
// Where the signal handler puts samples: a fixed-size open-addressing table
// of distinct (thread, stack) → count and weight, with the stacks' frames in
// a fixed-size arena. All memory is mapped at start-up; a sample that finds
// no room is counted as dropped. Several threads may insert at once (a
// process-wide CPU timer signals whichever thread is running), so slots are
// claimed with compare-and-swap and never locked. Two threads racing to add
// the same new stack may both create a slot; the writer merges duplicates.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_SAMPLE_TABLE_H
#define SPINELPROF_SAMPLE_TABLE_H

#include "spinelprof/abi.h"

#include <atomic>
#include <stddef.h>
#include <stdint.h>

namespace spinelprof {

using FrameDescriptor = spinelprof_frame_descriptor;

/// A stack as the handler sees it, without copying: segments of frames,
/// root first (a fiber's frames come after the frames of the stacks that
/// resumed it, each fiber behind a "[fiber]" marker segment), then an
/// optional synthetic Leaf ("[truncated]", "[unknown]", "[native] ...").
struct StackView {
  static constexpr uint32_t MaxSegments = 17; // 8 nested fibers + markers.
  struct Segment {
    const FrameDescriptor *const *Frames;
    uint32_t Count;
  };
  Segment Segments[MaxSegments];
  uint32_t SegmentCount = 0;
  uint32_t Count = 0; // Frames in all segments.
  const FrameDescriptor *Leaf = nullptr;

  StackView() = default;
  StackView(const FrameDescriptor *const *Frames, uint32_t N,
            const FrameDescriptor *Leaf)
      : Leaf(Leaf) {
    add(Frames, N);
  }
  /// Appends a segment; one beyond MaxSegments is dropped.
  void add(const FrameDescriptor *const *Frames, uint32_t N) {
    if (N == 0 || SegmentCount == MaxSegments)
      return;
    Segments[SegmentCount++] = {Frames, N};
    Count += N;
  }
  uint32_t length() const { return Count + (Leaf ? 1 : 0); }
  const FrameDescriptor *at(uint32_t I) const {
    for (uint32_t S = 0; S < SegmentCount; ++S) {
      if (I < Segments[S].Count)
        return Segments[S].Frames[I];
      I -= Segments[S].Count;
    }
    return Leaf;
  }
};

/// One slot of the table. Readable by the writer once no handler runs.
struct SampleSlot {
  enum : uint32_t { Empty = 0, Filling = 1, Ready = 2, Dead = 3 };
  std::atomic<uint64_t> Key;   // 0 while free, else the stack's hash.
  std::atomic<uint32_t> State; // Ready once Tid, Length, Offset are written.
  uint32_t Tid;
  uint32_t Length; // Frames, synthetic leaf included.
  uint32_t Offset; // Index of the root frame in the arena.
  std::atomic<uint64_t> Count;
  std::atomic<uint64_t> WeightNs;
};

/// A thread seen by the handler, with its name (from its first sample,
/// renamed at its end) and, in cpu mode, the CPU time its samples stand
/// for.
struct ThreadRecord {
  std::atomic<uint32_t> Tid; // 0 until the name is written.
  /// Up to 15 bytes and a NUL, in two words: a rename may race the writer.
  std::atomic<uint64_t> Name[2];
  std::atomic<uint64_t> CpuNs;
};

/// A table of distinct (thread, stack) -> count and weight. The profiler
/// has two: CPU samples (the free functions below) and allocation samples
/// (spinelprof_alloc.cpp). Plain data: zero-initialised it is an unmapped
/// table that counts every record as dropped.
class SampleTable {
public:
  /// Maps Slots slots (a power of two) and an arena of ArenaFrames frames.
  /// Returns 0 or an errno. Start-up only, before any record.
  int init(size_t Slots, size_t ArenaFrames);

  /// Adds Count (usually 1) to stack S of thread Tid, and Weight to its
  /// weight. Returns the slot's index + 1 (slot()), or 0 when the record
  /// was dropped. Async-signal-safe (no malloc, locks or libc); lock-free;
  /// may run on several threads at once.
  uint32_t record(uint32_t Tid, const StackView &S, uint64_t Weight,
                  uint64_t Count);

  /// Adds Weight to the weight of slot Slot (record's index + 1).
  /// Async-signal-safe; lock-free.
  void addWeight(uint32_t Slot, uint64_t Weight) {
    if (Slot && Slot <= slotCount())
      Slots[Slot - 1].WeightNs.fetch_add(Weight, std::memory_order_relaxed);
  }

  /// Forgets every record: the fork child starts afresh. Only while no one
  /// records.
  void reset();

  /// Read side, for the writer (single thread). While records go on (a
  /// flush) it sees every slot that was Ready when it looked. The slots
  /// claimed so far are listed in claim order, so the writer reads only
  /// those, not the whole table (whose untouched zero pages would each
  /// cost a page fault: ~650 per run).
  size_t claimedCount() const {
    size_t N = ClaimedCount.load(std::memory_order_acquire);
    return N < slotCount() ? N : slotCount();
  }
  /// The K-th claimed slot, or null while its claim is being listed.
  const SampleSlot *claimedSlot(size_t K) const {
    uint32_t I = Claimed[K].load(std::memory_order_acquire);
    return I ? &Slots[I - 1] : nullptr;
  }
  const FrameDescriptor *const *frames(const SampleSlot &Slot) const {
    return Arena + Slot.Offset;
  }
  uint64_t dropped() const { return Dropped.load(); }

  /// The whole table, slot by slot (the table's own test).
  size_t slotCount() const { return Slots ? SlotMask + 1 : 0; }
  const SampleSlot &slot(size_t I) const { return Slots[I]; }

private:
  bool allocateFrames(uint32_t N, size_t &Offset);
  bool holds(const SampleSlot &Slot, uint32_t Tid, const StackView &S) const;

  SampleSlot *Slots;
  /// Index + 1 of each slot claimed, in claim order (0: being written).
  std::atomic<uint32_t> *Claimed;
  std::atomic<size_t> ClaimedCount;
  const FrameDescriptor **Arena;
  size_t SlotMask;
  size_t ArenaFrames;
  std::atomic<size_t> ArenaUsed;
  std::atomic<uint64_t> Dropped;
};

/// How many threads get a record (registerThread); later ones keep their
/// samples but have no name and no timeline.
inline constexpr uint32_t ThreadRecordCapacity = 4096;

/// The CPU samples' table (and the thread names). Returns 0 or an errno.
/// Start-up only, before the timer runs.
int initSampleTable();

/// Adds Count samples (usually 1) of stack S taken on thread Tid that stand
/// for WeightNs of time in all. Returns the slot's index + 1, or 0 when
/// dropped. Async-signal-safe (no malloc, locks or libc); lock-free; may
/// run on several threads at once.
uint32_t recordSample(uint32_t Tid, const StackView &S, uint64_t WeightNs,
                      uint32_t Count = 1);

/// Adds WeightNs to a CPU sample recordSample returned (Slot, its index +
/// 1): what the sample stands for, once known. Async-signal-safe.
void addSampleWeight(uint32_t Slot, uint64_t WeightNs);

/// Counts a sample whose stack was deeper than the shadow stack.
/// Async-signal-safe; any thread.
void noteTruncated();

/// Remembers a thread's name the first time it is sampled. Returns its
/// record for setThreadCpu (0: the records are full). Async-signal-safe;
/// any thread.
uint32_t registerThread(uint32_t Tid, const char *Name);

/// Gives a thread's record (registerThread's) the name the thread has now.
/// Async-signal-safe; any thread.
void renameThread(uint32_t Record, const char *Name);

/// Cpu mode: the CPU time the samples of a thread's record stand for (its
/// CPU clock from registration to its last timer signal), set as it grows.
/// Async-signal-safe; the record's thread.
void setThreadCpu(uint32_t Record, uint64_t CpuNs);

/// The CPU time set for Tid (every record of that tid), or 0. The writer.
uint64_t threadCpu(uint32_t Tid);

/// Forgets every CPU sample and thread name: the fork child starts afresh.
/// Only while no handler or sampler runs.
void resetSampleTable();

/// The CPU samples, for the writer.
const SampleTable &cpuSamples();
/// Read side of the CPU table, for the writer (single thread), and the
/// whole table for the table's own test.
size_t sampleSlotCount();
const SampleSlot &sampleSlot(size_t I);
size_t sampleClaimedCount();
const SampleSlot *sampleClaimedSlot(size_t K);
const FrameDescriptor *const *slotFrames(const SampleSlot &Slot);
uint64_t droppedSamples();
uint64_t truncatedSamples();
/// The name registered for Tid, or "" if it was never registered, in Out.
void threadName(uint32_t Tid, char (&Out)[16]);

} // namespace spinelprof

#endif // SPINELPROF_SAMPLE_TABLE_H
