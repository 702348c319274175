//===- spinelprof_flush_thread.h - The periodic flush's helper thread -*- C++ -*-===//
//
// Part of spinelprof. A helper thread, started only when a periodic flush
// is asked for (SPINEL_PROFILE_FLUSH_SEC): every FlushSec seconds it runs
// the flush, and it runs work handed to it from a signal handler (the
// SIGINT/SIGTERM write, which must not run on the interrupted thread). It
// is never registered or sampled, and has every signal blocked. No helper
// thread runs otherwise: one would make glibc's malloc leave its
// single-thread path (docs/design.md, Sampling).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_FLUSH_THREAD_H
#define SPINELPROF_FLUSH_THREAD_H

namespace spinelprof {

/// Starts the thread, which calls Flush every FlushSec seconds (> 0).
/// Returns 0 or an errno. Normal context, once (and again in a fork's
/// child: restartFlushThreadAfterFork).
int startFlushThread(int FlushSec, void (*Flush)());

/// Whether the thread runs, i.e. whether runOnFlushThread can work. Any
/// thread; async-signal-safe.
bool flushThreadRuns();

/// Runs Work(Arg) on the thread and waits (at most TimeoutMs) for it to
/// finish. Returns false if the thread does not run (or is stopping) or
/// did not run it in time. Async-signal-safe (for the SIGINT/SIGTERM
/// handler).
bool runOnFlushThread(void (*Work)(int), int Arg, int TimeoutMs);

/// Asks the thread to end (it does within microseconds, or after the work
/// or flush under way); no flush or work runs after. Any thread, once;
/// async-signal-safe.
void stopFlushThread();

/// In the child of fork: the parent's thread is not there; a new one
/// starts if it ran in the parent, was not stopped, and Start (sampling
/// goes on in the child). Normal context.
void restartFlushThreadAfterFork(bool Start);

} // namespace spinelprof

#endif // SPINELPROF_FLUSH_THREAD_H
