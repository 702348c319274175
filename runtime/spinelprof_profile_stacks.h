//===- spinelprof_profile_stacks.h - The stacks the writers write -*- C++ -*-===//
//
// The profile's distinct (thread, stack)s, merged from a sample table's
// slots and weighted, with the numbering the .sprof gives frames and the
// list of threads; and what the summary line says of them. Built by the
// writer (spinelprof_writer.h) at exit, for a flush, or in the copy of
// the process that writes for a signal: one writer at a time, memory from
// spinelprof_scratch.h, sorting with std::sort (which allocates nothing;
// glibc's qsort may malloc). Async-signal-safe throughout.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PROFILE_STACKS_H
#define SPINELPROF_PROFILE_STACKS_H

#include "spinelprof_sample_table.h"
#include "spinelprof_writer.h"

#include <algorithm>
#include <stddef.h>
#include <stdint.h>

namespace spinelprof {

/// One distinct (thread, stack), merged from the table's slots.
struct StackRecord {
  uint32_t Tid;
  uint32_t Length;
  const FrameDescriptor *const *Frames;
  uint64_t Count;    // Allocation profile: objects (estimated).
  uint64_t WeightNs; // Allocation profile: bytes (estimated).
  uint32_t Slot;     // The table's slot (while collecting), then none.
};

/// The profile's stacks and what the .sprof numbers and lists of them.
/// Every array is from scratchAlloc; freeProfileStacks frees them.
struct ProfileStacks {
  StackRecord *Stacks = nullptr; ///< Most samples first.
  size_t StackCount = 0;
  size_t TotalFrames = 0; ///< Frames of all stacks, repeats included.
  /// The distinct descriptors, sorted by address for lookup; the frame
  /// number of Sorted[K] is IndexOfSorted[K], numbered by first use.
  const FrameDescriptor **Sorted = nullptr;
  uint32_t *IndexOfSorted = nullptr;
  /// The descriptors by frame number.
  const FrameDescriptor **FrameOrder = nullptr;
  size_t FrameCount = 0;
  /// The threads that have samples, ascending.
  uint32_t *Tids = nullptr;
  size_t TidCount = 0;
  /// For each of the table's slots (the timeline's events name slots),
  /// 1 + its stack's index before the sort by count, 0 for a slot not
  /// written (the array is a fresh mapping: only written slots are
  /// touched); FinalOfMerged maps that index to its place in Stacks.
  uint32_t *StackOfSlot = nullptr;
  size_t SlotCount = 0;
  uint32_t *FinalOfMerged = nullptr;
  static constexpr uint32_t NoStack = UINT32_MAX;
};

/// The index in P.Stacks of the stack the table's slot Slot holds, or
/// NoStack (not written, or not Ready when the stacks were collected: a
/// flush).
inline uint32_t stackOfSlot(const ProfileStacks &P, uint32_t Slot) {
  uint32_t Merged = Slot < P.SlotCount ? P.StackOfSlot[Slot] : 0;
  return Merged ? P.FinalOfMerged[Merged - 1] : ProfileStacks::NoStack;
}

/// Sorts N elements at A by a qsort-style comparison, allocating nothing.
template <typename T>
void sortBy(T *A, size_t N, int (*Compare)(const void *, const void *)) {
  std::sort(A, A + N, [Compare](const T &X, const T &Y) {
    return Compare(&X, &Y) < 0;
  });
}

/// Fills P.Stacks from Table's Ready slots: duplicates of a (thread,
/// stack) merged, CPU profiles' weights shared out by threadCpu (cpu
/// mode), allocation profiles' counts made objects; most samples first.
/// Returns 0 or ENOMEM. Sampling may still run.
int collectStacks(const SampleTable &Table, ProfileType Type,
                  const RunInfo &Run, ProfileStacks &P);

/// Out's SampleCount, Bytes and AchievedHz from P.Stacks.
void summarizeStacks(const ProfileStacks &P, WriteResult &Out);

/// Numbers P's frames by first use and lists its threads. Returns 0 or
/// ENOMEM.
int numberFramesAndThreads(ProfileStacks &P);

/// The frame number of D, one of P's frames.
uint32_t frameNumber(const ProfileStacks &P, const FrameDescriptor *D);

/// Frees P's arrays.
void freeProfileStacks(ProfileStacks &P);

/// The name a frame is shown by: its Ruby name, else its C name, else
/// "[unnamed]"; "[unknown]" for a missing descriptor.
const char *displayName(const FrameDescriptor *D);

} // namespace spinelprof

#endif // SPINELPROF_PROFILE_STACKS_H
