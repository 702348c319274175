// Stress: Spinel's raise/rescue (setjmp/longjmp over a global jmp_buf
// stack) a million times, each raise 50 frames below its rescue, sampled
// at 10 kHz. Every longjmp abandons 50 frames' pops; the shadow stack must
// heal each time: the rescuing method is the top frame again at once, the
// depth is back where it was after the loop, and no sample ever shows a
// frame under one it cannot be called from (a stale frame left by a
// longjmp would show as Object#dig under Object#rescue_loop's caller, or
// above a depth of 50).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE_HZ=10000 timeout 300 %python %inputs/exit_status.py --compare %t/j.folded %t/app > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_sprof.py %t/j.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/j.folded --rules %s --min-samples 100
// RUN: %python %inputs/folded_facts.py max-repeats %t/j.folded 'Object#dig' 1 50 | FileCheck %s --check-prefix=DEPTH
//
// OUT: rescued 1000000 depth ok
// OUT-NEXT: exit status: 0
// OUT-NEXT: identical
// ERR: spinelprof: {{[0-9]+}} samples
// DEPTH: deepest Object#dig chain: {{[0-9]+}}, within 1..50
//
// STACKS-ROOT: <main>
// STACKS-ROOT: [unknown]
// STACKS: <main> -> Object#rescue_loop
// STACKS: Object#rescue_loop -> Object#dig
// STACKS: Object#dig -> Object#dig, *raise
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

#include "spinelprof/abi.h"

static jmp_buf sp_exc_stack[64];
static int sp_exc_top;
static volatile uint64_t sink;

__attribute__((noinline)) static void sp_raise(int code) {
  longjmp(sp_exc_stack[sp_exc_top - 1], code);
}

__attribute__((noinline)) static uint64_t sp_dig(int n) {
  sink += n;
  if (n == 0)
    sp_raise(7);
  return sp_dig(n - 1) + 1;
}

__attribute__((noinline)) static int sp_rescue_loop(int times) {
  int rescued = 0;
  for (int i = 0; i < times; ++i) {
    if (setjmp(sp_exc_stack[sp_exc_top++]) == 0) {
      sink += sp_dig(49);
      --sp_exc_top;
    } else {
      --sp_exc_top;
      ++rescued;
    }
  }
  return rescued;
}

int main(void) {
  uint32_t depth = __spinelprof_stack.depth;
  int rescued = sp_rescue_loop(1000000);
  printf("rescued %d depth %s\n", rescued,
         __spinelprof_stack.depth == depth ? "ok" : "BAD");
  return 0;
}
