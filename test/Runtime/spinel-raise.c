// raise/rescue exactness: a method with a setjmp rescue calls a chain 20
// frames deep whose bottom raises (longjmp), a million times; then the
// rescuer and, after it returns, main run ordinary code. No sampled stack may
// be impossible: a frame the longjmp abandoned must never appear above the
// rescuer once it resumes, and the frame that burns the time is the leaf.
//
// UNSUPPORTED: sanitized
// (Asserts time shares of code whose cost the sanitizers change
// unevenly; that is not a property of the profiler.)
//
// RUN: %clang_prof -O2 -I%examples -I%inputs %s %rtlib -o %t.o2
// RUN: env SPINEL_PROFILE=%t.o2.folded SPINEL_PROFILE_QUIET=1 %t.o2 1000000 > %t.o2.out
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.o2.out
// RUN: %python %inputs/check_stacks.py %t.o2.folded --rules %s
// RUN: FileCheck %s --input-file=%t.o2.folded
//
// RUN: %clang_prof -O0 -I%examples -I%inputs %s %rtlib -o %t.o0
// RUN: env SPINEL_PROFILE=%t.o0.folded SPINEL_PROFILE_QUIET=1 %t.o0 1000000 > %t.o0.out
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.o0.out
// RUN: %python %inputs/check_stacks.py %t.o0.folded --rules %s
// RUN: FileCheck %s --input-file=%t.o0.folded
//
// Everything the program can do, caller -> callees. The runtime helpers
// (from sp_runtime.h) keep their C names.
// STACKS-ROOT: <main>
// STACKS: <main> -> Object#run, Object#settle
// STACKS: Object#run -> Object#rescuer
// STACKS: Object#rescuer -> Object#d01, Object#crunch, sp_exc_is_a, Kernel#raise
// STACKS: Object#d01 -> Object#d02
// STACKS: Object#d02 -> Object#d03
// STACKS: Object#d03 -> Object#d04
// STACKS: Object#d04 -> Object#d05
// STACKS: Object#d05 -> Object#d06
// STACKS: Object#d06 -> Object#d07
// STACKS: Object#d07 -> Object#d08
// STACKS: Object#d08 -> Object#d09
// STACKS: Object#d09 -> Object#d10
// STACKS: Object#d10 -> Object#d11
// STACKS: Object#d11 -> Object#d12
// STACKS: Object#d12 -> Object#d13
// STACKS: Object#d13 -> Object#d14
// STACKS: Object#d14 -> Object#d15
// STACKS: Object#d15 -> Object#d16
// STACKS: Object#d16 -> Object#d17
// STACKS: Object#d17 -> Object#d18
// STACKS: Object#d18 -> Object#d19
// STACKS: Object#d19 -> Object#d20
// STACKS: Object#d20 -> Object#burn, Kernel#raise
// STACKS: Kernel#raise -> sp_str_alloc, Kernel#raise
// STACKS: sp_str_alloc -> sp_str_alloc_raw
// STACKS: sp_str_alloc_raw -> sp_gc_collect, sp_gc_xmalloc
// STACKS: Object#settle -> Object#crunch
// STACKS: sp_gc_* -> sp_gc_*, sp_str_sweep
// STACKS: sp_str_sweep -> sp_gc_sweep_list
// The time goes to Object#burn at the bottom of the chain, and to
// Object#crunch called by the rescuer after its last rescue and by settle.
// A deleted push of burn gives 0%; on a quiet machine burn has 30-41%,
// and heavy load lowers it at -O0 (to 14%), so the bound only tells a
// deleted push from a working one.
// STACKS-SAMPLES: >= 60
// STACKS-LEAF: Object#burn >= 10%
// STACKS-PATH: <main>;Object#run;Object#rescuer;Object#crunch >= 8%
// STACKS-PATH: <main>;Object#settle;Object#crunch >= 8%
//
// CHECK-DAG: {{^}}<main>;Object#run;Object#rescuer;Object#d01;Object#d02;Object#d03;Object#d04;Object#d05;Object#d06;Object#d07;Object#d08;Object#d09;Object#d10;Object#d11;Object#d12;Object#d13;Object#d14;Object#d15;Object#d16;Object#d17;Object#d18;Object#d19;Object#d20;Object#burn {{[0-9]+$}}
// CHECK-DAG: {{^}}<main>;Object#run;Object#rescuer;Object#crunch {{[0-9]+$}}
// CHECK-DAG: {{^}}<main>;Object#settle;Object#crunch {{[0-9]+$}}
//
// OUT: rescued: [[N:[0-9]+]]
// OUT-NEXT: crunch: {{-?[0-9]+}}
// OUT-NEXT: settle: {{-?[0-9]+}}
#include "spinel_longjmp.h"

// A leaf that burns: a chain of dependent mixing steps, and Object#crunch.
SPINEL_LONGJMP_WORK(sp_burn)

static mrb_int sp_d20(mrb_int lv_n) {
  gv_sink += sp_burn(lv_n);
  if (lv_n >= 0)
    sp_raise_cls("RuntimeError", "bottom of the chain");
  return lv_n;
}
static inline mrb_int sp_d19(mrb_int lv_n) { return sp_d20(lv_n + 1) + 1; }
static inline mrb_int sp_d18(mrb_int lv_n) { return sp_d19(lv_n + 1) + 1; }
static inline mrb_int sp_d17(mrb_int lv_n) { return sp_d18(lv_n + 1) + 1; }
static inline mrb_int sp_d16(mrb_int lv_n) { return sp_d17(lv_n + 1) + 1; }
static inline mrb_int sp_d15(mrb_int lv_n) { return sp_d16(lv_n + 1) + 1; }
static inline mrb_int sp_d14(mrb_int lv_n) { return sp_d15(lv_n + 1) + 1; }
static inline mrb_int sp_d13(mrb_int lv_n) { return sp_d14(lv_n + 1) + 1; }
static inline mrb_int sp_d12(mrb_int lv_n) { return sp_d13(lv_n + 1) + 1; }
static inline mrb_int sp_d11(mrb_int lv_n) { return sp_d12(lv_n + 1) + 1; }
static inline mrb_int sp_d10(mrb_int lv_n) { return sp_d11(lv_n + 1) + 1; }
static inline mrb_int sp_d09(mrb_int lv_n) { return sp_d10(lv_n + 1) + 1; }
static inline mrb_int sp_d08(mrb_int lv_n) { return sp_d09(lv_n + 1) + 1; }
static inline mrb_int sp_d07(mrb_int lv_n) { return sp_d08(lv_n + 1) + 1; }
static inline mrb_int sp_d06(mrb_int lv_n) { return sp_d07(lv_n + 1) + 1; }
static inline mrb_int sp_d05(mrb_int lv_n) { return sp_d06(lv_n + 1) + 1; }
static inline mrb_int sp_d04(mrb_int lv_n) { return sp_d05(lv_n + 1) + 1; }
static inline mrb_int sp_d03(mrb_int lv_n) { return sp_d04(lv_n + 1) + 1; }
static inline mrb_int sp_d02(mrb_int lv_n) { return sp_d03(lv_n + 1) + 1; }
static inline mrb_int sp_d01(mrb_int lv_n) { return sp_d02(lv_n + 1) + 1; }

static mrb_int sp_rescuer(mrb_int lv_cycles, mrb_int lv_work) {
  volatile mrb_int lv_rescued = 0;
  for (volatile mrb_int lv_i = 0; lv_i < lv_cycles; lv_i++) {
    sp_exc_roots[sp_exc_top] = sp_gc_nroots;
    if (setjmp(sp_exc_stack[sp_exc_top++]) == 0) {
      gv_sink += sp_d01(lv_i);
      sp_exc_top--;
    } else if (sp_exc_is_a("RuntimeError")) {
      lv_rescued += 1;
    } else {
      sp_raise(sp_exc_current);
    }
  }
  // Ordinary code in the frame the longjmps landed in.
  printf("rescued: %lld\n", (long long)lv_rescued);
  printf("crunch: %lld\n", (long long)sp_crunch(lv_work));
  return lv_rescued;
}

SPINEL_LONGJMP_MAIN(sp_rescuer)
