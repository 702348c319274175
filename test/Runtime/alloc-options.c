// Allocation profiling is off by default: no .alloc files, the same output,
// and the summary line says nothing of allocations. SPINEL_PROFILE_ALLOC=0
// is off too; SPINEL_PROFILE=0 turns everything off, allocation sampling
// included, silently. A bad rate gets one line and the default. The
// allocation profile's path follows the CPU profile's: a.folded ->
// a.alloc.folded and a.alloc.sprof; a path without .folded gets
// .alloc.folded appended.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O2 -I%examples %s %rtlib -o %t/app
// RUN: %t/app > %t/plain.out
// RUN: env SPINEL_PROFILE=%t/a.folded %t/app > %t/a.out 2> %t/a.err
// RUN: diff %t/plain.out %t/a.out
// RUN: FileCheck %s --check-prefix=OFF --input-file=%t/a.err
// RUN: test -f %t/a.folded && test ! -e %t/a.alloc.folded && test ! -e %t/a.alloc.sprof
// RUN: env SPINEL_PROFILE=%t/b.folded SPINEL_PROFILE_ALLOC=0 %t/app > %t/b.out
// RUN: test -f %t/b.folded && test ! -e %t/b.alloc.folded
// RUN: env SPINEL_PROFILE=0 SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_ALLOC_RATE=1 %t/app > %t/c.out 2> %t/c.err
// RUN: diff %t/plain.out %t/c.out
// RUN: count 0 < %t/c.err
// RUN: ls %t | FileCheck %s --check-prefix=LS --implicit-check-not=alloc
// On: the same output, both profiles.
// RUN: env SPINEL_PROFILE=%t/d.folded SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_ALLOC_RATE=1 %t/app > %t/d.out 2> %t/d.err
// RUN: diff %t/plain.out %t/d.out
// RUN: FileCheck %s --check-prefix=ON --input-file=%t/d.err
// RUN: %python %inputs/alloc_stacks.py %t/d.alloc.sprof | FileCheck %s --check-prefix=STACKS
// RUN: env SPINEL_PROFILE=%t/e SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_ALLOC=1 %t/app > /dev/null
// RUN: test -f %t/e.alloc.folded && test -f %t/e.alloc.sprof
// A bad rate.
// RUN: env SPINEL_PROFILE=%t/f.folded SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_ALLOC_RATE=0 %t/app 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD
// RUN: grep '"alloc_rate": 524288,' %t/f.alloc.sprof
//
// OFF-NOT: alloc
// OFF: spinelprof: {{[0-9]+}} samples {{.*}} wrote {{.*}}a.folded{{$}}
// LS: a.folded
// LS: b.folded
// ON: spinelprof: {{.*}} wrote {{.*}}d.folded; about 1000 allocations, 32000 bytes, wrote {{.*}}d.alloc.folded{{$}}
// STACKS: <main>;Object#build;Foo.new;alloc Foo objects=1000 bytes=32000
// BAD: spinelprof: SPINEL_PROFILE_ALLOC_RATE='0' is not a number from 1 to 1073741824; using 524288
#include "sp_runtime.h"

typedef struct sp_Foo {
  struct sp_Foo *iv_next;
  mrb_int iv_a, iv_b, iv_c;
} sp_Foo;

static void sp_Foo_gc_scan(void *p) { sp_gc_mark(((sp_Foo *)p)->iv_next); }

static sp_Foo *sp_Foo_new(sp_Foo *lv_next) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_next);
  sp_Foo *self = (sp_Foo *)sp_gc_alloc(sizeof(sp_Foo), NULL, sp_Foo_gc_scan);
  self->iv_next = lv_next;
  return self;
}

static mrb_int sp_build(mrb_int lv_n) {
  SP_GC_SAVE();
  sp_Foo *lv_head = NULL;
  SP_GC_ROOT(lv_head);
  mrb_int lv_len = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_head = sp_Foo_new(lv_head);
  for (sp_Foo *p = lv_head; p; p = p->iv_next)
    lv_len++;
  return lv_len;
}

int main(void) {
  printf("length %lld\n", (long long)sp_build(1000));
  return 0;
}
