//===- spinelprof_signal.h - The sampler thread and the handler -*- C++ -*-===//
//
// While the program has one thread (cpu mode, no periodic flush), that
// thread's own CLOCK_MONOTONIC timer sends it SIGPROF every period, and the
// handler records the thread's own stack, weighted by the CPU it used
// since its last sample (owed samples as below). From the program's second
// thread on, or in wall mode, a sampler thread does it:
//
// A sampler thread wakes on an absolute CLOCK_MONOTONIC schedule at the
// requested rate. Each tick it reads every registered thread's CPU clock
// (cpu mode) and samples each thread that has used about a period of CPU
// since its last sample, weighted by that CPU time: it copies the thread's
// shadow stack itself, then sends SIGPROF (tgkill) so that the handler
// adds the native leaf (the interrupted PC) and records the copy. In wall
// mode every registered thread is sampled each tick, weighted by wall
// time. A thread inside a blocking call (a blocking frame on top, SIGPROF
// blocked) is never signalled: its stack cannot change until the call
// returns, and the sampler records its copy.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_SIGNAL_H
#define SPINELPROF_SIGNAL_H

#include <stdint.h>

namespace spinelprof {

struct SamplerConfig {
  int Hz;
  bool Wall;
  /// Seconds between calls of Flush (0: never), on the sampler thread.
  int FlushSec;
  void (*Flush)();
  /// SPINEL_PROFILE_TIMER=thread: the sampler thread from the start.
  bool SamplerThreadOnly;
};

/// The timer named in the profile.
const char *timerName(bool Wall);

/// The sampler thread as the profile names it: "realtime" when it got
/// SCHED_FIFO (it tries; it needs CAP_SYS_NICE or an RLIMIT_RTPRIO),
/// "normal", or "none" without one. Any thread.
const char *samplerName();

/// Installs the SIGPROF handler and starts the timer (the thread's own or
/// the sampler thread). Returns 0 or an errno. Start-up only, once, after
/// initThreads.
int startSampling(const SamplerConfig &Config);

/// Before the program creates a thread: hands sampling from the own timer
/// to the sampler thread, once. Normal context.
void beforeSecondThread();

/// Whether the sampler thread times the samples (else the single thread's
/// own timer, or nothing). Any thread; async-signal-safe.
bool samplerThreadRuns();

/// Stops the sampler (without waiting for its thread to end), makes later
/// signals no-ops and waits (bounded) until no handler or outside read is
/// still recording, so the table can be read. The handler stays installed:
/// a SIGPROF already pending must not kill the program. Any thread, once;
/// not from a signal handler.
void stopSampling();

/// Runs Work on the sampler thread and waits (at most TimeoutMs) for it to
/// finish. Async-signal-safe (for the SIGINT/SIGTERM handler). Returns
/// false if there is no sampler thread or it did not run it in time.
bool runOnSampler(void (*Work)(int), int Arg, int TimeoutMs);

/// In the child of fork: a fresh table and registry, and a new timer of
/// the same kind (the parent's own timer or sampler thread did not survive
/// the fork).
void restartSamplingAfterFork();

/// The current CPU time of the calling thread or of the process, in ns.
/// Async-signal-safe.
uint64_t threadCpuNs();
uint64_t processCpuNs();
uint64_t monotonicNs();

} // namespace spinelprof

#endif // SPINELPROF_SIGNAL_H
