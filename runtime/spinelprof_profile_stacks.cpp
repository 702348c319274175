//===- spinelprof_profile_stacks.cpp - The stacks the writers write -------===//
//
// Part of spinelprof. See spinelprof_profile_stacks.h. Async-signal-safe
// throughout: memory from spinelprof_scratch.h, never malloc; std::sort,
// which allocates nothing; nothing from libstdc++'s library.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_profile_stacks.h"

#include "spinelprof_alloc.h"
#include "spinelprof_scratch.h"
#include "spinelprof_timeline.h"

#include <errno.h>

namespace spinelprof {

static int compareFrames(const FrameDescriptor *const *A,
                         const FrameDescriptor *const *B, uint32_t N) {
  for (uint32_t I = 0; I < N; ++I)
    if (A[I] != B[I])
      return reinterpret_cast<uintptr_t>(A[I]) <
                     reinterpret_cast<uintptr_t>(B[I])
                 ? -1
                 : 1;
  return 0;
}

/// Thread, then stack: brings a stack's duplicate slots together.
static int compareByThreadAndStack(const void *PA, const void *PB) {
  const auto *A = static_cast<const StackRecord *>(PA);
  const auto *B = static_cast<const StackRecord *>(PB);
  if (A->Tid != B->Tid)
    return A->Tid < B->Tid ? -1 : 1;
  if (A->Length != B->Length)
    return A->Length < B->Length ? -1 : 1;
  return compareFrames(A->Frames, B->Frames, A->Length);
}

/// The order of the profile's samples: most samples first.
static int compareByCount(const void *PA, const void *PB) {
  const auto *A = static_cast<const StackRecord *>(PA);
  const auto *B = static_cast<const StackRecord *>(PB);
  if (A->Count != B->Count)
    return A->Count > B->Count ? -1 : 1;
  return compareByThreadAndStack(PA, PB);
}

static int comparePointers(const void *PA, const void *PB) {
  uintptr_t A = reinterpret_cast<uintptr_t>(*static_cast<void *const *>(PA));
  uintptr_t B = reinterpret_cast<uintptr_t>(*static_cast<void *const *>(PB));
  return A < B ? -1 : A > B ? 1 : 0;
}

static int compareTids(const void *PA, const void *PB) {
  uint32_t A = *static_cast<const uint32_t *>(PA);
  uint32_t B = *static_cast<const uint32_t *>(PB);
  return A < B ? -1 : A > B ? 1 : 0;
}

/// Cpu mode: each thread's CPU time (threadCpu) shared out among its
/// stacks by their recorded weights, what each sample stands for: the
/// law's mean interval plus the sampler's own stall it caused
/// (docs/design.md, Sampling); a thread without a recorded CPU time keeps
/// the weights recorded. Stacks is sorted by thread.
static void shareThreadCpu(StackRecord *Stacks, size_t Count) {
  for (size_t First = 0, Next; First < Count; First = Next) {
    uint64_t Recorded = 0;
    for (Next = First; Next < Count && Stacks[Next].Tid == Stacks[First].Tid;
         ++Next)
      Recorded += Stacks[Next].WeightNs;
    uint64_t Cpu = threadCpu(Stacks[First].Tid);
    if (!Cpu || !Recorded)
      continue;
    for (size_t I = First; I < Next; ++I)
      Stacks[I].WeightNs = uint64_t(
          (unsigned __int128)Cpu * Stacks[I].WeightNs / Recorded);
  }
}

/// Copies Table's Ready slots to Stacks; returns how many.
static size_t copyReadySlots(const SampleTable &Table, size_t SlotCount,
                             StackRecord *Stacks) {
  size_t Count = 0;
  for (size_t I = 0; I < SlotCount; ++I) {
    const SampleSlot *Claimed = Table.claimedSlot(I);
    if (!Claimed)
      continue;
    const SampleSlot &Slot = *Claimed;
    if (Slot.State.load(std::memory_order_acquire) != SampleSlot::Ready)
      continue;
    Stacks[Count++] = {Slot.Tid, Slot.Length, Table.frames(Slot),
                       Slot.Count.load(), Slot.WeightNs.load(),
                       uint32_t(&Slot - &Table.slot(0))};
  }
  return Count;
}

/// Merges the duplicates of a (thread, stack) in Stacks, sorted by thread
/// and stack, noting in StackOfSlot where each slot went; then each
/// stack's Slot is its index here. Returns how many stacks are left.
static size_t mergeDuplicates(StackRecord *Stacks, size_t Count,
                              uint32_t *StackOfSlot) {
  size_t Merged = 0;
  for (size_t I = 0; I < Count; ++I) {
    uint32_t Slot = Stacks[I].Slot;
    if (Merged &&
        compareByThreadAndStack(&Stacks[Merged - 1], &Stacks[I]) == 0) {
      Stacks[Merged - 1].Count += Stacks[I].Count;
      Stacks[Merged - 1].WeightNs += Stacks[I].WeightNs;
    } else {
      Stacks[Merged++] = Stacks[I];
    }
    if (StackOfSlot)
      StackOfSlot[Slot] = uint32_t(Merged); // 1 + the index: 0 is none
  }
  for (size_t I = 0; I < Merged; ++I)
    Stacks[I].Slot = uint32_t(I);
  return Merged;
}

/// After the stacks' final sort: where each merged stack went.
static int noteFinalPlaces(ProfileStacks &P) {
  P.FinalOfMerged = static_cast<uint32_t *>(
      scratchAlloc((P.StackCount ? P.StackCount : 1) * sizeof(uint32_t)));
  if (!P.FinalOfMerged)
    return ENOMEM;
  for (size_t K = 0; K < P.StackCount; ++K)
    P.FinalOfMerged[P.Stacks[K].Slot] = uint32_t(K);
  return 0;
}

int collectStacks(const SampleTable &Table, ProfileType Type,
                  const RunInfo &Run, ProfileStacks &P) {
  bool Alloc = Type == ProfileType::Alloc;
  size_t SlotCount = Table.claimedCount();
  P.Stacks = static_cast<StackRecord *>(
      scratchAlloc((SlotCount ? SlotCount : 1) * sizeof(StackRecord)));
  if (!P.Stacks)
    return ENOMEM;
  // Only a timeline names slots (256 KiB for the CPU table's 64 Ki).
  P.SlotCount = timelineRecordLimit() ? Table.slotCount() : 0;
  P.StackOfSlot = static_cast<uint32_t *>(
      scratchAlloc((P.SlotCount ? P.SlotCount : 1) * sizeof(uint32_t)));
  if (!P.StackOfSlot)
    return ENOMEM;
  size_t Count = copyReadySlots(Table, SlotCount, P.Stacks);
  sortBy(P.Stacks, Count, compareByThreadAndStack);
  Count = mergeDuplicates(P.Stacks, Count,
                          P.SlotCount ? P.StackOfSlot : nullptr);
  if (!Alloc && !Run.Wall)
    shareThreadCpu(P.Stacks, Count);
  if (Alloc)
    for (size_t I = 0; I < Count; ++I)
      P.Stacks[I].Count = allocObjects(P.Stacks[I].Count);
  sortBy(P.Stacks, Count, compareByCount);
  P.StackCount = Count;
  for (size_t I = 0; I < Count; ++I)
    P.TotalFrames += P.Stacks[I].Length;
  return noteFinalPlaces(P);
}

void summarizeStacks(const ProfileStacks &P, WriteResult &Out) {
  uint64_t TotalWeightNs = 0;
  for (size_t I = 0; I < P.StackCount; ++I) {
    Out.SampleCount += P.Stacks[I].Count;
    Out.Bytes += P.Stacks[I].WeightNs;
    TotalWeightNs += P.Stacks[I].WeightNs;
  }
  // Samples per second of the time they stand for (CPU time of the sampled
  // threads, or their wall time in wall mode).
  Out.AchievedHz = TotalWeightNs ? double(Out.SampleCount) * 1e9 /
                                       double(TotalWeightNs)
                                 : 0.0;
}

/// Index of D among the N sorted unique descriptors.
static size_t findDescriptor(const FrameDescriptor *const *Sorted, size_t N,
                             const FrameDescriptor *D) {
  size_t Lo = 0, Hi = N;
  while (Lo < Hi) {
    size_t Mid = Lo + (Hi - Lo) / 2;
    if (reinterpret_cast<uintptr_t>(Sorted[Mid]) <
        reinterpret_cast<uintptr_t>(D))
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo;
}

/// P.Sorted: every frame of every stack, sorted and unique.
static size_t sortUniqueDescriptors(ProfileStacks &P) {
  size_t N = 0;
  for (size_t I = 0; I < P.StackCount; ++I)
    for (uint32_t F = 0; F < P.Stacks[I].Length; ++F)
      P.Sorted[N++] = P.Stacks[I].Frames[F];
  sortBy(P.Sorted, N, comparePointers);
  size_t Unique = 0;
  for (size_t I = 0; I < N; ++I)
    if (!Unique || P.Sorted[Unique - 1] != P.Sorted[I])
      P.Sorted[Unique++] = P.Sorted[I];
  return Unique;
}

/// Numbers the frames by first use, stacks in order, root first.
static void numberFrames(ProfileStacks &P, size_t Unique) {
  for (size_t I = 0; I < Unique; ++I)
    P.IndexOfSorted[I] = UINT32_MAX;
  for (size_t I = 0; I < P.StackCount; ++I)
    for (uint32_t F = 0; F < P.Stacks[I].Length; ++F) {
      size_t K = findDescriptor(P.Sorted, Unique, P.Stacks[I].Frames[F]);
      if (P.IndexOfSorted[K] == UINT32_MAX) {
        P.IndexOfSorted[K] = static_cast<uint32_t>(P.FrameCount);
        P.FrameOrder[P.FrameCount++] = P.Sorted[K];
      }
    }
}

/// P.Tids: the stacks' threads, ascending, once each.
static void listThreads(ProfileStacks &P) {
  for (size_t I = 0; I < P.StackCount; ++I)
    P.Tids[I] = P.Stacks[I].Tid;
  sortBy(P.Tids, P.StackCount, compareTids);
  for (size_t I = 0; I < P.StackCount; ++I)
    if (!P.TidCount || P.Tids[P.TidCount - 1] != P.Tids[I])
      P.Tids[P.TidCount++] = P.Tids[I];
}

int numberFramesAndThreads(ProfileStacks &P) {
  size_t Frames = P.TotalFrames ? P.TotalFrames : 1;
  P.Sorted = static_cast<const FrameDescriptor **>(
      scratchAlloc(Frames * sizeof(*P.Sorted)));
  P.IndexOfSorted =
      static_cast<uint32_t *>(scratchAlloc(Frames * sizeof(uint32_t)));
  P.FrameOrder = static_cast<const FrameDescriptor **>(
      scratchAlloc(Frames * sizeof(*P.FrameOrder)));
  P.Tids = static_cast<uint32_t *>(
      scratchAlloc((P.StackCount ? P.StackCount : 1) * sizeof(uint32_t)));
  if (!P.Sorted || !P.IndexOfSorted || !P.FrameOrder || !P.Tids)
    return ENOMEM;
  numberFrames(P, sortUniqueDescriptors(P));
  listThreads(P);
  return 0;
}

uint32_t frameNumber(const ProfileStacks &P, const FrameDescriptor *D) {
  // Sorted holds FrameCount distinct descriptors: every frame is numbered.
  return P.IndexOfSorted[findDescriptor(P.Sorted, P.FrameCount, D)];
}

void freeProfileStacks(ProfileStacks &P) {
  scratchFree(P.StackOfSlot);
  scratchFree(P.FinalOfMerged);
  scratchFree(P.Tids);
  scratchFree(P.FrameOrder);
  scratchFree(P.IndexOfSorted);
  scratchFree(P.Sorted);
  scratchFree(P.Stacks);
  P = ProfileStacks();
}

const char *displayName(const FrameDescriptor *D) {
  if (!D)
    return "[unknown]";
  if (D->name && *D->name)
    return D->name;
  if (D->c_name && *D->c_name)
    return D->c_name;
  return "[unnamed]";
}

} // namespace spinelprof
