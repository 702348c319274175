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

/// A stack as the handler sees it, without copying: Count frames, root
/// first, then an optional synthetic Leaf ("[truncated]", "[unknown]").
struct StackView {
  const FrameDescriptor *const *Frames;
  uint32_t Count;
  const FrameDescriptor *Leaf;

  uint32_t length() const { return Count + (Leaf ? 1 : 0); }
  const FrameDescriptor *at(uint32_t I) const {
    return I < Count ? Frames[I] : Leaf;
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

/// A thread seen by the handler, with the name it had at its first sample.
struct ThreadRecord {
  std::atomic<uint32_t> Tid; // 0 until the name is written.
  char Name[16];
};

/// Maps the table, the arena and the thread registry. Returns 0 or an errno.
/// Start-up only, before the timer runs.
int initSampleTable();

/// Adds one sample of stack S taken on thread Tid that stands for WeightNs of
/// CPU time. Async-signal-safe (no malloc, locks or libc); lock-free; may run
/// on several threads at once.
void recordSample(uint32_t Tid, const StackView &S, uint64_t WeightNs);

/// Counts a sample whose stack was deeper than the shadow stack.
/// Async-signal-safe; any thread.
void noteTruncated();

/// Remembers a thread's name the first time it is sampled.
/// Async-signal-safe; any thread.
void registerThread(uint32_t Tid, const char *Name);

/// Read side, for the writer once sampling has stopped (single thread).
size_t sampleSlotCount();
const SampleSlot &sampleSlot(size_t I);
const FrameDescriptor *const *slotFrames(const SampleSlot &Slot);
uint64_t droppedSamples();
uint64_t truncatedSamples();
/// The name registered for Tid, or "" if it was never registered.
const char *threadName(uint32_t Tid);

} // namespace spinelprof

#endif // SPINELPROF_SAMPLE_TABLE_H
