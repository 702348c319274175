// Fibers, the way Spinel makes them (ucontext: getcontext, makecontext,
// swapcontext; a 64 KB mmap'd C stack each): every fiber has its own
// shadow stack, and a sample inside a fiber shows the fiber's frames on top
// of the frames that resumed it, with a "[fiber]" marker between. Two
// fibers ping-pong, resumed from different depths; no stack ever shows one
// fiber's frames with the other's, or a fiber's frames without the marker,
// and the main stack's depth is intact after each resume.
//
// UNSUPPORTED: tsan
// (TSan needs __tsan_switch_to_fiber around every swapcontext; Spinel's
// fibers do not annotate, so neither does this program.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/f.folded SPINEL_PROFILE_HZ=2000 SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s
// RUN: %python %inputs/check_stacks.py %t/f.folded --rules %s
// RUN: %python %inputs/check_sprof.py %t/f.folded > /dev/null
//
// CHECK: pings 400 pongs 400 depth ok
//
// Who may call whom (names with * for what the naming rules may call
// Spinel's helpers): a fiber's frames only above a marker, the marker only
// over the resume that switched, and ping and pong never in one stack.
// STACKS-ROOT: <main>
// STACKS-ROOT: [unknown]
// STACKS: <main> -> *resume*, *main_work, Fiber.new
// STACKS: *resume_deep -> *resume*
// STACKS: *main_work -> burn
// STACKS: *Fiber*resume -> [fiber]
// STACKS: [fiber] -> *fiber_trampoline
// STACKS: *fiber_trampoline -> *fiber*
// STACKS: fiber* -> *ping, *pong, *Fiber*yield
// STACKS: *ping -> burn
// STACKS: *pong -> burn
// STACKS: *Fiber*yield -> [native] *
// STACKS-ANY: *ping >= 15%
// STACKS-ANY: *pong >= 15%
// STACKS-ANY: *main_work >= 10%
// STACKS-PATH: <main>;*resume_deep;*resume_deep;*resume_deep;*resume_deep;*Fiber*resume;[fiber];*fiber_trampoline;*;*pong;burn >= 2%
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "spinelprof/abi.h"
#include "ucontext_fibers.h"

SPINEL_UCONTEXT_FIBERS(sp_Fiber_yield)

static volatile uint64_t sink;
static int pings, pongs;

__attribute__((noinline)) static void burn(int n) {
  for (int i = 0; i < n; ++i)
    sink = sink * 6364136223846793005u + 1442695040888963407u;
}

__attribute__((noinline)) static void sp_ping(void) { burn(150000); ++pings; }
__attribute__((noinline)) static void sp_pong(void) { burn(150000); ++pongs; }
__attribute__((noinline)) static void sp_main_work(void) { burn(100000); }

static void _fiber_body_1(void) {
  for (;;) {
    sp_ping();
    sp_Fiber_yield();
  }
}

static void _fiber_body_2(void) {
  for (;;) {
    sp_pong();
    sp_Fiber_yield();
  }
}

SPINEL_UCONTEXT_RESUME_DEEP(sink)

int main(void) {
  static sp_Fiber a, b;
  sp_Fiber_new(&a, _fiber_body_1);
  sp_Fiber_new(&b, _fiber_body_2);
  uint32_t depth = __spinelprof_stack.depth;
  int ok = 1;
  for (int i = 0; i < 400; ++i) {
    // Alternate the depth each fiber is resumed from.
    if (i & 1) {
      sp_resume_deep(&b, 3);
      sp_Fiber_resume(&a);
    } else {
      sp_Fiber_resume(&b);
      sp_resume_deep(&a, 1);
    }
    sp_main_work();
    ok &= __spinelprof_stack.depth == depth;
  }
  printf("pings %d pongs %d depth %s\n", pings, pongs, ok ? "ok" : "BAD");
  return 0;
}
