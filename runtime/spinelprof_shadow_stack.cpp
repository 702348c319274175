//===- spinelprof_shadow_stack.cpp - The per-thread shadow stack ----------===//
//
// Defines the one symbol every instrumented function references. Because of
// that reference, linking any profiled object pulls this file out of the
// archive; it in turn references the start-up code, so the profiler starts
// in every program that has frames and in no other.
//
//===----------------------------------------------------------------------===//
#include "spinelprof/abi.h"

extern "C" {

/// Zero-initialised (in .tbss), so it is usable before any constructor runs
/// and in every new thread. Pushed and popped inline by instrumented code
/// (see abi.h); read by the signal handler on the same thread.
__attribute__((visibility("default"), tls_model("initial-exec")))
__thread struct spinelprof_shadow_stack __spinelprof_stack;

/// Always 0, for objects from older plugins, which push at
/// &__spinelprof_stack + __spinelprof_stack_offset: the thread's stack,
/// where pushes go now, also in a fiber.
__attribute__((visibility("default"), tls_model("initial-exec")))
__thread intptr_t __spinelprof_stack_offset;

/// Defined next to the start-up constructor (spinelprof_init.cpp).
extern const char __spinelprof_init_anchor;
__attribute__((used)) const char *const __spinelprof_pull_init =
    &__spinelprof_init_anchor;
}
