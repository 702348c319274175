// Allocation profiles with SPINEL_PROFILE_ALLOC_RATE=1: every allocation is
// recorded, so the objects and bytes per stack and type are exact. The
// allocating method is the frame under each "alloc TYPE" leaf, under its
// real callers. Types: from the constructor (Foo.new, also with no scan
// callback: Baz), from the GC scan callback passed to sp_gc_alloc outside a
// constructor (Pair), String for string allocators, [object] for a GC
// object of neither; malloc/calloc/realloc as themselves. Only the
// outermost allocation counts: sp_gc_alloc's and sp_str_alloc_raw's own
// mallocs (sp_gc_xmalloc) never appear.
//
// RUN: %clang_prof -O2 -I%examples %s %rtlib -o %t
// RUN: rm -f %t.alloc.folded %t.alloc.sprof
// RUN: env SPINEL_PROFILE=%t.folded SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_ALLOC_RATE=1 %t 2> %t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t.err
// RUN: %python %inputs/alloc_stacks.py %t.alloc.sprof | FileCheck %s
// Also at -O0 (nothing inlined) the same stacks and counts.
// RUN: %clang_prof -O0 -I%examples %s %rtlib -o %t.O0
// RUN: env SPINEL_PROFILE=%t.O0.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_ALLOC_RATE=1 %t.O0
// RUN: %python %inputs/alloc_stacks.py %t.O0.alloc.sprof | FileCheck %s
//
// OUT: done 1200
// ERR: ; about 3063 allocations, {{[0-9]+}} bytes, wrote {{.*}}alloc-exact.c.tmp.alloc.folded
//
// Sorted by stack text.
// CHECK: {{^}}<main>;Object#buffers;alloc [calloc] objects=100 bytes=10000{{$}}
// CHECK-NEXT: {{^}}<main>;Object#buffers;alloc [malloc] objects=100 bytes=6400{{$}}
// CHECK-NEXT: {{^}}<main>;Object#fill;Array#push;alloc [realloc] objects=3 bytes=896{{$}}
// CHECK-NEXT: {{^}}<main>;Object#fill;Array.new;alloc Array objects=1 bytes=24{{$}}
// CHECK-NEXT: {{^}}<main>;Object#greet;String#+;alloc String objects=300 bytes=6000{{$}}
// CHECK-NEXT: {{^}}<main>;Object#greet;alloc String objects=300 bytes=3000{{$}}
// CHECK-NEXT: {{^}}<main>;Object#make_bazs;Baz.new;alloc Baz objects=200 bytes=1600{{$}}
// CHECK-NEXT: {{^}}<main>;Object#make_pairs;alloc Pair objects=400 bytes=6400{{$}}
// CHECK-NEXT: {{^}}<main>;Object#run;Object#make_foos;Foo.new;alloc Foo objects=1500 bytes=24000{{$}}
// CHECK-NEXT: {{^}}<main>;Object#run;Object#make_tuples;alloc [object] objects=159 bytes=1272{{$}}
// CHECK-NEXT: total objects=3063 bytes=59592
#include "sp_runtime.h"

typedef struct sp_Foo {
  struct sp_Foo *iv_next;
  mrb_int iv_n;
} sp_Foo;

static void sp_Foo_gc_scan(void *p) { sp_gc_mark(((sp_Foo *)p)->iv_next); }

static sp_Foo *sp_Foo_new(sp_Foo *lv_next, mrb_int lv_n) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_next);
  sp_Foo *self = (sp_Foo *)sp_gc_alloc(sizeof(sp_Foo), NULL, sp_Foo_gc_scan);
  self->iv_next = lv_next;
  self->iv_n = lv_n;
  return self;
}

/* A class without pointer fields passes no scan callback. */
typedef struct sp_Baz {
  mrb_int iv_v;
} sp_Baz;

static sp_Baz *sp_Baz_new(mrb_int lv_v) {
  sp_Baz *self = (sp_Baz *)sp_gc_alloc(sizeof(sp_Baz), NULL, NULL);
  self->iv_v = lv_v;
  return self;
}

/* Allocated inline (as Spinel does for tuples): named by its scan. */
typedef struct sp_Pair {
  void *iv_a, *iv_b;
} sp_Pair;

static void sp_Pair_gc_scan(void *p) {
  sp_gc_mark(((sp_Pair *)p)->iv_a);
  sp_gc_mark(((sp_Pair *)p)->iv_b);
}

static volatile mrb_int sink;

static mrb_int sp_make_foos(mrb_int lv_n) {
  SP_GC_SAVE();
  sp_Foo *lv_head = NULL;
  SP_GC_ROOT(lv_head);
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_head = sp_Foo_new(lv_head, lv_i);
  return lv_head ? lv_head->iv_n : 0;
}

/* A closure cell, Spinel style: no constructor, no scan. */
static mrb_int sp_make_tuples(mrb_int lv_n) {
  mrb_int lv_sum = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    mrb_int *cell = (mrb_int *)sp_gc_alloc(sizeof(mrb_int), NULL, NULL);
    *cell = lv_i;
    lv_sum += *cell;
  }
  return lv_sum;
}

static mrb_int sp_run(void) {
  mrb_int lv_r = sp_make_foos(1000) + sp_make_tuples(150);
  return lv_r + sp_make_foos(500) + sp_make_tuples(9);
}

static mrb_int sp_make_bazs(mrb_int lv_n) {
  mrb_int lv_s = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_s += sp_Baz_new(lv_i)->iv_v;
  return lv_s;
}

static mrb_int sp_make_pairs(mrb_int lv_n) {
  mrb_int lv_s = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_Pair *_t1 = (sp_Pair *)sp_gc_alloc(sizeof(sp_Pair), NULL, sp_Pair_gc_scan);
    lv_s += _t1->iv_a == NULL;
  }
  return lv_s;
}

static mrb_int sp_greet(mrb_int lv_n) {
  SP_GC_SAVE();
  mrb_int lv_len = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_String *_t1 = sp_str_alloc_raw(10);
    SP_GC_ROOT(_t1);
    sp_String *_t2 = sp_str_concat(_t1, _t1);
    lv_len += _t2->len;
    sp_gc_nroots--;
  }
  return lv_len;
}

static mrb_int sp_buffers(mrb_int lv_n) {
  mrb_int lv_s = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    char *lv_b = (char *)malloc(64);
    int *lv_c = (int *)calloc(25, 4 + (size_t)(lv_i >= 0) * 0);
    lv_b[0] = (char)lv_i;
    lv_s += lv_b[0] + lv_c[0];
    free(lv_b);
    free(lv_c);
  }
  return lv_s;
}

static mrb_int sp_fill(mrb_int lv_n) {
  SP_GC_SAVE();
  sp_PolyArray *lv_a = sp_PolyArray_new();
  SP_GC_ROOT(lv_a);
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_Poly v = {0, NULL};
    sp_PolyArray_push(lv_a, v);
  }
  return lv_a->len;
}

int main(int argc, char **argv) {
  sink = sp_run() + sp_make_bazs(200) + sp_make_pairs(400) + sp_greet(300) +
         sp_buffers(100) + sp_fill(20);
  printf("done %d\n", 1200);
  return 0;
}
