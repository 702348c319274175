// The default frame policy on the miniature Spinel runtime header
// (examples/sp_runtime.h) at -O2, as `spinel-prof cc` compiles: the
// program's methods all keep a frame, down to a one-line `static inline`
// accessor; GC entry points and the runtime helpers that do real work keep
// theirs; tiny helpers (`static inline`, or small leaves) do not.
//
// UNSUPPORTED: sanitized
// (The frame policy judges IR: sanitizer checks add calls to small
// leaves, which then keep their frames.)
//
// RUN: %clang_prof -O2 -I%examples -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=KEEP --input-file=%t.ll
// RUN: FileCheck %s --check-prefix=DROP --input-file=%t.ll
// With every frame, the tiny helpers are back.
// RUN: env SPINEL_PROFILE_FRAMES=all %clang_prof -O2 -I%examples -S -emit-llvm %s -o %t.all.ll
// RUN: FileCheck %s --check-prefix=ALL --input-file=%t.all.ll
// RUN: %spinel-prof cc --all-frames -O2 -I%examples -S -emit-llvm %s -o %t.cc.ll
// RUN: FileCheck %s --check-prefix=ALL --input-file=%t.cc.ll
//
// KEEP-DAG: @__spinelprof_desc.main =
// KEEP-DAG: @__spinelprof_desc.sp_Box_value =
// KEEP-DAG: @__spinelprof_desc.sp_Box_new =
// KEEP-DAG: @__spinelprof_desc.sp_Box_gc_scan =
// KEEP-DAG: @__spinelprof_desc.sp_fill =
// KEEP-DAG: @__spinelprof_desc.sp_gc_alloc =
// KEEP-DAG: @__spinelprof_desc.sp_gc_collect =
// KEEP-DAG: @__spinelprof_desc.sp_gc_mark =
// KEEP-DAG: @__spinelprof_desc.sp_gc_sweep =
// KEEP-DAG: @__spinelprof_desc.sp_str_sweep =
// KEEP-DAG: @__spinelprof_desc.sp_str_concat =
// KEEP-DAG: @__spinelprof_desc.sp_str_alloc =
// KEEP-DAG: @__spinelprof_desc.sp_raise_cls =
// KEEP-DAG: @__spinelprof_desc.sp_raise =
// DROP-NOT: @__spinelprof_desc.sp_gc_root_restore =
// DROP-NOT: @__spinelprof_desc.sp_gc_hdr_of =
// DROP-NOT: @__spinelprof_desc.sp_gc_slot =
// DROP-NOT: @__spinelprof_desc.sp_PolyArray_get =
// DROP-NOT: @__spinelprof_desc.sp_str_eq =
// DROP-NOT: @__spinelprof_desc.sp_exc_is_a =
// DROP-NOT: @__spinelprof_desc.sp_puts_int =
// ALL-DAG: @__spinelprof_desc.sp_gc_root_restore =
// ALL-DAG: @__spinelprof_desc.sp_PolyArray_get =
// ALL-DAG: @__spinelprof_desc.sp_str_eq =
// ALL-DAG: @__spinelprof_desc.sp_exc_is_a =
#include "sp_runtime.h"

typedef struct sp_Box {
  sp_String *iv_label;
  mrb_int iv_value;
} sp_Box;

static void sp_Box_gc_scan(void *p) { sp_gc_mark(((sp_Box *)p)->iv_label); }

static inline mrb_int sp_Box_value(sp_Box *self) { return self->iv_value; }

static sp_Box *sp_Box_new(mrb_int lv_v) {
  sp_Box *self = (sp_Box *)sp_gc_alloc(sizeof(sp_Box), NULL, sp_Box_gc_scan);
  self->iv_value = lv_v;
  return self;
}

static mrb_int sp_fill(sp_PolyArray *lv_a, mrb_int lv_n) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_a);
  mrb_int lv_sum = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_Box *lv_b = sp_Box_new(lv_i);
    sp_PolyArray_push(lv_a, (sp_Poly){1, lv_b});
    lv_sum += sp_Box_value((sp_Box *)sp_PolyArray_get(lv_a, lv_i).p);
  }
  return lv_sum;
}

int main(int argc, char **argv) {
  SP_GC_SAVE();
  sp_PolyArray *lv_a = sp_PolyArray_new();
  SP_GC_ROOT(lv_a);
  mrb_int lv_s = sp_fill(lv_a, argc * 1000);
  sp_String *lv_t = sp_str_concat(sp_int_to_s(lv_s), sp_str_alloc("!"));
  if (sp_str_eq(lv_t, lv_t) && argc > 5)
    sp_raise_cls("ArgumentError", "too many");
  if (sp_exc_is_a("ArgumentError"))
    return 1;
  sp_puts_int(lv_s);
  sp_gc_collect();
  return 0;
}
