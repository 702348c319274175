// GC exactness: an allocation-heavy program (binary trees) whose collector
// runs from the allocator. The GC's own functions (sp_gc_*, the per-class
// *_gc_scan mark callbacks, sp_str_sweep) must be kind "gc" in the profile
// and appear only under the method that allocated (Node.new, from
// Object#make_tree), never on their own or under the tree walk. The
// per-object callbacks (the scanners, sp_gc_mark) have no push: they are
// named by the PC, as leaves under the marking frame. Under UBSan
// sp_gc_hdr_of calls out and keeps a push, so they keep theirs, nested.
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// so samples land there, not where the program was; this test asserts
// where they land.)
//
// RUN: %clang_prof -O2 -I%examples %s %rtlib -o %t
// RUN: env SPINEL_PROFILE=%t.folded SPINEL_PROFILE_QUIET=1 %t 1500 > %t.out
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: %python %inputs/check_stacks.py %t.folded --rules %s
// RUN: FileCheck %s --input-file=%t.folded
// RUN: %python %inputs/spinel/sprof_frames.py %t.sprof --expect-kind 'sp_gc_*=gc' \
// RUN:   --expect-kind '*_gc_scan=gc' --expect-kind 'sp_make_tree=user' \
// RUN:   --expect-kind 'sp_Node_new=user' --expect-kind 'main=user' \
// RUN:   | FileCheck %s --check-prefix=KINDS
//
// STACKS-ROOT: <main>
// STACKS: <main> -> Object#make_tree, Node#check, Object#stretch
// STACKS: Object#stretch -> Object#make_tree, Node#check
// STACKS: Object#make_tree -> Object#make_tree, Node.new
// STACKS: Node.new -> sp_gc_alloc, Node#initialize
// STACKS: Node#check -> Node#check
// STACKS: * -> sp_gc_root_restore
// STACKS: sp_gc_alloc -> sp_gc_collect, sp_gc_alloc_nogc
// STACKS: sp_gc_alloc_nogc -> sp_gc_add_page
// STACKS: sp_gc_add_page -> sp_gc_xmalloc, sp_gc_slot
// STACKS: sp_gc_collect -> sp_gc_mark_all, sp_gc_sweep, sp_str_sweep
// STACKS: sp_gc_mark_all -> sp_gc_mark, *gc_scan, sp_gc_hdr_of
// STACKS: sp_gc_mark -> sp_gc_hdr_of, *gc_scan
// STACKS: *gc_scan -> sp_gc_mark
// STACKS: sp_gc_sweep -> sp_gc_slot, sp_gc_sweep_list
// STACKS: sp_str_sweep -> sp_gc_sweep_list
// STACKS-SAMPLES: >= 50
// STACKS-ANY: sp_gc_collect >= 10%
// STACKS-ANY: Node#check >= 3%
//
// The collector runs under the allocating method, marking the long-lived
// tree through the class's scan callback (named by the PC: the leaf), and
// sweeping (a [native] leaf, e.g. libc's free under the sweep, may end
// that stack).
// CHECK-DAG: {{^}}<main>;Object#make_tree;{{(Object#make_tree;)*}}Node.new;sp_gc_alloc;sp_gc_collect;sp_gc_mark_all;{{((sp_gc_mark|Node#gc_scan|sp_Node_gc_scan);)*(Node#gc_scan|sp_Node_gc_scan|sp_gc_mark|sp_gc_hdr_of)}} {{[0-9]+$}}
// CHECK-DAG: {{^}}<main>;Object#make_tree;{{(Object#make_tree;)*}}Node.new;sp_gc_alloc;sp_gc_collect;sp_gc_sweep{{(;[^;]+)*}} {{[0-9]+$}}
//
// KINDS-DAG: frame <main> | main | user | {{.*}}spinel-gc.c | {{[0-9]+}}
// KINDS-DAG: frame Node.new | sp_Node_new | user | {{.*}}spinel-gc.c | {{[0-9]+}}
// KINDS-DAG: frame {{(Node#gc_scan|sp_Node_gc_scan)}} | sp_Node_gc_scan | gc | {{.*}}spinel-gc.c | {{[0-9]+}}
// KINDS-DAG: frame Object#make_tree | sp_make_tree | user | {{.*}}spinel-gc.c | {{[0-9]+}}
// KINDS-DAG: frame sp_gc_collect | sp_gc_collect | gc | {{.*}}sp_runtime.h | {{[0-9]+}}
// KINDS-DAG: frame sp_gc_mark_all | sp_gc_mark_all | gc | {{.*}}sp_runtime.h | {{[0-9]+}}
// KINDS-DAG: frame sp_gc_sweep | sp_gc_sweep | gc | {{.*}}sp_runtime.h | {{[0-9]+}}
// Every sample but those of main's own prologue has a user frame: under
// ASan main's prologue calls __asan_stack_malloc_0 before its push, and an
// instant there reads `[unknown];[native] __asan_stack_malloc_0` (1 of
// ~1 200 samples in 2 of 22 loaded runs), the program's time with no frame.
// A GC frame sampled without the method that allocated would be many.
// KINDS: kind gc {{[1-9][0-9]?\.[0-9]}}%
// KINDS: kind user {{100\.0|99\.[5-9]}}%
//
// OUT: stretch tree of depth 15 check: 65535
// OUT-NEXT: 1500 trees of depth 12 check: 12286500
// OUT-NEXT: long lived tree of depth 13 check: 16383
#include "sp_runtime.h"

typedef struct sp_Node {
  struct sp_Node *iv_left;
  struct sp_Node *iv_right;
} sp_Node;

static void sp_Node_gc_scan(void *p) {
  sp_Node *self = (sp_Node *)p;
  sp_gc_mark(self->iv_left);
  sp_gc_mark(self->iv_right);
}

static inline void sp_Node_initialize(sp_Node *self, sp_Node *lv_left, sp_Node *lv_right) {
  self->iv_left = lv_left;
  self->iv_right = lv_right;
}

static sp_Node *sp_Node_new(sp_Node *lv_left, sp_Node *lv_right) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_left);
  SP_GC_ROOT(lv_right);
  sp_Node *self = (sp_Node *)sp_gc_alloc(sizeof(sp_Node), NULL, sp_Node_gc_scan);
  sp_Node_initialize(self, lv_left, lv_right);
  return self;
}

static mrb_int sp_Node_check(sp_Node *self) {
  if (!self->iv_left)
    return 1;
  return 1 + sp_Node_check(self->iv_left) + sp_Node_check(self->iv_right);
}

static sp_Node *sp_make_tree(mrb_int lv_depth) {
  if (lv_depth == 0)
    return sp_Node_new(NULL, NULL);
  SP_GC_SAVE();
  sp_Node *_t1 = sp_make_tree(lv_depth - 1);
  SP_GC_ROOT(_t1);
  sp_Node *_t2 = sp_make_tree(lv_depth - 1);
  SP_GC_ROOT(_t2);
  return sp_Node_new(_t1, _t2);
}

static mrb_int sp_stretch(mrb_int lv_depth) {
  return sp_Node_check(sp_make_tree(lv_depth));
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 10;
  SP_GC_SAVE();
  printf("stretch tree of depth 15 check: %lld\n", (long long)sp_stretch(15));
  sp_Node *lv_long_lived = sp_make_tree(13);
  SP_GC_ROOT(lv_long_lived);
  mrb_int lv_check = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_Node *lv_t = sp_make_tree(12);
    lv_check += sp_Node_check(lv_t);
  }
  printf("%lld trees of depth 12 check: %lld\n", (long long)lv_n, (long long)lv_check);
  printf("long lived tree of depth 13 check: %lld\n", (long long)sp_Node_check(lv_long_lived));
  return 0;
}
