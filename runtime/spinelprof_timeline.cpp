//===- spinelprof_timeline.cpp - Each thread's samples in order -----------===//
//
// Part of spinelprof. See spinelprof_timeline.h.
//
// An event is two words: the time from the run's start (48 bits of ns,
// 78 hours) over the table slot (16 bits), and the count (24 bits) over
// the weight (40 bits). Every word is a relaxed atomic, so the writer's
// reads of a log its thread is changing are no data race; the log's
// sequence number (odd while the thread compacts) says whether the copy
// it made is one state of the log.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_timeline.h"

#include "spinelprof_sample_table.h"
#include "spinelprof_scratch.h"

#include <atomic>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace spinelprof {

namespace {

struct Event {
  std::atomic<uint64_t> TimeSlot;    // Time << 16 | slot.
  std::atomic<uint64_t> CountWeight; // Count << 40 | weight.
};
static_assert(sizeof(Event) == 16, "an event is 16 bytes");

constexpr size_t ChunkBytes = 16384;
constexpr uint64_t ChunkEvents = ChunkBytes / sizeof(Event);
constexpr uint64_t MaxTimeNs = (uint64_t(1) << 48) - 1;
constexpr uint32_t MaxSlot = 0xffff;
static_assert(ThreadRecordCapacity > 0, "the logs follow the thread records");

/// One thread's log of one kind. Chunks are numbered from 1 (0: none).
struct Log {
  std::atomic<uint32_t> Seq;  // Odd while the thread compacts the log.
  std::atomic<uint32_t> Busy; // The thread is in appendTimeline.
  std::atomic<uint32_t> Tid;  // 0 until the first record.
  std::atomic<uint32_t> Head; // The first chunk.
  uint32_t Tail, Chunks;      // The last chunk, and how many.
  uint32_t WriteChunk;        // The chunk of event WriteBase.
  uint64_t WriteBase;
  uint64_t LastNs;                // The latest time appended.
  std::atomic<uint64_t> Size;     // Events.
  std::atomic<uint64_t> BucketNs; // 0 until the first compaction.
  std::atomic<uint64_t> Merged, Missing;
};

Event *Pool;                   // TotalChunks chunks of ChunkEvents.
std::atomic<uint32_t> *Next;   // Next[C - 1]: the chunk after C in its log.
Log *Logs;                     // Two per thread record.
uint32_t TotalChunks;
std::atomic<uint32_t> ClaimedChunks;
uint64_t StartNs;
std::atomic<uint32_t> HighestRecord; // The largest Record with a log.
size_t PoolBytes, NextBytes, LogsBytes;

constexpr size_t LogCount = size_t(ThreadRecordCapacity) * 2;

void *mapZeroed(size_t Bytes) {
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return P == MAP_FAILED ? nullptr : P;
}

void remapZeroed(void *At, size_t Bytes) {
  (void)mmap(At, Bytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

} // namespace

int initTimeline(unsigned CapMb, uint64_t Start) {
  StartNs = Start;
  if (CapMb == 0 || Logs)
    return 0;
  // The logs and the chunk links count against the cap; the logs' pages
  // are touched only for threads that record.
  size_t Cap = size_t(CapMb) << 20;
  LogsBytes = LogCount * sizeof(Log);
  if (Cap <= LogsBytes + ChunkBytes)
    return EINVAL;
  size_t Chunks = (Cap - LogsBytes) / (ChunkBytes + sizeof(*Next));
  PoolBytes = Chunks * ChunkBytes;
  NextBytes = Chunks * sizeof(*Next);
  void *P = mapZeroed(PoolBytes), *N = mapZeroed(NextBytes),
       *L = mapZeroed(LogsBytes);
  if (!P || !N || !L) {
    int Err = errno;
    if (P)
      munmap(P, PoolBytes);
    if (N)
      munmap(N, NextBytes);
    if (L)
      munmap(L, LogsBytes);
    return Err;
  }
  Pool = static_cast<Event *>(P);
  Next = static_cast<std::atomic<uint32_t> *>(N);
  TotalChunks = uint32_t(Chunks);
  Logs = static_cast<Log *>(L);
  return 0;
}

void resetTimeline(uint64_t Start) {
  StartNs = Start;
  if (!Logs)
    return;
  // Fresh zero pages: the child neither copies nor keeps the parent's.
  remapZeroed(Pool, PoolBytes);
  remapZeroed(Next, NextBytes);
  remapZeroed(Logs, LogsBytes);
  ClaimedChunks.store(0);
  HighestRecord.store(0);
}

/// Event I of chunk C. Async-signal-safe.
static Event &eventOf(uint32_t C, uint64_t I) {
  return Pool[uint64_t(C - 1) * ChunkEvents + I];
}

/// A chunk of the pool, or 0: a thread's first chunk may take any, later
/// ones leave an eighth of the pool for threads that have none yet.
/// Async-signal-safe; lock-free.
static uint32_t claimChunk(bool First) {
  uint32_t Reserve = First ? 0 : TotalChunks / 8;
  uint32_t Used = ClaimedChunks.load(std::memory_order_relaxed);
  do {
    if (Used + Reserve >= TotalChunks)
      return 0;
  } while (!ClaimedChunks.compare_exchange_weak(Used, Used + 1,
                                                std::memory_order_relaxed));
  return Used + 1;
}

/// Whether L can hold event N (a chunk claimed if need be); sets the
/// write position to N's chunk. Async-signal-safe; L's thread.
static bool roomFor(Log &L, uint64_t N) {
  if (N >= uint64_t(L.Chunks) * ChunkEvents) {
    uint32_t C = claimChunk(L.Chunks == 0);
    if (!C)
      return false;
    if (L.Tail)
      Next[L.Tail - 1].store(C, std::memory_order_release);
    else
      L.Head.store(C, std::memory_order_release);
    L.Tail = C;
    ++L.Chunks;
  }
  if (!L.WriteChunk) {
    L.WriteChunk = L.Head.load(std::memory_order_relaxed);
    L.WriteBase = 0;
  }
  while (N >= L.WriteBase + ChunkEvents) {
    L.WriteChunk = Next[L.WriteChunk - 1].load(std::memory_order_relaxed);
    L.WriteBase += ChunkEvents;
  }
  return true;
}

/// A sequential cursor over a log's events. Async-signal-safe.
struct Cursor {
  uint32_t Chunk;
  uint64_t Base = 0;
  explicit Cursor(const Log &L) : Chunk(L.Head.load(std::memory_order_acquire)) {}
  Event &at(uint64_t I) {
    while (I >= Base + ChunkEvents) {
      Chunk = Next[Chunk - 1].load(std::memory_order_acquire);
      Base += ChunkEvents;
    }
    return eventOf(Chunk, I - Base);
  }
};

/// An event's two words. Async-signal-safe.
static uint64_t pack(uint64_t Time, uint32_t Slot) { return Time << 16 | Slot; }
static uint64_t packCount(uint64_t Count, uint64_t Weight) {
  return Count << 40 | Weight;
}

/// Adds Count and Weight to event E when the sums fit. Async-signal-safe.
static bool addTo(Event &E, uint64_t Count, uint64_t Weight) {
  uint64_t W = E.CountWeight.load(std::memory_order_relaxed);
  uint64_t C = (W >> 40) + Count, G = (W & TimelineMaxWeight) + Weight;
  if (C > TimelineMaxCount || G > TimelineMaxWeight)
    return false;
  E.CountWeight.store(packCount(C, G), std::memory_order_relaxed);
  return true;
}

/// Events of the same slot in one bucket, by slot: a small table of the
/// bucket's events so far (a full table only merges less). Lives on the
/// handler's stack; entries of older buckets are stale by Generation.
/// Async-signal-safe.
struct BucketIndex {
  static constexpr uint32_t Size = 64, Probes = 8;
  struct Entry {
    uint32_t Generation, Slot;
    Event *E;
  } Entries[Size];
  uint32_t Generation = 1;
  BucketIndex() { memset(Entries, 0, sizeof(Entries)); }
  Event *find(uint32_t Slot) {
    uint32_t Home = Slot * 0x9E3779B1u >> 26;
    for (uint32_t P = 0; P < Probes; ++P) {
      const Entry &X = Entries[(Home + P) & (Size - 1)];
      if (X.Generation != Generation)
        return nullptr;
      if (X.Slot == Slot)
        return X.E;
    }
    return nullptr;
  }
  /// Past Probes taken entries, the first gives way: stacks that recur
  /// still merge.
  void add(uint32_t Slot, Event *E) {
    uint32_t Home = Slot * 0x9E3779B1u >> 26;
    for (uint32_t P = 0; P < Probes; ++P) {
      Entry &X = Entries[(Home + P) & (Size - 1)];
      if (X.Generation != Generation) {
        X = {Generation, Slot, E};
        return;
      }
    }
    Entries[Home & (Size - 1)] = {Generation, Slot, E};
  }
};

/// One pass over L's N events: those of a slot within one bucket of width
/// B become one, at the bucket's start, in place. Returns the events
/// left. Async-signal-safe; L's thread, inside the odd sequence number.
static uint64_t mergeBuckets(Log &L, uint64_t N, uint64_t B) {
  BucketIndex Index;
  Cursor Read(L), Write(L);
  uint64_t Kept = 0, Bucket = UINT64_MAX;
  for (uint64_t I = 0; I < N; ++I) {
    Event &E = Read.at(I);
    uint64_t TimeSlot = E.TimeSlot.load(std::memory_order_relaxed);
    uint64_t CountWeight = E.CountWeight.load(std::memory_order_relaxed);
    uint32_t Slot = uint32_t(TimeSlot & MaxSlot);
    uint64_t Start = (TimeSlot >> 16) / B * B;
    if (Start != Bucket) {
      Bucket = Start;
      ++Index.Generation;
    }
    if (Event *Same = Index.find(Slot))
      if (addTo(*Same, CountWeight >> 40, CountWeight & TimelineMaxWeight))
        continue;
    Event &Out = Write.at(Kept++);
    Out.TimeSlot.store(pack(Start, Slot), std::memory_order_relaxed);
    Out.CountWeight.store(CountWeight, std::memory_order_relaxed);
    Index.add(Slot, &Out);
  }
  return Kept;
}

/// Coarsens L until a quarter of its chunks is free or one bucket spans
/// the whole run; returns whether any room was made. Runs in the handler:
/// one pass over the log per doubling (~2 million events at the default
/// cap, milliseconds), once per quarter of the log filled. Async-signal-
/// safe; L's thread.
static bool coarsen(Log &L) {
  uint64_t N = L.Size.load(std::memory_order_relaxed);
  uint64_t Capacity = uint64_t(L.Chunks) * ChunkEvents;
  if (N == 0)
    return false;
  uint64_t B = L.BucketNs.load(std::memory_order_relaxed) * 2;
  if (!B) {
    // About half as many buckets as events: a pass at a steady rate on
    // one stack already frees half.
    uint64_t Want = L.LastNs / (Capacity / 2 + 1) + 1;
    for (B = 1024; B < Want; B *= 2) {
    }
  }
  uint32_t Seq = L.Seq.load(std::memory_order_relaxed);
  L.Seq.store(Seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  uint64_t Left = N;
  for (;;) {
    Left = mergeBuckets(L, Left, B);
    if (Capacity - Left >= Capacity / 4 || B > L.LastNs)
      break;
    B *= 2;
  }
  L.Size.store(Left, std::memory_order_relaxed);
  L.BucketNs.store(B, std::memory_order_relaxed);
  L.Merged.fetch_add(N - Left, std::memory_order_relaxed);
  L.WriteChunk = 0; // roomFor walks to the new end.
  L.Seq.store(Seq + 2, std::memory_order_release);
  return Left < N;
}

/// Merges into one of the last few events when the log is coarse and one
/// of them is of Slot in the same bucket. Async-signal-safe; L's thread.
static bool mergeRecent(Log &L, uint64_t At, uint32_t Slot, uint64_t Count,
                        uint64_t Weight) {
  uint64_t N = L.Size.load(std::memory_order_relaxed);
  if (!N)
    return false;
  roomFor(L, N - 1); // Positions the write chunk; never claims.
  for (uint64_t K = N; K-- > 0 && N - K <= 4;) {
    if (K < L.WriteBase)
      return false; // The previous chunk: rare, not worth the walk.
    Event &E = eventOf(L.WriteChunk, K - L.WriteBase);
    uint64_t TimeSlot = E.TimeSlot.load(std::memory_order_relaxed);
    if ((TimeSlot >> 16) != At)
      return false;
    if ((TimeSlot & MaxSlot) == Slot)
      return addTo(E, Count, Weight);
  }
  return false;
}

/// Appends one event (Count and Weight in range). Async-signal-safe; L's
/// thread.
static void put(Log &L, uint64_t Time, uint32_t Slot, uint64_t Count,
                uint64_t Weight) {
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    uint64_t B = L.BucketNs.load(std::memory_order_relaxed);
    uint64_t At = B ? Time / B * B : Time;
    if (B && mergeRecent(L, At, Slot, Count, Weight)) {
      L.Merged.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    uint64_t N = L.Size.load(std::memory_order_relaxed);
    if (roomFor(L, N)) {
      Event &E = eventOf(L.WriteChunk, N - L.WriteBase);
      E.TimeSlot.store(pack(At, Slot), std::memory_order_relaxed);
      E.CountWeight.store(packCount(Count, Weight), std::memory_order_relaxed);
      L.Size.store(N + 1, std::memory_order_release);
      return;
    }
    if (Attempt || !coarsen(L))
      break;
  }
  L.Missing.fetch_add(1, std::memory_order_relaxed);
}

void appendTimeline(uint32_t Record, uint32_t Tid, TimelineKind Kind,
                    uint64_t TimeNs, uint32_t Slot, uint64_t Count,
                    uint64_t Weight) {
  if (!Logs || Record == 0 || Record > ThreadRecordCapacity || Slot > MaxSlot)
    return;
  Log &L = Logs[size_t(Record - 1) * 2 + size_t(Kind)];
  // Interrupted in here by a handler of the program's that records on
  // this log too: that record is missing, the log stays whole.
  if (L.Busy.exchange(1, std::memory_order_relaxed)) {
    L.Missing.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (!L.Tid.load(std::memory_order_relaxed)) {
    L.Tid.store(Tid, std::memory_order_release);
    // The writer looks at the logs up to here only (not every record's
    // page).
    uint32_t Highest = HighestRecord.load(std::memory_order_relaxed);
    while (Highest < Record &&
           !HighestRecord.compare_exchange_weak(Highest, Record,
                                                std::memory_order_release))
    {
    }
  }
  uint64_t Time = TimeNs > StartNs ? TimeNs - StartNs : 0;
  if (Time > MaxTimeNs)
    Time = MaxTimeNs;
  if (Time < L.LastNs)
    Time = L.LastNs; // In order, whatever the clocks said.
  L.LastNs = Time;
  // A record too big for one event: several at the same time.
  do {
    uint64_t C = Count < TimelineMaxCount ? Count : TimelineMaxCount;
    uint64_t W = Weight < TimelineMaxWeight ? Weight : TimelineMaxWeight;
    put(L, Time, Slot, C, W);
    Count -= C;
    Weight -= W;
  } while (Count || Weight);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  L.Busy.store(0, std::memory_order_relaxed);
}

uint32_t timelineRecordLimit() {
  return Logs ? HighestRecord.load(std::memory_order_acquire) : 0;
}

uint32_t timelineTid(uint32_t Record, TimelineKind Kind) {
  if (!Logs || Record == 0 || Record > ThreadRecordCapacity)
    return 0;
  return Logs[size_t(Record - 1) * 2 + size_t(Kind)].Tid.load(
      std::memory_order_acquire);
}

TimelineEvent TimelineSnapshot::event(size_t I) const {
  uint64_t TimeSlot = Words[2 * I], CountWeight = Words[2 * I + 1];
  return {TimeSlot >> 16, uint32_t(TimeSlot & MaxSlot), CountWeight >> 40,
          CountWeight & TimelineMaxWeight};
}

/// Copies N events of L to Words. Async-signal-safe.
static void copyEvents(const Log &L, uint64_t N, uint64_t *Words) {
  Cursor C(L);
  for (uint64_t I = 0; I < N; ++I) {
    Event &E = C.at(I);
    Words[2 * I] = E.TimeSlot.load(std::memory_order_relaxed);
    Words[2 * I + 1] = E.CountWeight.load(std::memory_order_relaxed);
  }
}

bool snapshotTimeline(uint32_t Record, TimelineKind Kind,
                      TimelineSnapshot &Out) {
  Out = TimelineSnapshot();
  if (!Logs || Record == 0 || Record > ThreadRecordCapacity)
    return false;
  const Log &L = Logs[size_t(Record - 1) * 2 + size_t(Kind)];
  Out.Tid = L.Tid.load(std::memory_order_acquire);
  if (!Out.Tid)
    return false;
  uint64_t N = 0;
  // A compaction takes milliseconds at most; a log left mid-compaction (a
  // crash inside it, or a copy of the process made then) is given up.
  for (int Attempt = 0; Attempt < 100; ++Attempt) {
    uint32_t Seq = L.Seq.load(std::memory_order_acquire);
    if (Seq & 1) {
      struct timespec Pause = {0, 200000};
      syscall(SYS_nanosleep, &Pause, nullptr);
      continue;
    }
    N = L.Size.load(std::memory_order_acquire);
    Out.BucketNs = L.BucketNs.load(std::memory_order_relaxed);
    Out.Merged = L.Merged.load(std::memory_order_relaxed);
    Out.Missing = L.Missing.load(std::memory_order_relaxed);
    if (N) {
      void *W = scratchRealloc(Out.Words, N * 2 * sizeof(uint64_t));
      if (!W) {
        scratchFree(Out.Words);
        Out.Words = nullptr;
        return false;
      }
      Out.Words = static_cast<uint64_t *>(W);
      copyEvents(L, N, Out.Words);
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (L.Seq.load(std::memory_order_relaxed) == Seq) {
      Out.Events = N;
      return true;
    }
  }
  Out.Missing += N;
  return true;
}

} // namespace spinelprof
