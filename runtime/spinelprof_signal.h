//===- spinelprof_signal.h - Each thread's sampling timer and handler -*- C++ -*-===//
//
// The sampling rule: a sample is the thread's stack, with its leaf, at an
// instant drawn at random, independently of the program; its weight is the
// CPU (or wall) time it stands for.
//
// Each registered thread has a timer of its own: a POSIX timer on
// CLOCK_MONOTONIC whose signal (a real-time signal of the profiler's own,
// never SIGPROF) goes to that thread (SIGEV_THREAD_ID), armed one shot at a
// time for instants whose intervals are exponential of mean Q on the
// thread's time (a Poisson process: memoryless, so never in phase with the
// program; P = 1/rate, Q = P less the sampler's own stall per sample; in
// cpu mode the stalls are taken out of the law's time: docs/design.md).
// The timer fires on the CPU the thread runs on, so the handler runs on
// the thread within tens of microseconds, reads its own shadow stack and
// the interrupted PC (the native leaf), records the sample and arms the
// next expiry. No other thread, no cross-CPU signal, no tick: the instants
// are neither bound to the kernel's tick nor in phase with the program.
//
// Cpu mode keeps the samples taken while the thread was on the CPU at the
// instant (delivered promptly, or the thread ran on from its last clock
// read to the instant), each weighing Q plus the stall it caused; the
// writer shares the thread's CPU time out by those weights. A signal that
// waited while the thread was off the CPU (preempted, or asleep in a call
// the wrappers do not cover) is no CPU sample, and such a thread's mean
// interval doubles (up to 64 Q), so an idle thread is seldom woken. Wall
// mode keeps every sample, weighted by the wall time since the previous
// one. A blocking call the wrappers cover (spinelprof_interpose.h) holds
// the signal back; its time is recorded by the wrapper when it returns
// (wall mode: one sample of the blocking stack weighing exactly the call's
// length), and the signal that waited is no sample (cpu mode: the wrapper
// takes it and arms the next instant).
//
// A periodic flush (SPINEL_PROFILE_FLUSH_SEC) runs on a helper thread
// started only then (spinelprof_flush_thread.h); start-up starts it after
// startSampling, stopSampling stops it.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_SIGNAL_H
#define SPINELPROF_SIGNAL_H

#include "spinelprof_clock.h"

#include <stdint.h>

namespace spinelprof {

struct ThreadSlot;

struct SamplerConfig {
  int Hz;
  bool Wall;
};

/// The timer named in the profile.
const char *timerName(bool Wall);

/// Where samples are taken, as the profile names it ("sampler").
const char *samplerName();

/// The profiler's sampling signal (SIGRTMAX - 2). Any thread.
int profilingSignal();

/// Blocks the profiling signal on the calling thread and returns the mask
/// it had (the kernel's 8 bytes), for restoreSignalMask. The raw system
/// call: no wrapper a program or the archive interposes. Async-signal-safe.
uint64_t blockProfilingSignal();

/// Sets the calling thread's mask back to Saved (blockProfilingSignal's);
/// a profiling signal that came meanwhile is delivered on its return.
/// Async-signal-safe.
void restoreSignalMask(uint64_t Saved);

/// Installs the handler (threads registered from now on get a timer).
/// Returns 0 or an errno; ENOTSUP when the program already handles the
/// profiling signal. Start-up only, once, after initThreads.
int startSampling(const SamplerConfig &Config);

/// Creates and arms the calling (main) thread's timer, its clocks starting
/// now: the last step of start-up, so that no sample stands for the
/// profiler's own. After startSampling succeeded; start-up only.
void startMainThreadTimer();

/// Creates and arms T's timer (when sampling runs). On T's own thread, at
/// its registration; normal context.
void startThreadTimer(ThreadSlot &T);

/// Deletes T's timer. On T's own thread, at its unregistration; normal
/// context.
void stopThreadTimer(ThreadSlot &T);

/// Cpu mode: records T's CPU time so far as what its samples stand for
/// (read from its CPU clock, by any thread). Async-signal-safe.
void noteFinalCpu(ThreadSlot &T);

/// Whether a blocking call's wrapper must read the thread's CPU clock when
/// the call starts (cpu mode: the CPU a call uses is sampled). Any thread.
bool callCpuNeeded();

/// A blocking call that started at StartNs (CLOCK_MONOTONIC; the thread's
/// CPU clock read StartCpuNs then) returns, the profiling signal still
/// blocked: records the current stack (the blocking frame on top) for the
/// call's length in wall mode, for the CPU it used in cpu mode (and there
/// takes the signal that waited and arms the next instant). On the thread
/// itself, from the wrapper; normal context.
void blockingCallReturns(ThreadSlot &T, uint64_t StartNs, uint64_t StartCpuNs);

/// The program installs a handler for the profiling signal: sampling
/// stops for good (every thread's timer deleted, handlers in flight
/// awaited), with one line on stderr. Async-signal-safe; any thread.
void signalTakenOver();

/// The calling thread runs the exit hook: its signal, if one comes (a
/// late one, sent from another CPU before the hook began, lands there),
/// records nothing from now on. Async-signal-safe.
void holdSamplesForExit();

/// Disarms every thread's timer, makes later signals no-ops and waits
/// (bounded) until no handler is still recording, so the table can be
/// read. The handler stays installed: a signal already pending must not
/// kill the program. Any thread, once; async-signal-safe.
void stopSampling();

/// In the child of fork: a fresh table and registry, a timer for the
/// calling thread and, if the parent had one, a flush thread.
void restartSamplingAfterFork();

} // namespace spinelprof

#endif // SPINELPROF_SIGNAL_H
