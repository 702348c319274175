// Allocations inside a fiber carry the fiber's whole stack: the frames that
// resumed it, "[fiber]", then the fiber's own frames, as CPU samples do.
// Rate 1: exact counts. The runtime's Fiber constructor (a calloc in
// sp_Fiber_new) is named from the constructor too.
//
// RUN: %clang_prof -O2 -I%examples -I%src_root/bench/overhead/programs %s %rtlib -o %t
// RUN: env SPINEL_PROFILE=%t.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_ALLOC_RATE=1 %t | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/alloc_stacks.py %t.alloc.sprof | FileCheck %s
//
// OUT: sum 427
// CHECK: {{^}}<main>;Fiber#resume;[fiber];sp_fiber_trampoline;fiber in <main>;Object#make_foos;Foo.new;alloc Foo objects=300 bytes=4800{{$}}
// CHECK-NEXT: {{^}}<main>;Fiber.new;alloc Fiber objects=1 bytes={{[0-9]+$}}
// CHECK-NEXT: {{^}}<main>;Object#make_foos;Foo.new;alloc Foo objects=7 bytes=112{{$}}
// CHECK-NEXT: total objects=308
#include "sp_bench_rt.h"

typedef struct sp_Foo {
  struct sp_Foo *iv_next;
  mrb_int iv_v;
} sp_Foo;

static sp_Foo *sp_Foo_new(mrb_int lv_v) {
  sp_Foo *self = (sp_Foo *)sp_gc_alloc(sizeof(sp_Foo), NULL, NULL);
  self->iv_v = lv_v;
  return self;
}

static mrb_int sp_make_foos(mrb_int lv_n) {
  mrb_int lv_s = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_s += sp_Foo_new(1)->iv_v;
  return lv_s;
}

static void _fiber_body_1(sp_Fiber *lv_f) {
  for (;;)
    sp_Fiber_yield(sp_make_foos(10));
}

int main(void) {
  sp_Fiber *lv_f = sp_Fiber_new(_fiber_body_1);
  mrb_int lv_sum = sp_make_foos(7);
  for (int lv_i = 0; lv_i < 30; lv_i++)
    lv_sum += sp_Fiber_resume(lv_f, 0) + 4;
  printf("sum %lld\n", (long long)lv_sum);
  return 0;
}
