//===- spinelprof_alloc.cpp - Allocation samples --------------------------===//
//
// Part of spinelprof. See spinelprof_alloc.h.
//
// The slow path runs on the allocating thread, not in a signal handler, but
// it may run inside the program's own signal handlers or around fork, so it
// is async-signal-safe and lock-free all the same: a per-thread generator,
// the lock-free table, no libc beyond gettid. It computes its logarithm and
// exponential itself because the runtime must not need libm.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_alloc.h"

#include "spinelprof_clock.h"
#include "spinelprof_threads.h"
#include "spinelprof_timeline.h"

#include <atomic>
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern "C" {
/// Zero-initialised, so each thread's first marked allocation calls out
/// and learns whether allocation sampling is on (see abi.h).
__attribute__((visibility("default"), tls_model("initial-exec")))
__thread int64_t __spinelprof_alloc_countdown;
}

namespace spinelprof {

#define SPINELPROF_TLS __thread __attribute__((tls_model("initial-exec")))

namespace {
enum : int { Undecided = 0, On = 1, Off = 2 };
std::atomic<int> Mode;
uint64_t Rate;
SampleTable Table;
std::atomic<uint64_t> Truncated;

/// Per thread: whether its countdown was drawn, and its generator.
SPINELPROF_TLS bool Started;
SPINELPROF_TLS uint64_t RandomState;

const FrameDescriptor *const UnknownRoot[1] = {&UnknownFrame};
const FrameDescriptor *const TruncatedMarker[1] = {&TruncatedFrame};

// 16 Ki distinct (thread, stack, type), 8 MiB of frames, both reserved
// without backing until used.
constexpr size_t TableSlots = size_t(1) << 14;
constexpr size_t ArenaFrames = size_t(1) << 20;
} // namespace

/// xorshift64*: a generator per thread, no locks. Async-signal-safe.
static uint64_t nextRandom() {
  uint64_t X = RandomState;
  X ^= X >> 12;
  X ^= X << 25;
  X ^= X >> 27;
  RandomState = X;
  return X * 0x2545F4914F6CDD1Dull;
}

/// Natural logarithm of U in (0, 1]. Async-signal-safe (no libm).
static double logUnit(double U) {
  uint64_t Bits;
  memcpy(&Bits, &U, sizeof(Bits));
  int Exponent = int((Bits >> 52) & 0x7FF) - 1023;
  Bits = (Bits & ((uint64_t(1) << 52) - 1)) | (uint64_t(1023) << 52);
  double M; // In [1, 2).
  memcpy(&M, &Bits, sizeof(M));
  // ln M = 2 atanh(Z), Z = (M - 1) / (M + 1) <= 1/3.
  double Z = (M - 1) / (M + 1), Z2 = Z * Z, Term = Z, Sum = 0;
  for (int K = 1; K < 30; K += 2) {
    Sum += Term / K;
    Term *= Z2;
  }
  return Exponent * 0.6931471805599453 + 2 * Sum;
}

/// 1 - exp(-X) for X >= 0, accurate for tiny X too. Async-signal-safe.
static double oneMinusExpNeg(double X) {
  if (X < 1e-4)
    return X - X * X / 2 + X * X * X / 6;
  if (X > 60)
    return 1;
  // exp(-X) = 2^-N exp(-R), R in [0, ln 2).
  int N = int(X / 0.6931471805599453);
  double R = X - N * 0.6931471805599453, Term = 1, E = 1;
  for (int K = 1; K < 20; ++K) {
    Term *= -R / K;
    E += Term;
  }
  for (int I = 0; I < N; ++I)
    E *= 0.5;
  return 1 - E;
}

/// The next countdown: exponential with mean Rate, in whole bytes.
/// Async-signal-safe.
static int64_t nextCountdown() {
  if (Rate <= 1)
    return 0; // The next allocation of a byte or more is sampled.
  double U = double((nextRandom() >> 11) + 1) * 0x1.0p-53; // (0, 1]
  double Bytes = -logUnit(U) * double(Rate);
  return Bytes < 4.0e18 ? int64_t(Bytes) : int64_t(4.0e18);
}

/// The calling thread's kernel id. Async-signal-safe.
static uint32_t currentTid() {
  if (ThreadSlot *T = currentThreadSlot())
    return T->Tid;
  return static_cast<uint32_t>(syscall(SYS_gettid));
}

/// Records one sampled allocation of Size bytes of Type, scaled to what it
/// stands for. Async-signal-safe; lock-free.
static void recordAllocation(uint64_t Size, const FrameDescriptor *Type) {
  double Scale = 1; // Rate 1: every allocation is recorded.
  if (Rate > 1)
    Scale = 1 / oneMinusExpNeg(double(Size) / double(Rate));
  StackView S;
  viewStack(S);
  if (S.Leaf == &TruncatedFrame) {
    S.add(TruncatedMarker, 1);
    Truncated.fetch_add(1, std::memory_order_relaxed);
  } else if (S.Leaf == &UnknownFrame) {
    S.add(UnknownRoot, 1);
  }
  S.Leaf = Type;
  uint64_t Bytes = uint64_t(double(Size) * Scale + 0.5);
  uint64_t Objects = uint64_t(Scale * double(AllocObjectUnit) + 0.5);
  ThreadSlot *T = currentThreadSlot();
  uint32_t Slot = Table.record(T ? T->Tid : currentTid(), S, Bytes, Objects);
  // The timeline: on a registered thread (its log is its record's),
  // objects in 1/256ths so that 24 bits hold a small object's scale.
  if (Slot && T) {
    nameThread(*T);
    appendTimeline(T->Record, T->Tid, TimelineKind::Alloc, monotonicNs(),
                   Slot - 1, (Objects + 128) >> 8, Bytes);
  }
}

int startAllocationSampling(uint64_t SampleRate) {
  if (int Err = Table.init(TableSlots, ArenaFrames))
    return Err;
  Rate = SampleRate ? SampleRate : 1;
  Mode.store(On, std::memory_order_release);
  return 0;
}

void settleAllocationSampling() {
  int Expected = Undecided;
  Mode.compare_exchange_strong(Expected, Off);
}

void stopAllocationSampling() { Mode.store(Off, std::memory_order_release); }

const SampleTable &allocSamples() { return Table; }
uint64_t allocTruncated() { return Truncated.load(); }

void resetAllocationsAfterFork() {
  Table.reset();
  Truncated.store(0);
}

} // namespace spinelprof

using namespace spinelprof;

/// The slow path of every marked allocation (abi.h). Async-signal-safe;
/// lock-free; keeps errno; runs on the allocating thread.
extern "C" __attribute__((visibility("default"))) void
__spinelprof_alloc_sample(uint64_t Size,
                          const struct spinelprof_frame_descriptor *Type) {
  switch (Mode.load(std::memory_order_acquire)) {
  case Undecided:
    __spinelprof_alloc_countdown = 0; // Ask again at the next allocation.
    return;
  case Off:
    __spinelprof_alloc_countdown = INT64_MAX; // Never again on this thread.
    return;
  }
  int SavedErrno = errno;
  if (!Started) {
    Started = true;
    struct timespec Now = {0, 0};
    clock_gettime(CLOCK_MONOTONIC, &Now);
    uint64_t Seed = (uint64_t(currentTid()) << 32) ^
                    (uint64_t(Now.tv_sec) * 1000000000u + uint64_t(Now.tv_nsec)) ^
                    0x9E3779B97F4A7C15ull;
    RandomState = Seed ? Seed : 1;
    // This allocation is the first byte of the thread's first interval.
    __spinelprof_alloc_countdown = nextCountdown() - int64_t(Size);
    if (__spinelprof_alloc_countdown >= 0) {
      errno = SavedErrno;
      return;
    }
  }
  recordAllocation(Size, Type);
  // Memoryless: what is left of this allocation beyond the sample point
  // starts a fresh interval, as Go's nextSample does.
  __spinelprof_alloc_countdown = nextCountdown();
  errno = SavedErrno;
}
