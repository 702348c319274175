//===- spinelprof_interpose.h - libc calls the profiler must see -*- C++ -*-===//
//
// The runtime archive defines pthread_create, the blocking libc calls
// (read, nanosleep, poll, pthread_cond_wait, ...) and swapcontext,
// setcontext and makecontext. Linked into the executable, these definitions
// take every call the program makes (instrumented or not), and forward to
// libc's (found with dlsym(RTLD_NEXT)). Until the profiler installs its
// hooks, and always when it is off, they only forward.
//
// This file's archive member refers to nothing else in the runtime (the
// hooks are function pointers), so linking it never starts the profiler in
// a program without frames.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_INTERPOSE_H
#define SPINELPROF_INTERPOSE_H

#include "spinelprof/abi.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

namespace spinelprof {

using FrameDescriptor = spinelprof_frame_descriptor;

/// What a wrapper around a blocking call keeps between enter and leave.
struct BlockingScope {
  uint32_t SavedDepth;
  void *Thread;  // The thread's registry slot, or null.
  uint64_t SavedMask;   // The signal mask before the call.
  uint64_t StartNs;    // When the call started (CLOCK_MONOTONIC),
  uint64_t StartCpuNs; // and the thread's CPU clock then (cpu mode).
};

/// A fiber made by makecontext: the body to run, and its record.
struct FiberStart {
  void (*Body)();
  int Argc;
  int Args[6];
  void *Fiber; // The runtime's fiber record.
};

/// Installed by the profiler once it runs. All are called from normal
/// (non-signal) context on the calling thread.
struct InterposeHooks {
  /// Pushes Frame (a blocking descriptor) and blocks the profiling signal.
  void (*enterBlocking)(BlockingScope &, const FrameDescriptor *Frame);
  void (*leaveBlocking)(BlockingScope &);
  /// In a new thread, before and after its start routine.
  void (*threadStarted)();
  void (*threadFinished)();
  /// makecontext: a fiber record for a new fiber, or null to not track it.
  bool (*fiberCreated)(FiberStart &);
  /// In the new fiber, before and after its body.
  void (*fiberEntered)(FiberStart &);
  void (*fiberReturned)(FiberStart &);
  /// Around swapcontext: the running context's record, its frames saved
  /// in it, and their restoration once the context runs again.
  void *(*beforeSwitch)();
  void (*afterSwitch)(void *Saved);
  /// The program installs a handler for the profiling signal: sampling
  /// stops, so that the program sees only its own signals. Any context.
  void (*signalTakenOver)();
  /// The profiling signal: blocked during a blocking call, and added to
  /// the masks such a call installs.
  int Signal;
};

/// Installs (or, with null, removes) the hooks. Start-up and fork only.
void setInterposeHooks(const InterposeHooks *Hooks);

/// Looks up, now, the real definition behind every function defined here
/// (dlsym, which allocates). Looked up at its first call instead, it would
/// run wherever that call is made: in a signal handler that interrupted
/// malloc, a deadlock on the heap's lock (the program's handler calling
/// write(2) for the first time; the profile's signal-time copy did, 1 run
/// in ~3000 of Stress/signals.c). Start-up only, before the timer.
void resolveRealFunctions();

/// libc's own pthread_create, for the runtime's flush thread (which must
/// not be registered). Normal context.
int realPthreadCreate(pthread_t *Thread, const pthread_attr_t *Attr,
                      void *(*Start)(void *), void *Arg);

/// Installs Action for Signal only where its disposition is the default
/// one: a handler already there (the program's, a library's, a
/// sanitizer's) or an ignored signal (a background job's SIGINT) is left
/// alone. Returns whether Action is installed. Start-up only.
bool installOverDefault(int Signal, const struct sigaction &Action);

} // namespace spinelprof

#endif // SPINELPROF_INTERPOSE_H
