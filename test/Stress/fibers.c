// Stress: ten million fiber switches (five million resume/yield round
// trips, Spinel's ucontext fibers with 64 KB mmap'd stacks) among three
// fibers, sampled at 10 kHz. No crash; stdout and exit status unchanged;
// the main shadow stack's depth intact after every resume; no sample shows
// a fiber's frames without the [fiber] marker or under another fiber (the
// edges: a fiber's frames never call Fiber#resume).
//
// UNSUPPORTED: tsan
// (ThreadSanitizer needs __tsan_switch_to_fiber around every swapcontext;
// Spinel's generated C does not annotate its fibers, so neither does this.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE_HZ=10000 timeout 600 %python %inputs/exit_status.py --compare %t/f.folded %t/app > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_sprof.py %t/f.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/f.folded --rules %s --min-samples 100
//
// OUT: switches 10000000 depth ok
// OUT-NEXT: exit status: 0
// OUT-NEXT: identical
// ERR: spinelprof: {{[0-9]+}} samples
//
// STACKS-ROOT: <main>
// STACKS-ROOT: [unknown]
// STACKS: <main> -> Fiber#resume, Fiber.new
// STACKS: Fiber#resume -> [fiber]
// STACKS: [fiber] -> *fiber_trampoline
// STACKS: *fiber_trampoline -> fiber*
// STACKS: fiber* -> Object#step, Fiber.yield
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "spinelprof/abi.h"
#include "ucontext_fibers.h"

SPINEL_UCONTEXT_FIBERS(sp_Fiber_cls_yield)

static volatile uint64_t sink;

__attribute__((noinline)) static void sp_step(void) { sink = sink * 3 + 1; }

static void _fiber_body_1(void) {
  for (;;) {
    sp_step();
    sp_Fiber_cls_yield();
  }
}

int main(void) {
  static sp_Fiber fibers[3];
  for (int i = 0; i < 3; ++i)
    sp_Fiber_new(&fibers[i], _fiber_body_1);
  uint32_t depth = __spinelprof_stack.depth;
  int ok = 1;
  long switches = 0;
  for (long i = 0; i < 5000000; ++i) {
    sp_Fiber_resume(&fibers[i % 3]);
    switches += 2;
    ok &= __spinelprof_stack.depth == depth;
  }
  printf("switches %ld depth %s\n", switches, ok ? "ok" : "BAD");
  return 0;
}
