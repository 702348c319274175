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
#include <signal.h>
#include <time.h>

namespace spinelprof {

/// One registered thread. Written by the thread itself: at registration,
/// in its blocking-call wrappers and in its profiling signal's handler
/// (which cannot run while a wrapper holds the signal back). Another
/// thread (stopSampling, at exit or at SIGINT/SIGTERM) reads the atomics,
/// disarms Timer and reads CpuClock and StartCpuNs, written before State
/// became Active; no other field is shared.
struct ThreadSlot {
  enum : uint32_t { Free = 0, Claimed = 1, Active = 2, Leaving = 3 };
  std::atomic<uint32_t> State;
  std::atomic<uint32_t> Named;
  /// The sample table's thread record: 0 until the thread's first sample
  /// names it (nameThread), in a handler or a wrapper, while stopSampling
  /// may read it from another thread to note the thread's final CPU.
  std::atomic<uint32_t> Record;
  uint32_t Tid;
  clockid_t CpuClock; // The thread's CPU clock, readable by any thread.
  /// The thread's sampling timer (spinelprof_signal.h).
  timer_t Timer;
  std::atomic<bool> HasTimer;
  uint64_t DueNs;        // CLOCK_MONOTONIC instant the timer is armed for.
  uint64_t NextDueNs;    // 0, or the instant after DueNs, already drawn.
  uint64_t LastInstantNs; // Where the next interval starts: the last drawn
                          // instant, moved on by the stalls after it.
  uint64_t Random;       // xorshift state for the instants.
  uint32_t Backoff;      // Cpu mode: the mean interval is Q * 2^Backoff.
  /// Cpu mode: the sampler's own stall per sample (the thread stopped from
  /// its instant to the handler's end; a running median), and how long the
  /// last timer_settime took (the stall's part after the handler's clock
  /// read). Both are taken out of the law's time.
  uint64_t StallNs, ArmNs;
  /// Cpu mode: CLOCK_MONOTONIC and the thread's CPU clock at their last
  /// read together, made while the thread ran: at its registration, a late
  /// signal, or a wrapped blocking call's return.
  uint64_t LastReadNs, LastReadCpuNs;
  uint64_t StartCpuNs;   // The CPU clock at registration.
  uint64_t InCallCredit; // Cpu mode: CPU ns of blocking calls not yet
                         // counted as samples.
  uint64_t LastWallNs;   // Wall mode: CLOCK_MONOTONIC at the last sample.
  /// The last blocking call a wrapper saw ([start, end], CLOCK_MONOTONIC),
  /// and, in wall mode, the time blocked since the last sample, the
  /// blocked time not yet recorded and its credit of samples.
  uint64_t BlockStartNs, BlockEndNs;
  uint64_t BlockedNs, BlockCarryNs, BlockCreditNs;
};

/// Sets the clocks T's samples count from to now: the CPU the thread used
/// before (for the main thread, the dynamic loader and the profiler's
/// start-up, up to its timer's start) is no sample's. On T's own thread,
/// normal context.
void startClocks(ThreadSlot &T);

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

/// Fills S with the frames of the calling thread's running context and of
/// the contexts that resumed it (a fiber's), with "[fiber]" markers
/// between, and the synthetic leaf for a truncated or empty stack. Reads
/// memory in place: only on the stack's own thread (its signal handler, or
/// its allocation sample). Async-signal-safe.
void viewStack(StackView &S);

/// Gives T's thread id its name in the sample table, once, read with
/// prctl; the process's first thread is "main". Called at the thread's
/// first sample, not at a signal that found it off the CPU. Async-signal-
/// safe; on T's own thread.
void nameThread(ThreadSlot &T);

/// Names T's record again with the name its thread has now, as the program
/// set it: the first sample can come before the thread names itself
/// (pthread_setname_np after its start; the first instant can come
/// microseconds after the start: thread-weights.c read
/// "app" under ASan). Called when the thread ends and when sampling stops.
/// Async-signal-safe; any thread.
void refreshThreadName(ThreadSlot &T);

/// The synthetic frames.
extern const FrameDescriptor TruncatedFrame;
extern const FrameDescriptor UnknownFrame;

/// After fork, in the child: the registry holds only the calling thread
/// (with its new tid). Normal context (the child of fork).
void resetThreadsAfterFork();

} // namespace spinelprof

#endif // SPINELPROF_THREADS_H
