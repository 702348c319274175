// Nested fibers: main resumes an outer fiber, which resumes an inner one,
// each from two depths in turn. Every context keeps its frames while
// another runs (the runtime copies a suspended context's frames out of the
// thread's shadow stack and back in, at the same depths), so:
// - after every resume, in main and in the outer fiber, the depth is what
//   it was before (the program checks; "depth ok");
// - a sample in the inner fiber shows main's frames, "[fiber]", the outer
//   fiber's, "[fiber]", the inner's: each of the four ways there (two
//   depths in main times two in the outer fiber) holds about a quarter of
//   the inner fiber's ~45 % of ~600 samples, so each is >= 6 % (~11 %
//   expected: 4 sigma of a quarter's count) unless the chain or a restored
//   depth is wrong (a frame missing, extra or out of place makes another
//   path);
// - no edge outside the rules.
//
// UNSUPPORTED: tsan
// (TSan needs __tsan_switch_to_fiber around every swapcontext; Spinel's
// fibers do not annotate, so neither does this program.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/f.folded SPINEL_PROFILE_HZ=2000 SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s
// RUN: %python %inputs/check_stacks.py %t/f.folded --rules %s
//
// CHECK: outer 200 inner 200 depth ok
//
// STACKS-ROOT: <main>
// STACKS-ROOT: [unknown]
// STACKS: <main> -> resume_from, Fiber.new
// STACKS: resume_from -> *Fiber*resume, *resume_deep
// STACKS: *resume_deep -> *resume_deep, *Fiber*resume
// STACKS: *Fiber*resume -> [fiber]
// STACKS: [fiber] -> *fiber_trampoline
// STACKS: *fiber_trampoline -> fiber*
// STACKS: fiber* -> *outer_loop, *inner_loop
// STACKS: *outer_loop -> *outer_work, resume_from, *Fiber*yield
// STACKS: *inner_loop -> *inner_work, *Fiber*yield
// STACKS: *outer_work -> burn
// STACKS: *inner_work -> burn
// STACKS-ANY: *outer_work >= 30%
// STACKS-ANY: *inner_work >= 30%
// STACKS-PATH: <main>;resume_from;*Fiber*resume;[fiber];*fiber_trampoline;fiber*;*outer_loop;resume_from;*Fiber*resume;[fiber];*fiber_trampoline;fiber*;*inner_loop;*inner_work;burn >= 6%
// STACKS-PATH: <main>;resume_from;*Fiber*resume;[fiber];*fiber_trampoline;fiber*;*outer_loop;resume_from;*resume_deep;*resume_deep;*resume_deep;*Fiber*resume;[fiber];*fiber_trampoline;fiber*;*inner_loop;*inner_work;burn >= 6%
// STACKS-PATH: <main>;resume_from;*resume_deep;*resume_deep;*resume_deep;*resume_deep;*Fiber*resume;[fiber];*fiber_trampoline;fiber*;*outer_loop;resume_from;*Fiber*resume;[fiber];*fiber_trampoline;fiber*;*inner_loop;*inner_work;burn >= 6%
// STACKS-PATH: <main>;resume_from;*resume_deep;*resume_deep;*resume_deep;*resume_deep;*Fiber*resume;[fiber];*fiber_trampoline;fiber*;*outer_loop;resume_from;*resume_deep;*resume_deep;*resume_deep;*Fiber*resume;[fiber];*fiber_trampoline;fiber*;*inner_loop;*inner_work;burn >= 6%
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "spinelprof/abi.h"
#include "ucontext_fibers.h"

SPINEL_UCONTEXT_FIBERS(sp_Fiber_yield)

static volatile uint64_t sink;
static int outers, inners, ok = 1;
static sp_Fiber outer, inner;

__attribute__((noinline)) static void burn(int n) {
  for (int i = 0; i < n; ++i)
    sink = sink * 6364136223846793005u + 1442695040888963407u;
}

__attribute__((noinline)) static void sp_outer_work(void) {
  burn(600000);
  ++outers;
}
__attribute__((noinline)) static void sp_inner_work(void) {
  burn(600000);
  ++inners;
}

SPINEL_UCONTEXT_RESUME_DEEP(sink)

/// Resumes F directly or from N levels deeper, in turn, and checks that
/// the depth comes back.
static void resume_from(sp_Fiber *f, int i, int n) {
  uint32_t depth = __spinelprof_stack.depth;
  if (i & 1)
    sp_resume_deep(f, n);
  else
    sp_Fiber_resume(f);
  ok &= __spinelprof_stack.depth == depth;
}

__attribute__((noinline)) static void sp_inner_loop(void) {
  for (;;) {
    sp_inner_work();
    sp_Fiber_yield();
  }
}

__attribute__((noinline)) static void sp_outer_loop(void) {
  for (int i = 0;; ++i) {
    resume_from(&inner, i / 2, 2);
    sp_outer_work();
    sp_Fiber_yield();
  }
}

static void _fiber_body_1(void) { sp_outer_loop(); }
static void _fiber_body_2(void) { sp_inner_loop(); }

int main(void) {
  sp_Fiber_new(&outer, _fiber_body_1);
  sp_Fiber_new(&inner, _fiber_body_2);
  for (int i = 0; i < 200; ++i)
    resume_from(&outer, i, 3);
  printf("outer %d inner %d depth %s\n", outers, inners, ok ? "ok" : "BAD");
  return 0;
}
