//===- spinelprof_threads.h - Registered threads and their stacks -*- C++ -*-===//
//
// The threads the sampler watches, each with its CPU clock, its shadow
// stack and what the sampler needs between ticks; fibers' shadow stacks;
// and the hooks the libc wrappers (spinelprof_interpose.h) call.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_THREADS_H
#define SPINELPROF_THREADS_H

#include "spinelprof_sample_table.h"

#include <atomic>
#include <stdint.h>
#include <time.h>

namespace spinelprof {

/// One registered thread. Written by the thread itself (registration,
/// blocking calls) and by the sampler thread (the tick bookkeeping).
struct ThreadSlot {
  enum : uint32_t { Free = 0, Claimed = 1, Active = 2, Leaving = 3 };
  std::atomic<uint32_t> State;
  /// Set by the sampler while it reads the thread's memory from outside;
  /// a leaving thread waits for it to clear.
  std::atomic<uint32_t> Busy;
  /// Odd while the thread is inside a blocking call (SIGPROF blocked, a
  /// blocking frame on top); bumped on entry and on exit.
  std::atomic<uint32_t> BlockSeq;
  std::atomic<uint32_t> Named;
  uint32_t Tid;
  clockid_t CpuClock;
  spinelprof_shadow_stack *OwnStack;
  intptr_t *OffsetVar;
  /// CPU or wall time the next sample stands for, handed to the handler.
  std::atomic<uint64_t> PendingWeightNs;
  /// Samples sent and not yet taken: signals to a thread that has not run
  /// since the last one merge into one pending signal, and its stack has
  /// not changed, so the handler records them all at once.
  std::atomic<uint32_t> PendingCount;
  /// When the oldest pending signal was sent (CLOCK_MONOTONIC).
  std::atomic<uint64_t> SentAtNs;
  /// Set by a handler that put its samples back: send them again.
  std::atomic<uint32_t> Resend;
  /// Handler-only: how many times in a row samples were put back.
  uint32_t Deferred;
  // The sampler thread's own bookkeeping.
  uint64_t LastCpuNs;
  uint64_t LastSampleNs;
  int64_t CreditNs;
  uint64_t ChosenWeightNs; // Samples to send at the next tick: their
  uint32_t ChosenCount;    // weight in all, and how many.
};

/// Sets up the registry and registers the calling (main) thread. Start-up.
int initThreads();

/// Registers / unregisters the calling thread. Normal context.
void registerCurrentThread();
void unregisterCurrentThread();

/// The calling thread's slot, or null. Async-signal-safe.
ThreadSlot *currentThreadSlot();

/// Number of slots ever claimed (an upper bound for the sampler's walk), and
/// slot I. Any thread.
uint32_t threadSlotLimit();
ThreadSlot &threadSlot(uint32_t I);

/// Fills S with the frames of the shadow stack at Own + Offset and of the
/// stacks that resumed it (a fiber's), with "[fiber]" markers between, and
/// the synthetic leaf for a truncated or empty stack. Reads memory in
/// place: only for the stack's own thread (a signal handler) or a thread
/// that is blocked. Async-signal-safe.
void viewStack(const spinelprof_shadow_stack *Own, intptr_t Offset,
               StackView &S);

/// The synthetic frames.
extern const FrameDescriptor TruncatedFrame;
extern const FrameDescriptor UnknownFrame;

/// After fork, in the child: the registry holds only the calling thread
/// (with its new tid). Normal context (the child of fork).
void resetThreadsAfterFork();

} // namespace spinelprof

#endif // SPINELPROF_THREADS_H
