//===- spinelprof_signal.h - The sampler thread and the handler -*- C++ -*-===//
//
// While the program has one thread (no periodic flush), the sampler loop
// runs on a "ticker": a thread made with clone() that glibc does not know
// of, so that glibc's malloc keeps its single-thread fast path. From the
// program's second thread on it runs on a sampler pthread. Either way:
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
#include <time.h>

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

/// The sampler as the profile names it: "realtime" when it got SCHED_FIFO
/// (it tries; it needs CAP_SYS_NICE or an RLIMIT_RTPRIO), else "normal".
/// Any thread.
const char *samplerName();

/// Installs the SIGPROF handler and starts the timer (the thread's own or
/// the sampler thread). Returns 0 or an errno. Start-up only, once, after
/// initThreads.
int startSampling(const SamplerConfig &Config);

/// Before the program creates a thread: hands sampling from the ticker to
/// the sampler thread, once. Normal context.
void beforeSecondThread();

/// Whether the sampler thread runs the sampler loop (else the ticker, or
/// nothing), i.e. whether runOnSampler can work. Any thread;
/// async-signal-safe.
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

/// In the child of fork: a fresh table and registry, and a new ticker or
/// sampler thread, as the parent had (neither survives a fork).
void restartSamplingAfterFork();

/// Clock's reading in ns, or 0 if it cannot be read. Async-signal-safe.
uint64_t clockNs(clockid_t Clock);

/// The current CPU time of the calling thread or of the process, in ns.
/// Async-signal-safe.
uint64_t threadCpuNs();
uint64_t processCpuNs();
uint64_t monotonicNs();

} // namespace spinelprof

#endif // SPINELPROF_SIGNAL_H
