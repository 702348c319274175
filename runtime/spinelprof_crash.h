//===- spinelprof_crash.h - A profile that survives a crash -----*- C++ -*-===//
//
// SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT get a handler where their
// disposition is the default one (a handler the program or a sanitizer
// installed is left alone; under ASan, TSan, MSan or HWASan, which own
// these signals, nothing is installed). It runs on a per-thread alternate
// signal stack, so a stack overflow is caught too. It has the profile
// written (by a copy of the process, bounded in time), then lets the
// program die as it would have: a fault's signal goes back to the default
// action and the handler returns, so the faulting instruction runs again
// and the exit status and core dump are the program's own; SIGABRT, and a
// signal sent by kill, is raised again.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_CRASH_H
#define SPINELPROF_CRASH_H

namespace spinelprof {

/// Writes the profile after crash signal Signal and returns when it is
/// written or given up. Called at most once per process, from the crash
/// handler. Must be async-signal-safe.
using CrashWriter = void (*)(int Signal);

/// Installs the crash handler (see above) for each crash signal whose
/// disposition is the default, and gives the calling thread its alternate
/// signal stack. Start-up only, once, after the calling thread registered.
void installCrashHandlers(CrashWriter Write);

/// The calling thread's alternate signal stack, for a thread that
/// registers: mapped (or reused) and installed, unless no crash handler
/// is installed or the thread has an alternate stack already (one the
/// program set is never replaced). Normal context, on the thread.
void crashThreadStarted();

/// Takes the calling thread's alternate signal stack back (disabled if it
/// is still the thread's), for reuse. Normal context, on the thread, as it
/// unregisters.
void crashThreadFinished();

/// In the copy of the process that writes the profile for a signal
/// (writeInCopy): the crash signals take their default action there and
/// the copy dumps no core, so a fault while it writes ends the copy at
/// once (the program, waiting for it, then goes on). Async-signal-safe.
void crashCopyStarted();

/// The writer's test point, once the folded stacks' temporary file holds
/// data: in the copy writing after a crash, with
/// SPINEL_PROFILE_TEST_CRASH_WRITE=fault (at start-up) it faults, with
/// =hang it never returns, for the stress tests; otherwise it does
/// nothing. Async-signal-safe.
void crashWriteTestPoint();

/// "SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", or "signal" for any
/// other. Async-signal-safe.
const char *crashSignalName(int Signal);

} // namespace spinelprof

#endif // SPINELPROF_CRASH_H
