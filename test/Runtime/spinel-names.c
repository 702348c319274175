// Names: Spinel's C naming turned back into Ruby names, with the
// definition site. Nested modules, singleton methods (_cls_), operators,
// ?/!/= suffixes, new/initialize, a top-level method with underscores,
// and a runtime helper from the header (which keeps its C name). Every
// method is on the one stack that burns the time, so every frame is sampled.
// There are no #line directives: file and line are the .c definition site.
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// so samples land there, not where the program was; this test asserts
// where they land.)
//
// RUN: %clang_prof -O2 -I%examples %s %rtlib -o %t
// RUN: env SPINEL_PROFILE=%t.folded SPINEL_PROFILE_QUIET=1 %t 100000000 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file=%t.folded
// RUN: %python %inputs/spinel/sprof_frames.py %t.sprof | FileCheck %s --check-prefix=SPROF
//
// CHECK-DAG: {{^}}<main>;Outer::Mid::Inner.build;Outer::Mid::Inner.new;Outer::Mid::Inner#initialize;Outer::Mid::Inner#name=;Outer::Mid::Inner#normalize!;Outer::Mid::Inner#valid?;Geo::Vec#+;Geo::Vec#-;Geo::Vec#*;Geo::Vec#/;Geo::Vec#==;Geo::Vec#!=;Geo::Vec#<=>;Geo::Vec#<;Geo::Vec#<=;Geo::Vec#>;Geo::Vec#>=;Geo::Vec#<<;Geo::Vec#>>;Geo::Vec#[];Geo::Vec#[]=;Geo::Vec#to_s;Object#spin_wheel {{[0-9]+$}}
// CHECK-DAG: {{^}}<main>;Object#join_all;String#+{{(;[a-z_]+)*(;\[native\] [^ ]+)?}} {{[0-9]+$}}
// OUT: spun: 100000000
// OUT-NEXT: joined: 65536
//
// SPROF-DAG: frame <main> | main | user | {{.*}}spinel-names.c | {{[0-9]+}}
// SPROF-DAG: frame String#+ | sp_str_concat | runtime | {{.*}}sp_runtime.h | {{[1-9][0-9]*}}
#include "sp_runtime.h"

typedef struct sp_Geo_Vec {
  mrb_int iv_x;
  mrb_int iv_y;
} sp_Geo_Vec;

typedef struct sp_Outer_Mid_Inner {
  mrb_int iv_name;
  sp_Geo_Vec *iv_pos;
} sp_Outer_Mid_Inner;

// SPROF-DAG: frame Object#spin_wheel | sp_spin_wheel | user | {{.*}}spinel-names.c | [[@LINE+1]]
__attribute__((noinline)) static mrb_int sp_spin_wheel(mrb_int lv_n) {
  uint64_t lv_x = (uint64_t)lv_n;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_x = (lv_x ^ (lv_x >> 7)) * 0x9E3779B97F4A7C15ull + (uint64_t)lv_i;
  return (mrb_int)(lv_x >> 40);
}

// SPROF-DAG: frame Geo::Vec#to_s | sp_Geo_Vec_to_s | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec_to_s(sp_Geo_Vec *self, mrb_int lv_n) { return sp_spin_wheel(lv_n + self->iv_y); }
// SPROF-DAG: frame Geo::Vec#[]= | sp_Geo_Vec__aset | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__aset(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec_to_s(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#[] | sp_Geo_Vec__aref | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__aref(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__aset(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#>> | sp_Geo_Vec__rshift | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__rshift(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__aref(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#<< | sp_Geo_Vec__lshift | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__lshift(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__rshift(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#>= | sp_Geo_Vec__ge | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__ge(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__lshift(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#> | sp_Geo_Vec__gt | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__gt(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__ge(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#<= | sp_Geo_Vec__le | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__le(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__gt(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#< | sp_Geo_Vec__lt | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__lt(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__le(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#<=> | sp_Geo_Vec__cmp | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__cmp(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__lt(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#!= | sp_Geo_Vec__neq | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__neq(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__cmp(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#== | sp_Geo_Vec__eq_eq | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__eq_eq(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__neq(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#/ | sp_Geo_Vec__div | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__div(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__eq_eq(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#* | sp_Geo_Vec__mul | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__mul(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__div(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#- | sp_Geo_Vec__minus | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__minus(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__mul(self, lv_n + self->iv_x) + 1; }
// SPROF-DAG: frame Geo::Vec#+ | sp_Geo_Vec__plus | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Geo_Vec__plus(sp_Geo_Vec *self, mrb_int lv_n) { return sp_Geo_Vec__minus(self, lv_n + self->iv_x) + 1; }

// SPROF-DAG: frame Outer::Mid::Inner#valid? | sp_Outer_Mid_Inner_valid_p | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_bool sp_Outer_Mid_Inner_valid_p(sp_Outer_Mid_Inner *self) {
  return sp_Geo_Vec__plus(self->iv_pos, self->iv_name) != 0;
}

// SPROF-DAG: frame Outer::Mid::Inner#normalize! | sp_Outer_Mid_Inner_normalize_bang | user | {{.*}}spinel-names.c | [[@LINE+1]]
static void sp_Outer_Mid_Inner_normalize_bang(sp_Outer_Mid_Inner *self) {
  if (!sp_Outer_Mid_Inner_valid_p(self))
    self->iv_name = 0;
}

// SPROF-DAG: frame Outer::Mid::Inner#name= | sp_Outer_Mid_Inner_name_eq | user | {{.*}}spinel-names.c | [[@LINE+1]]
static mrb_int sp_Outer_Mid_Inner_name_eq(sp_Outer_Mid_Inner *self, mrb_int lv_v) {
  self->iv_name = lv_v;
  sp_Outer_Mid_Inner_normalize_bang(self);
  return lv_v;
}

// SPROF-DAG: frame Outer::Mid::Inner#initialize | sp_Outer_Mid_Inner_initialize | user | {{.*}}spinel-names.c | [[@LINE+1]]
static void sp_Outer_Mid_Inner_initialize(sp_Outer_Mid_Inner *self, sp_Geo_Vec *lv_pos, mrb_int lv_name) {
  self->iv_pos = lv_pos;
  sp_Outer_Mid_Inner_name_eq(self, lv_name);
}

static void sp_Outer_Mid_Inner_gc_scan(void *p) {
  sp_gc_mark(((sp_Outer_Mid_Inner *)p)->iv_pos);
}

// SPROF-DAG: frame Outer::Mid::Inner.new | sp_Outer_Mid_Inner_new | user | {{.*}}spinel-names.c | [[@LINE+1]]
static sp_Outer_Mid_Inner *sp_Outer_Mid_Inner_new(sp_Geo_Vec *lv_pos, mrb_int lv_name) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_pos);
  sp_Outer_Mid_Inner *self = (sp_Outer_Mid_Inner *)sp_gc_alloc(
      sizeof(sp_Outer_Mid_Inner), NULL, sp_Outer_Mid_Inner_gc_scan);
  sp_Outer_Mid_Inner_initialize(self, lv_pos, lv_name);
  return self;
}

static sp_Geo_Vec *sp_Geo_Vec_new(mrb_int lv_x, mrb_int lv_y) {
  sp_Geo_Vec *self = (sp_Geo_Vec *)sp_gc_alloc(sizeof(sp_Geo_Vec), NULL, NULL);
  self->iv_x = lv_x;
  self->iv_y = lv_y;
  return self;
}

// SPROF-DAG: frame Outer::Mid::Inner.build | sp_Outer_Mid_Inner_cls_build | user | {{.*}}spinel-names.c | [[@LINE+1]]
static sp_Outer_Mid_Inner *sp_Outer_Mid_Inner_cls_build(mrb_int lv_n) {
  return sp_Outer_Mid_Inner_new(sp_Geo_Vec_new(1, 2), lv_n);
}

// SPROF-DAG: frame Object#join_all | sp_join_all | user | {{.*}}spinel-names.c | [[@LINE+1]]
static sp_String *sp_join_all(mrb_int lv_times) {
  SP_GC_SAVE();
  sp_String *lv_s = sp_str_alloc("");
  SP_GC_ROOT(lv_s);
  sp_String *lv_piece = sp_str_alloc_raw(1 << 16);
  memset(lv_piece->ptr, 'x', 1 << 16);
  SP_GC_ROOT(lv_piece);
  for (mrb_int lv_i = 0; lv_i < lv_times; lv_i++)
    lv_s = sp_str_concat(lv_piece, sp_str_alloc(""));
  return lv_s;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 1000;
  sp_Outer_Mid_Inner *lv_o = sp_Outer_Mid_Inner_cls_build(lv_n);
  printf("spun: %lld\n", (long long)lv_o->iv_name);
  printf("joined: %lld\n", (long long)sp_join_all(lv_n / 5000)->len);
  return 0;
}
