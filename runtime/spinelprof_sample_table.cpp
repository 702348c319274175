//===- spinelprof_sample_table.cpp - Lock-free table of stacks ------------===//
//
// Part of spinelprof. See spinelprof_sample_table.h.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_sample_table.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

namespace spinelprof {

// Sizes. The mappings are MAP_NORESERVE and touched only as they fill, so a
// short run costs a few pages, not the whole reservation. A test build may
// shrink them to make the table overflow.
#ifndef SPINELPROF_TABLE_SLOTS
#define SPINELPROF_TABLE_SLOTS (1 << 16) // 64 Ki stacks, 2.5 MiB.
#endif
#ifndef SPINELPROF_ARENA_FRAMES
#define SPINELPROF_ARENA_FRAMES (1 << 22) // 4 Mi frames, 32 MiB.
#endif
static constexpr size_t CpuSlots = SPINELPROF_TABLE_SLOTS;
static constexpr size_t CpuArenaFrames = SPINELPROF_ARENA_FRAMES;
static_assert((CpuSlots & (CpuSlots - 1)) == 0, "a power of two");
static constexpr size_t MaxProbes = 1024;         // Bounds a full table.
static constexpr size_t ThreadCapacity = ThreadRecordCapacity;

static SampleTable CpuTable;
static ThreadRecord *Threads;
static std::atomic<uint32_t> ThreadsUsed;
static std::atomic<uint64_t> Truncated;

static void *mapZeroed(size_t Bytes) {
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return P == MAP_FAILED ? nullptr : P;
}

/// Fresh zero pages in place of the inherited ones (MAP_FIXED replaces the
/// mapping), so a fork child does not copy the parent's records.
static void remapZeroed(void *At, size_t Bytes) {
  (void)mmap(At, Bytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

int SampleTable::init(size_t SlotCount, size_t Frames) {
  if (Slots)
    return 0;
  void *S = mapZeroed(SlotCount * sizeof(SampleSlot));
  void *C = mapZeroed(SlotCount * sizeof(*Claimed));
  void *A = mapZeroed(Frames * sizeof(const FrameDescriptor *));
  if (!S || !C || !A) {
    int Err = errno;
    if (S)
      munmap(S, SlotCount * sizeof(SampleSlot));
    if (C)
      munmap(C, SlotCount * sizeof(*Claimed));
    if (A)
      munmap(A, Frames * sizeof(const FrameDescriptor *));
    return Err;
  }
  // Zero-filled memory is a valid empty table: std::atomic of integers has
  // the integer's representation.
  SlotMask = SlotCount - 1;
  ArenaFrames = Frames;
  Arena = static_cast<const FrameDescriptor **>(A);
  Claimed = static_cast<std::atomic<uint32_t> *>(C);
  Slots = static_cast<SampleSlot *>(S);
  return 0;
}

int initSampleTable() {
  if (Threads)
    return 0;
  void *T = mapZeroed(ThreadCapacity * sizeof(ThreadRecord));
  if (!T)
    return errno;
  int Err = CpuTable.init(CpuSlots, CpuArenaFrames);
  if (Err) {
    munmap(T, ThreadCapacity * sizeof(ThreadRecord));
    return Err;
  }
  Threads = static_cast<ThreadRecord *>(T);
  return 0;
}

/// Never 0, which marks a free slot. Async-signal-safe.
static uint64_t hashStack(uint32_t Tid, const StackView &S) {
  uint64_t H = 0x9E3779B97F4A7C15ull ^ (uint64_t(Tid) << 32 | S.length());
  auto Mix = [&H](const FrameDescriptor *D) {
    H ^= reinterpret_cast<uintptr_t>(D);
    H *= 0xFF51AFD7ED558CCDull;
    H ^= H >> 29;
  };
  for (uint32_t Seg = 0; Seg < S.SegmentCount; ++Seg)
    for (uint32_t I = 0; I < S.Segments[Seg].Count; ++I)
      Mix(S.Segments[Seg].Frames[I]);
  if (S.Leaf)
    Mix(S.Leaf);
  return H ? H : 1;
}

/// Whether a Ready slot holds exactly this stack. Async-signal-safe.
bool SampleTable::holds(const SampleSlot &Slot, uint32_t Tid,
                        const StackView &S) const {
  if (Slot.Tid != Tid || Slot.Length != S.length())
    return false;
  const FrameDescriptor *const *F = Arena + Slot.Offset;
  for (uint32_t Seg = 0; Seg < S.SegmentCount; ++Seg) {
    const StackView::Segment &G = S.Segments[Seg];
    for (uint32_t I = 0; I < G.Count; ++I)
      if (*F++ != G.Frames[I])
        return false;
  }
  return !S.Leaf || *F == S.Leaf;
}

/// Reserves N arena frames; false if they do not fit. Async-signal-safe.
bool SampleTable::allocateFrames(uint32_t N, size_t &Offset) {
  size_t Used = ArenaUsed.load(std::memory_order_relaxed);
  do {
    if (N > ArenaFrames - Used)
      return false;
  } while (!ArenaUsed.compare_exchange_weak(Used, Used + N,
                                            std::memory_order_relaxed));
  Offset = Used;
  return true;
}

uint32_t SampleTable::record(uint32_t Tid, const StackView &S,
                             uint64_t Weight, uint64_t Count) {
  if (!Slots) {
    Dropped.fetch_add(Count, std::memory_order_relaxed);
    return 0;
  }
  uint64_t H = hashStack(Tid, S);
  size_t Index = H & SlotMask;
  for (size_t Probe = 0; Probe < MaxProbes;
       ++Probe, Index = (Index + 1) & SlotMask) {
    SampleSlot &Slot = Slots[Index];
    uint64_t Key = Slot.Key.load(std::memory_order_acquire);
    if (Key == 0) {
      if (Slot.Key.compare_exchange_strong(Key, H, std::memory_order_acq_rel)) {
        // Listed for the writer; each slot is claimed once, so the list
        // never outgrows the table.
        Claimed[ClaimedCount.fetch_add(1, std::memory_order_acq_rel)].store(
            uint32_t(Index + 1), std::memory_order_release);
        // The slot is ours alone until State becomes Ready.
        size_t Offset;
        if (!allocateFrames(S.length(), Offset)) {
          Slot.State.store(SampleSlot::Dead, std::memory_order_release);
          Dropped.fetch_add(Count, std::memory_order_relaxed);
          return 0;
        }
        const FrameDescriptor **F = Arena + Offset;
        for (uint32_t Seg = 0; Seg < S.SegmentCount; ++Seg)
          for (uint32_t I = 0; I < S.Segments[Seg].Count; ++I)
            *F++ = S.Segments[Seg].Frames[I];
        if (S.Leaf)
          *F = S.Leaf;
        Slot.Tid = Tid;
        Slot.Length = S.length();
        Slot.Offset = static_cast<uint32_t>(Offset);
        Slot.Count.store(Count, std::memory_order_relaxed);
        Slot.WeightNs.store(Weight, std::memory_order_relaxed);
        Slot.State.store(SampleSlot::Ready, std::memory_order_release);
        return uint32_t(Index + 1);
      }
      // Lost the race: Key now holds the winner's hash; compare with it.
    }
    if (Key != H)
      continue;
    // A slot still Filling is passed over; this record may then start a
    // duplicate of the same stack, which the writer merges.
    if (Slot.State.load(std::memory_order_acquire) != SampleSlot::Ready ||
        !holds(Slot, Tid, S))
      continue;
    Slot.Count.fetch_add(Count, std::memory_order_relaxed);
    Slot.WeightNs.fetch_add(Weight, std::memory_order_relaxed);
    return uint32_t(Index + 1);
  }
  Dropped.fetch_add(Count, std::memory_order_relaxed);
  return 0;
}

void SampleTable::reset() {
  if (!Slots)
    return;
  remapZeroed(Slots, slotCount() * sizeof(SampleSlot));
  remapZeroed(Claimed, slotCount() * sizeof(*Claimed));
  ClaimedCount.store(0);
  ArenaUsed.store(0);
  Dropped.store(0);
}

uint32_t recordSample(uint32_t Tid, const StackView &S, uint64_t WeightNs,
                      uint32_t Count) {
  return CpuTable.record(Tid, S, WeightNs, Count);
}

void addSampleWeight(uint32_t Slot, uint64_t WeightNs) {
  CpuTable.addWeight(Slot, WeightNs);
}

void noteTruncated() { Truncated.fetch_add(1, std::memory_order_relaxed); }

/// Stores Name, cut to 15 bytes, as R's. Async-signal-safe.
static void copyThreadName(ThreadRecord &R, const char *Name) {
  char Bytes[sizeof(R.Name)] = {};
  for (size_t Len = 0; Len < sizeof(Bytes) - 1 && Name[Len]; ++Len)
    Bytes[Len] = Name[Len];
  uint64_t Words[2];
  memcpy(Words, Bytes, sizeof(Words));
  R.Name[0].store(Words[0], std::memory_order_relaxed);
  R.Name[1].store(Words[1], std::memory_order_relaxed);
}

uint32_t registerThread(uint32_t Tid, const char *Name) {
  if (!Threads)
    return 0;
  uint32_t I = ThreadsUsed.fetch_add(1, std::memory_order_relaxed);
  if (I >= ThreadCapacity)
    return 0; // The thread keeps its samples; only its name is lost.
  ThreadRecord &R = Threads[I];
  copyThreadName(R, Name);
  R.Tid.store(Tid, std::memory_order_release);
  return I + 1;
}

void renameThread(uint32_t Record, const char *Name) {
  if (Threads && Record && Record <= ThreadCapacity)
    copyThreadName(Threads[Record - 1], Name);
}

void setThreadCpu(uint32_t Record, uint64_t CpuNs) {
  if (Threads && Record && Record <= ThreadCapacity)
    Threads[Record - 1].CpuNs.store(CpuNs, std::memory_order_relaxed);
}

uint64_t threadCpu(uint32_t Tid) {
  uint32_t N = ThreadsUsed.load();
  if (N > ThreadCapacity)
    N = ThreadCapacity;
  uint64_t Sum = 0;
  for (uint32_t I = 0; I < N; ++I)
    if (Threads[I].Tid.load(std::memory_order_acquire) == Tid)
      Sum += Threads[I].CpuNs.load(std::memory_order_relaxed);
  return Sum;
}

void resetSampleTable() {
  if (!Threads)
    return;
  CpuTable.reset();
  remapZeroed(Threads, ThreadCapacity * sizeof(ThreadRecord));
  ThreadsUsed.store(0);
  Truncated.store(0);
}

const SampleTable &cpuSamples() { return CpuTable; }
size_t sampleSlotCount() { return CpuTable.slotCount(); }
const SampleSlot &sampleSlot(size_t I) { return CpuTable.slot(I); }
size_t sampleClaimedCount() { return CpuTable.claimedCount(); }
const SampleSlot *sampleClaimedSlot(size_t K) {
  return CpuTable.claimedSlot(K);
}
const FrameDescriptor *const *slotFrames(const SampleSlot &Slot) {
  return CpuTable.frames(Slot);
}
uint64_t droppedSamples() { return CpuTable.dropped(); }
uint64_t truncatedSamples() { return Truncated.load(); }

void threadName(uint32_t Tid, char (&Out)[16]) {
  uint32_t N = ThreadsUsed.load();
  if (N > ThreadCapacity)
    N = ThreadCapacity;
  // The latest record wins: a tid reused after a thread ended names the
  // newer thread, whose samples come last.
  Out[0] = '\0';
  for (uint32_t I = N; I-- > 0;) {
    if (Threads[I].Tid.load(std::memory_order_acquire) != Tid)
      continue;
    uint64_t Words[2] = {Threads[I].Name[0].load(std::memory_order_relaxed),
                         Threads[I].Name[1].load(std::memory_order_relaxed)};
    memcpy(Out, Words, sizeof(Out));
    Out[sizeof(Out) - 1] = '\0';
    return;
  }
}

} // namespace spinelprof
