// Built the way Spinel builds (`spinel app.rb --cc='spinel-prof cc'`): one
// command with Spinel's flags, including section GC at link time, which must
// keep the frame descriptors. The profile has Ruby names and exact stacks.
//
// RUN: %spinel-prof cc -O2 -Wno-all -ffunction-sections -fdata-sections -I%examples %s -lm -Wl,--gc-sections -o %t
// RUN: env SPINEL_PROFILE=%t.folded SPINEL_PROFILE_QUIET=1 %t 300000 | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t.folded --rules %s
// RUN: FileCheck %s --input-file=%t.folded
// (GC kinds are checked by spinel-gc.c, whose collector runs often enough to
// be sampled every time; here it may not be.)
// RUN: %python %inputs/spinel/sprof_frames.py %t.sprof \
// RUN:   --expect-kind 'sp_Counter_*=user' | FileCheck %s --check-prefix=SPROF
//
// STACKS-ROOT: <main>
// STACKS: <main> -> Counter.new, Counter#tally, Object#checked_sqrt
// STACKS: Counter.new -> sp_gc_alloc, Counter#initialize
// STACKS: Counter#tally -> Counter#bump!, Object#checked_sqrt
// STACKS: Object#checked_sqrt -> Object#root_of, sp_exc_is_a, Kernel#raise
// STACKS: Object#root_of -> Kernel#raise, sqrt
// STACKS: Kernel#raise -> sp_str_alloc, Kernel#raise
// STACKS: sp_str_alloc -> sp_str_alloc_raw
// STACKS: sp_str_alloc_raw -> sp_gc_collect, sp_gc_xmalloc
// STACKS: sp_gc_* -> sp_gc_*, sp_str_sweep
// STACKS: sp_str_sweep -> sp_gc_sweep_list
// STACKS-SAMPLES: >= 30
// STACKS-ANY: Object#root_of >= 30%
//
// CHECK: {{^}}<main>;Counter#tally;Object#checked_sqrt;Object#root_of{{(;[^ ]+)*}} {{[0-9]+$}}
// OUT: sum: {{[0-9]+}}
// OUT-NEXT: negatives: 150000
// SPROF: frame Counter#tally | sp_Counter_tally | user | {{.*}}spinel-cc.c | {{[0-9]+}}
#include <math.h>

#include "sp_runtime.h"

typedef struct sp_Counter {
  mrb_int iv_count;
} sp_Counter;

static inline void sp_Counter_initialize(sp_Counter *self) { self->iv_count = 0; }

static sp_Counter *sp_Counter_new(void) {
  sp_Counter *self = (sp_Counter *)sp_gc_alloc(sizeof(sp_Counter), NULL, NULL);
  sp_Counter_initialize(self);
  return self;
}

static inline void sp_Counter_bump_bang(sp_Counter *self) { self->iv_count += 1; }

// def root_of(x) = x < 0 ? raise(Math::DomainError, "negative") : Math.sqrt(x) * ...
static double sp_root_of(double lv_x) {
  if (lv_x < 0)
    sp_raise_cls("Math::DomainError", "negative");
  double lv_r = 0;
  for (int lv_i = 1; lv_i <= 400; lv_i++)
    lv_r += sqrt(lv_x + lv_i);
  return lv_r;
}

// begin root_of(x) rescue Math::DomainError; -1 end
static double sp_checked_sqrt(double lv_x) {
  volatile double _t1 = -1;
  sp_exc_roots[sp_exc_top] = sp_gc_nroots;
  if (setjmp(sp_exc_stack[sp_exc_top++]) == 0) {
    _t1 = sp_root_of(lv_x);
    sp_exc_top--;
  } else if (!sp_exc_is_a("Math::DomainError")) {
    sp_raise(sp_exc_current);
  }
  return _t1;
}

static double sp_Counter_tally(sp_Counter *self, mrb_int lv_n) {
  double lv_sum = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    double _t1 = sp_checked_sqrt(lv_i % 2 ? (double)lv_i : -(double)lv_i - 1);
    if (_t1 < 0)
      sp_Counter_bump_bang(self);
    else
      lv_sum += _t1;
  }
  return lv_sum;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 1000;
  SP_GC_SAVE();
  sp_Counter *lv_c = sp_Counter_new();
  SP_GC_ROOT(lv_c);
  printf("sum: %.0f\n", sp_Counter_tally(lv_c, lv_n));
  printf("negatives: %lld\n", (long long)lv_c->iv_count);
  return 0;
}
