// Runtime and plugin together: recursion 5000 deep (deeper than the 4096
// slots) through instrumented functions keeps the root-most frames, ends in
// "[truncated]", counts it, and the stack heals as the recursion returns (to 1: main is a frame).
// A frame past the capacity still reads "[truncated]" after a deeper call
// returned to it (the depth its pop restored, saturated, stays above the
// capacity): half the run spins there, so a depth restored below the
// capacity would put the leaf `descend` in half the samples.
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// which the recursion reaches only after it has unwound; a sample must
// land while the recursion is deep.)
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/d.folded %t/app 2> %t/err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_stacks.py %t/d.folded --leaf '[truncated] >= 60%%' --root '<main>'
// RUN: %python %inputs/folded_facts.py first-stack %t/d.folded 0 1 -2 -1 | FileCheck %s --check-prefix=FOLDED
//
// OUT: result 5000, depth after 1
// ERR: {{[1-9][0-9]*}} truncated
// FOLDED: 4097 <main> descend descend [truncated]
#include "spinelprof/abi.h"
#include <stdio.h>
#include <time.h>

static unsigned long long cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); // Not the thread clock: see manual_frames.h.
  return (unsigned long long)t.tv_sec * 1000000000u + t.tv_nsec;
}

__attribute__((noinline)) static int bottom(void) {
  unsigned long long end = cpu_ns() + 200000000ull;
  volatile int x = 0;
  while (cpu_ns() < end)
    ++x;
  return 0;
}

static volatile int returned;

// Not a tail call (the store after it): with `descend(n - 1) + 1` clang
// turns the recursion into a loop, and the pass keeps one frame for it.
__attribute__((noinline)) static int descend(int n) {
  if (n == 0)
    return bottom();
  int r = descend(n - 1) + 1;
  returned = r;
  if (n == 500) { // ~4500 frames deep, after 500 more returned
    unsigned long long end = cpu_ns() + 200000000ull;
    while (cpu_ns() < end)
      returned = r;
  }
  return r;
}

int main(void) {
  int r = descend(5000);
  printf("result %d, depth after %u\n", r, __spinelprof_stack.depth);
  return 0;
}
