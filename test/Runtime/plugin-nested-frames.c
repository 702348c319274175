// Runtime and plugin together: frames inlined into an instrumented function
// stand at its slot + their level (plugin/LowerFrameMarkers.cpp), with no
// load of the depth. The profile shows them in order; in a recursion past
// the 4096 slots they land in the sink slots (abi.h), never out of bounds,
// the truncated stack keeps exactly the root-most 4096 frames, and the
// depth heals as the recursion returns (to 1: main is a frame).
//
// UNSUPPORTED: tsan
// (As plugin-deep-recursion.c: under TSan a sample must land while the
// recursion is deep, and the signal waits for TSan's next interceptor.)
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O2 %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/n.folded SPINEL_PROFILE_HZ=1000 %t/app 2> %t/err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_stacks.py %t/n.folded --rules %s
// Main, then 2048 descend and 2047 step alternating: 4096 slots.
// RUN: %python %inputs/folded_facts.py max-repeats %t/n.folded descend 2048 2048
// RUN: %python %inputs/folded_facts.py max-repeats %t/n.folded step 2047 2047
//
// OUT: result 4200, depth after 1
// ERR: {{[1-9][0-9]*}} truncated
// STACKS-ROOT: <main>
// STACKS: <main> -> shallow, descend
// STACKS: shallow -> middle
// STACKS: middle -> inner
// STACKS: inner -> spin
// STACKS: spin -> cpu_ns
// STACKS: descend -> step, [truncated]
// STACKS: step -> descend, [truncated]
// STACKS-PATH: <main>;shallow;middle;inner;spin;cpu_ns >= 25%
// STACKS-LEAF: [truncated] >= 25%
#include "spinelprof/abi.h"
#include <stdio.h>
#include <time.h>

static unsigned long long cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); // Not the thread clock: see manual_frames.h.
  return (unsigned long long)t.tv_sec * 1000000000u + t.tv_nsec;
}

__attribute__((noinline)) static int spin(int ms) {
  unsigned long long end = cpu_ns() + ms * 1000000ull;
  volatile int x = 0;
  while (cpu_ns() < end)
    ++x;
  return 0;
}

static volatile int returned;

// Inlined with their frames (each calls something, so none is a PC-named
// leaf): two levels above shallow's own frame.
static inline __attribute__((always_inline)) int inner(int ms) {
  return spin(ms) + 100;
}
static inline __attribute__((always_inline)) int middle(int ms) {
  return inner(ms) + 100;
}
__attribute__((noinline)) static int shallow(int ms) {
  int r = middle(ms) + 1000;
  returned = r;
  return r;
}

// descend and the step inlined into it: two frames a level, 3000 levels.
__attribute__((noinline)) static int descend(int n);
static inline __attribute__((always_inline)) int step(int n) {
  int r = descend(n - 1) + 1;
  returned = r;
  return r;
}
__attribute__((noinline)) static int descend(int n) {
  if (n == 0)
    return spin(200);
  int r = step(n);
  returned = r;
  return r;
}

int main(void) {
  int r = shallow(200) + descend(3000);
  printf("result %d, depth after %u\n", r, __spinelprof_stack.depth);
  return 0;
}
