// PC-named leaves: the default policy gives a small loop-free leaf of the
// program's own no push, only its descriptor (flag SPINELPROF_FLAG_PC_NAMED),
// and the runtime names a sample whose program counter is in the leaf's
// function by that descriptor. So:
// - Mixer#mix, hot and `noinline`, is the leaf of its samples, with its Ruby
//   name and kind user, under its caller Mixer#run, at -O2 and -O0;
// - proc 1 (a block called through a pointer) the same, with kind block;
// - Mixer#twist, hot and `static inline`, is inlined into Mixer#spin at
//   -O2, so its time is Mixer#spin's self time there (it never shows); at
//   -O0 nothing is inlined and it is Mixer#spin's leaf;
// - a clone suffix on the symbol (`.constprop.0`, as an optimizer renames a
//   specialised copy) still matches the descriptor's C name;
// - the report and the flamegraph show the names too;
// - stripped, the leaves lose their names, and nothing else changes.
// A broken lookup would put the leaves' samples on their callers
// (Mixer#run, Object#apply), or show "[native] sp_Mixer_mix".
//
// UNSUPPORTED: sanitized
// (Asserts what -O2 inlines and time shares; the sanitizers change both:
// under ASan+UBSan Mixer#twist was seen not inlined, with 28% of the
// samples, and under TSan a signal waits for TSan's next interceptor or
// runtime call. The policy itself is checked on sanitized builds by
// Instrumentation/policy-pc-named-leaf.ll.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O2 -I%examples %s %rtlib -o %t/app-O2
// RUN: env SPINEL_PROFILE=%t/o2.folded SPINEL_PROFILE_QUIET=1 %t/app-O2 | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/o2.folded --rules %s --prefix STACKS --prefix O2
// RUN: %python %inputs/spinel/sprof_frames.py %t/o2.sprof | FileCheck %s --check-prefix=SPROF
// RUN: %spinel-prof report %t/o2.sprof --top 0 | FileCheck %s --check-prefix=REPORT
// RUN: %spinel-prof flamegraph %t/o2.sprof -o %t/o2.html
// RUN: grep -c 'Mixer#mix' %t/o2.html
//
// RUN: %clang_prof -O0 -I%examples %s %rtlib -o %t/app-O0
// RUN: env SPINEL_PROFILE=%t/o0.folded SPINEL_PROFILE_QUIET=1 %t/app-O0 | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/o0.folded --rules %s --prefix STACKS --prefix O0
//
// The symbol renamed with a clone suffix, after compiling:
// RUN: %clang_prof -O2 -I%examples -c %s -o %t/app.o
// RUN: llvm-objcopy --redefine-sym sp_Mixer_mix=sp_Mixer_mix.constprop.0 %t/app.o
// RUN: %clang %t/app.o %rtlib -lm -o %t/app-clone
// RUN: llvm-nm %t/app-clone | FileCheck %s --check-prefix=NM
// RUN: env SPINEL_PROFILE=%t/clone.folded SPINEL_PROFILE_QUIET=1 %t/app-clone | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/clone.folded --rules %s
//
// A stripped executable: no symbols for its static functions, so the leaves
// lose their names (their time goes to their callers), and no sample in the
// program's own code is named "[native] app-stripped".
// RUN: llvm-strip -o %t/app-stripped %t/app-O2
// RUN: env SPINEL_PROFILE=%t/stripped.folded SPINEL_PROFILE_QUIET=1 %t/app-stripped | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/stripped.folded --rules %s --prefix STRIPPED
// STRIPPED-SAMPLES: >= 50
// STRIPPED-PATH: <main>;Mixer#run >= 12%
// STRIPPED-NEVER: Mixer#mix
// STRIPPED-NEVER: [native] app-stripped
//
// Normally Mixer#mix has 20-30% of the samples, proc 1 10-20%, Mixer#spin
// (with Mixer#twist) the rest; the bounds only have to tell that apart from
// 0% on a loaded machine.
// STACKS-SAMPLES: >= 50
// STACKS-ROOT: <main>
// STACKS: <main> -> Mixer#run, Object#apply, Mixer#spin, cpu_ns
// STACKS: Mixer#run -> Mixer#mix
// STACKS: Object#apply -> proc 1
// STACKS: Mixer#spin -> Mixer#twist
// STACKS-PATH: <main>;Mixer#run;Mixer#mix >= 12%
// STACKS-PATH: <main>;Object#apply;proc 1 >= 4%
// STACKS-NEVER: [native] sp_Mixer_mix
// O2-PATH: <main>;Mixer#spin >= 12%
// O2-NEVER: Mixer#twist
// O0-PATH: <main>;Mixer#spin;Mixer#twist >= 12%
//
// OUT: mixed: {{[0-9]+}}
// SPROF: frame proc 1 | _sp_proc_fn_1 | block | {{.*}}plugin-pc-named-leaf.c | {{[1-9][0-9]*}}
// SPROF: frame Mixer#mix | sp_Mixer_mix | user | {{.*}}plugin-pc-named-leaf.c | {{[1-9][0-9]*}}
// REPORT: Mixer#mix
// NM: sp_Mixer_mix.constprop.0
#include "sp_runtime.h"

#include <time.h>

typedef struct sp_Mixer {
  mrb_int iv_salt;
} sp_Mixer;

// Hot, not inlined, no loop, no calls: PC-named.
__attribute__((noinline)) static mrb_int sp_Mixer_mix(sp_Mixer *self,
                                                      mrb_int lv_x) {
  uint64_t lv_h = (uint64_t)lv_x ^ (uint64_t)self->iv_salt;
  lv_h ^= lv_h >> 29;
  lv_h *= 0xBF58476D1CE4E5B9ull;
  lv_h ^= lv_h >> 32;
  return (mrb_int)lv_h;
}

// Hot and inlined at -O2 (Spinel's `static inline` one-liner).
static inline mrb_int sp_Mixer_twist(sp_Mixer *self, mrb_int lv_x) {
  return (mrb_int)(((uint64_t)lv_x * 0x9E3779B97F4A7C15ull) ^
                   ((uint64_t)lv_x >> 17) ^ (uint64_t)self->iv_salt);
}

// A block body, called through a pointer.
__attribute__((noinline)) static mrb_int _sp_proc_fn_1(mrb_int lv_x) {
  uint64_t lv_h = (uint64_t)lv_x * 0x94D049BB133111EBull;
  return (mrb_int)(lv_h ^ (lv_h >> 31));
}

static mrb_int (*volatile sp_block)(mrb_int) = _sp_proc_fn_1;

static mrb_int sp_Mixer_run(sp_Mixer *self, mrb_int lv_n) {
  mrb_int lv_acc = 1;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_acc = sp_Mixer_mix(self, lv_acc + lv_i);
  return lv_acc;
}

static mrb_int sp_Mixer_spin(sp_Mixer *self, mrb_int lv_n) {
  mrb_int lv_acc = 1;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_acc = sp_Mixer_twist(self, lv_acc + lv_i);
  return lv_acc;
}

static mrb_int sp_apply(mrb_int lv_n) {
  mrb_int lv_acc = 1;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_acc = sp_block(lv_acc + lv_i);
  return lv_acc;
}

static uint64_t cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(void) {
  sp_Mixer lv_m = {7};
  mrb_int lv_acc = 0;
  // About 0.9 s of CPU whatever the optimisation level, in three parts
  // (~900 samples: the shares checked above scatter by ~1.5 pp).
  uint64_t lv_end = cpu_ns() + 900000000u;
  while (cpu_ns() < lv_end) {
    lv_acc ^= sp_Mixer_run(&lv_m, 400000);
    lv_acc ^= sp_apply(500000);
    lv_acc ^= sp_Mixer_spin(&lv_m, 800000);
  }
  printf("mixed: %llu\n", (unsigned long long)(lv_acc & 0xff));
  return 0;
}
