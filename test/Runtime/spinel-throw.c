// catch/throw exactness: a method with catch(:found) calls a chain 13
// frames deep, through a method with its own begin/rescue, whose bottom
// throws (sp_throw, a longjmp over sp_catch_stack) a million times; then the
// catcher and, after it returns, main run ordinary code. No sampled stack may
// be impossible, and the frame that burns the time is the leaf. (Its share
// is 30-42% on a quiet machine and a deleted push gives 0%; with other
// CPU-bound processes on the two cores, -O0 gives 11%, the time going to
// the throw chain, hence the 8% bound.)
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
// STACKS-ROOT: <main>
// STACKS: <main> -> Object#run, Object#settle
// STACKS: Object#run -> Object#catcher
// STACKS: Object#catcher -> Object#t01, Object#crunch
// STACKS: Object#t01 -> Object#t02
// STACKS: Object#t02 -> Object#t03
// STACKS: Object#t03 -> Object#t04
// STACKS: Object#t04 -> Object#t05
// STACKS: Object#t05 -> Object#t06
// STACKS: Object#t07 -> Object#t08
// STACKS: Object#t08 -> Object#t09
// STACKS: Object#t09 -> Object#t10
// STACKS: Object#t10 -> Object#t11
// STACKS: Object#t11 -> Object#t12
// STACKS: Object#t06 -> Object#guarded
// STACKS: Object#guarded -> Object#t07, sp_exc_is_a, Kernel#raise
// STACKS: Object#t12 -> Object#probe, Kernel#throw
// STACKS: Object#settle -> Object#crunch
// STACKS-SAMPLES: >= 60
// STACKS-LEAF: Object#probe >= 8%
// STACKS-PATH: <main>;Object#run;Object#catcher;Object#crunch >= 8%
// STACKS-PATH: <main>;Object#settle;Object#crunch >= 8%
// STACKS-NEVER: Kernel#raise
//
// CHECK-DAG: {{^}}<main>;Object#run;Object#catcher;Object#t01;Object#t02;Object#t03;Object#t04;Object#t05;Object#t06;Object#guarded;Object#t07;Object#t08;Object#t09;Object#t10;Object#t11;Object#t12;Object#probe {{[0-9]+$}}
// CHECK-DAG: {{^}}<main>;Object#run;Object#catcher;Object#crunch {{[0-9]+$}}
// CHECK-DAG: {{^}}<main>;Object#settle;Object#crunch {{[0-9]+$}}
//
// OUT: caught: 1000000 sum: 500000500000
// OUT-NEXT: crunch: {{-?[0-9]+}}
// OUT-NEXT: settle: {{-?[0-9]+}}
#include "spinel_longjmp.h"

// The leaf that burns, then throws what it found, and Object#crunch.
SPINEL_LONGJMP_WORK(sp_probe)

static mrb_int sp_t12(mrb_int lv_n) {
  gv_sink += sp_probe(lv_n);
  if (lv_n >= 10)
    sp_throw("found", lv_n - 9);
  return lv_n;
}
static inline mrb_int sp_t11(mrb_int lv_n) { return sp_t12(lv_n + 1) + 1; }
static inline mrb_int sp_t10(mrb_int lv_n) { return sp_t11(lv_n + 1) + 1; }
static inline mrb_int sp_t09(mrb_int lv_n) { return sp_t10(lv_n + 1) + 1; }
static inline mrb_int sp_t08(mrb_int lv_n) { return sp_t09(lv_n + 1) + 1; }
static inline mrb_int sp_t07(mrb_int lv_n) { return sp_t08(lv_n + 1) + 1; }

// begin ... rescue ArgumentError ... end: the throw passes through it.
static mrb_int sp_guarded(mrb_int lv_n) {
  volatile mrb_int _t1 = 0;
  sp_exc_roots[sp_exc_top] = sp_gc_nroots;
  if (setjmp(sp_exc_stack[sp_exc_top++]) == 0) {
    _t1 = sp_t07(lv_n);
    sp_exc_top--;
  } else if (sp_exc_is_a("ArgumentError")) {
    _t1 = -1;
  } else {
    sp_raise(sp_exc_current);
  }
  return _t1 + 1;
}
static inline mrb_int sp_t06(mrb_int lv_n) { return sp_guarded(lv_n) + 1; }
static inline mrb_int sp_t05(mrb_int lv_n) { return sp_t06(lv_n + 1) + 1; }
static inline mrb_int sp_t04(mrb_int lv_n) { return sp_t05(lv_n + 1) + 1; }
static inline mrb_int sp_t03(mrb_int lv_n) { return sp_t04(lv_n + 1) + 1; }
static inline mrb_int sp_t02(mrb_int lv_n) { return sp_t03(lv_n + 1) + 1; }
static inline mrb_int sp_t01(mrb_int lv_n) { return sp_t02(lv_n + 1) + 1; }

static mrb_int sp_catcher(mrb_int lv_cycles, mrb_int lv_work) {
  volatile mrb_int lv_caught = 0;
  volatile mrb_int lv_sum = 0;
  for (volatile mrb_int lv_i = 0; lv_i < lv_cycles; lv_i++) {
    mrb_int _t1;
    sp_catch_tags[sp_catch_top] = "found";
    sp_catch_exc_top[sp_catch_top] = sp_exc_top;
    sp_catch_roots[sp_catch_top] = sp_gc_nroots;
    if (setjmp(sp_catch_stack[sp_catch_top++]) == 0) {
      _t1 = sp_t01(lv_i);
      sp_catch_top--;
    } else {
      _t1 = sp_catch_value;
      lv_caught += 1;
    }
    lv_sum += _t1;
  }
  // Ordinary code in the frame the longjmps landed in.
  printf("caught: %lld sum: %lld\n", (long long)lv_caught, (long long)lv_sum);
  printf("crunch: %lld\n", (long long)sp_crunch(lv_work));
  return lv_caught;
}

SPINEL_LONGJMP_MAIN(sp_catcher)
