// Allocation profiles at the default rate (one sample per 512 KiB on
// average): the objects and bytes per stack are unbiased estimates. Each
// site allocates a few hundred MB, so it gets Np = 760-1170 samples and
// the estimate's relative standard deviation sqrt((1-p)/(Np)) is 2.9-3.6%
// (p = 1 - exp(-size/524288)); the bound of 15% is more than 4 standard
// deviations (a failure by chance about once in 10^4 runs). A site of
// allocations as big as the rate (p = 0.63, each sample standing for 1.58
// objects: whole-number scaling would be 26% off) checks the scaling; its
// standard deviation is 1.7%.
//
// RUN: %clang_prof -O2 -I%examples %s %rtlib -o %t
// RUN: env SPINEL_PROFILE=%t.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_ALLOC=1 %t | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/alloc_stacks.py %t.alloc.sprof --tolerance 15 \
// RUN:   --expect '<main>;Object#blobs;alloc [malloc]=150000,614400000' \
// RUN:   --expect '<main>;Object#make_foos;Foo.new;alloc Foo=5000000,480000000' \
// RUN:   --expect '<main>;Object#strings;alloc String=400000,400000000' \
// RUN:   --expect '<main>;Object#big;alloc [malloc]=2000,1048576000' \
// RUN:   | FileCheck %s
// RUN: grep '"alloc_rate": 524288,' %t.alloc.sprof
//
// OUT: done
// CHECK: ok <main>;Object#blobs;alloc [malloc]:
// CHECK: ok <main>;Object#make_foos;Foo.new;alloc Foo:
// CHECK: ok <main>;Object#strings;alloc String:
// CHECK: ok <main>;Object#big;alloc [malloc]:
#include "sp_runtime.h"

typedef struct sp_Foo {
  struct sp_Foo *iv_next;
  mrb_int iv_v[11];
} sp_Foo;

static void sp_Foo_gc_scan(void *p) { sp_gc_mark(((sp_Foo *)p)->iv_next); }

static sp_Foo *sp_Foo_new(mrb_int lv_v) {
  sp_Foo *self = (sp_Foo *)sp_gc_alloc(sizeof(sp_Foo), NULL, sp_Foo_gc_scan);
  self->iv_v[0] = lv_v;
  return self;
}

static volatile mrb_int sink;

static void sp_make_foos(mrb_int lv_n) {
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    sink += sp_Foo_new(lv_i)->iv_v[0];
}

static void sp_blobs(mrb_int lv_n) {
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    char *lv_b = (char *)malloc(4096);
    lv_b[lv_i % 4096] = 1;
    sink += lv_b[lv_i % 4096];
    free(lv_b);
  }
}

static void sp_big(mrb_int lv_n) {
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    char *lv_b = (char *)malloc(524288);
    lv_b[lv_i] = 1;
    sink += lv_b[lv_i];
    free(lv_b);
  }
}

static void sp_strings(mrb_int lv_n) {
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    sink += sp_str_alloc_raw(1000)->len;
}

int main(void) {
  sp_make_foos(5000000);
  sp_blobs(150000);
  sp_strings(400000);
  sp_big(2000);
  printf("done\n");
  return 0;
}
