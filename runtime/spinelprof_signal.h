//===- spinelprof_signal.h - The sampling signal and its timer --*- C++ -*-===//
//
// CPU-time sampling: a process-wide setitimer(ITIMER_PROF) sends SIGPROF to
// the running thread, whose handler records its own shadow stack.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_SIGNAL_H
#define SPINELPROF_SIGNAL_H

#include <stdint.h>

namespace spinelprof {

/// The timer named in the profile.
inline constexpr const char TimerName[] = "setitimer(ITIMER_PROF)";

/// Starts the calling thread's CPU-time baseline, installs the SIGPROF
/// handler and arms the timer at Hz. Returns 0 or an errno. Start-up only,
/// once.
int startSampling(int Hz);

/// Disarms the timer, makes later signals no-ops and waits (bounded) until
/// no handler is still recording, so the table can be read. The handler
/// stays installed: a SIGPROF already pending must not kill the program.
/// Any thread, once; not from a signal handler.
void stopSampling();

/// Forgets the calling thread's cached id and CPU baseline; for the child
/// side of fork, whose only thread is a new kernel thread.
/// Async-signal-safe.
void resetThreadAfterFork();

/// The current CPU time of the calling thread or of the process, in ns.
/// Async-signal-safe.
uint64_t threadCpuNs();
uint64_t processCpuNs();

} // namespace spinelprof

#endif // SPINELPROF_SIGNAL_H
