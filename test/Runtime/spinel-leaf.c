// Hot leaf: a tiny method with no calls, run in a loop by its caller. Its
// push and pop store to the same shadow-stack depth with nothing between
// that reads it, so unless the stores are volatile/atomic, dead-store
// elimination deletes the push at -O2 and the leaf, which burns the time,
// vanishes from every sample. It must be the top frame of most samples.
//
// UNSUPPORTED: sanitized
// (Asserts time shares of code whose cost the sanitizers change
// unevenly; that is not a property of the profiler.)
//
// RUN: %clang_prof -O2 -I%examples %s %rtlib -o %t.o2
// RUN: env SPINEL_PROFILE=%t.o2.folded SPINEL_PROFILE_QUIET=1 %t.o2 40000000 | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t.o2.folded --rules %s
// RUN: FileCheck %s --input-file=%t.o2.folded
//
// RUN: %clang_prof -O0 -I%examples %s %rtlib -o %t.o0
// RUN: env SPINEL_PROFILE=%t.o0.folded SPINEL_PROFILE_QUIET=1 %t.o0 40000000 | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t.o0.folded --rules %s
//
// STACKS-ROOT: <main>
// STACKS: <main> -> Mixer#run, Mixer.new
// STACKS: Mixer#run -> Mixer#step
// STACKS: Mixer.new -> sp_gc_alloc
// STACKS: sp_gc_* -> sp_gc_*
// STACKS-SAMPLES: >= 50
// A deleted push gives 0%. Normally the leaf has 50-90% (-O0 less than
// -O2), but on a loaded machine -O0 has been seen at 30%: the bound only
// has to tell the two apart.
// STACKS-LEAF: Mixer#step >= 15%
// STACKS-PATH: <main>;Mixer#run;Mixer#step >= 15%
//
// CHECK: {{^}}<main>;Mixer#run;Mixer#step {{[0-9]+$}}
// OUT: mixed: {{[0-9]+}}
#include "sp_runtime.h"

typedef struct sp_Mixer {
  mrb_int iv_salt;
} sp_Mixer;

static sp_Mixer *sp_Mixer_new(mrb_int lv_salt) {
  sp_Mixer *self = (sp_Mixer *)sp_gc_alloc(sizeof(sp_Mixer), NULL, NULL);
  self->iv_salt = lv_salt;
  return self;
}

// The leaf: no calls, a few dozen instructions.
__attribute__((noinline)) static mrb_int sp_Mixer_step(sp_Mixer *self, mrb_int lv_x) {
  uint64_t lv_h = (uint64_t)lv_x ^ (uint64_t)self->iv_salt;
  for (int lv_i = 0; lv_i < 4; lv_i++) {
    lv_h ^= lv_h >> 29;
    lv_h *= 0xBF58476D1CE4E5B9ull;
  }
  return (mrb_int)(lv_h ^ (lv_h >> 32));
}

static mrb_int sp_Mixer_run(sp_Mixer *self, mrb_int lv_n) {
  mrb_int lv_acc = 1;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_acc = sp_Mixer_step(self, lv_acc + lv_i);
  return lv_acc;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 1000;
  sp_Mixer *lv_m = sp_Mixer_new(7);
  printf("mixed: %llu\n", (unsigned long long)sp_Mixer_run(lv_m, lv_n));
  return 0;
}
