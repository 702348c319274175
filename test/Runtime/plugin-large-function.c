// Runtime and plugin together: a large function (main, with 80 frames
// inlined into it: more than 64 pushes) has its pushes stand only on
// frames pushed or popped in their own block and its pops count down
// (plugin/StaticDepths.h). Its stacks read as a small function's: each
// inlined method right under <main>, and after a raise that longjmps from
// inside one of them (skipping its pop and the raiser's) to main's setjmp,
// no frame left over: main's re-push sets the depth, and the count-downs
// after it start from there. A count-down pop that ran from a stale depth,
// or a push standing on a frame of another block, would show a method
// under another (m3 -> m4) or above the raiser; the depth printed at the
// end is main's own (1).
//
// UNSUPPORTED: tsan
// (The raise's longjmp skips TSan's function-exit hooks too.)
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O2 %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/l.folded SPINEL_PROFILE_HZ=1000 %t/app | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/l.folded --rules %s
//
// OUT: rescued 1, depth after 1
// STACKS-ROOT: <main>
// STACKS: <main> -> m*
// STACKS: m* -> spin
// STACKS: m40 -> raiser
// STACKS: raiser -> spin
// STACKS: spin -> cpu_ns
// STACKS-NEVER: [truncated]
// STACKS-ANY: m79 >= 0.5%
// STACKS-ANY: raiser >= 0.5%
// STACKS-SAMPLES: >= 150
#include "spinelprof/abi.h"
#include <setjmp.h>
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
  return x & 1;
}

static jmp_buf rescue;
static volatile int sink;

__attribute__((noinline)) static void raiser(void) {
  spin(20);
  longjmp(rescue, 1);
}

// Eighty methods inlined into main, each with its frame (each calls
// something, so none is a PC-named leaf); m40 raises from inside itself.
// m79, the last, spins 20 ms (the others 3): its ~20 samples at 1 kHz make
// "m79 >= 0.5%" (2 of ~280) sure under Poisson instants, where 3 ms (a
// mean of 3) read under 2 one run in five.
#define M(n)                                                                 \
  static inline __attribute__((always_inline)) void m##n(void) {            \
    sink += spin(n == 79 ? 20 : 3);                                          \
    if (n == 40)                                                             \
      raiser();                                                              \
  }
#define M10(t)                                                               \
  M(t##0) M(t##1) M(t##2) M(t##3) M(t##4) M(t##5) M(t##6) M(t##7) M(t##8)    \
  M(t##9)
M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9)
M10(1) M10(2) M10(3) M10(4) M10(5) M10(6) M10(7)

#define C(n) m##n();
#define C10(t)                                                               \
  C(t##0) C(t##1) C(t##2) C(t##3) C(t##4) C(t##5) C(t##6) C(t##7) C(t##8)    \
  C(t##9)

int main(void) {
  volatile int rescued = 0;
  if (setjmp(rescue)) {
    rescued = 1;
    goto after;
  }
  C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9)
  C10(1) C10(2) C10(3)
  C(40)
after:
  C(41) C(42) C(43) C(44) C(45) C(46) C(47) C(48) C(49)
  C10(5) C10(6) C10(7)
  printf("rescued %d, depth after %u\n", rescued, __spinelprof_stack.depth);
  return 0;
}
