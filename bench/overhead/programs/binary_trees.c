/* binary_trees.rb: allocate and check complete binary trees of GC'd
 * nodes (class TreeNode with @left, @right), depth 4..N. Spinel-shaped C:
 * sp_TreeNode_new allocates through sp_gc_alloc, with a gc_scan callback. */
#include "sp_bench_rt.h"

typedef struct sp_TreeNode {
  struct sp_TreeNode *iv_left;
  struct sp_TreeNode *iv_right;
} sp_TreeNode;

static void sp_TreeNode_gc_scan(void *p) {
  sp_TreeNode *self = (sp_TreeNode *)p;
  sp_gc_mark(self->iv_left);
  sp_gc_mark(self->iv_right);
}

static inline void sp_TreeNode_initialize(sp_TreeNode *self, sp_TreeNode *lv_l,
                                          sp_TreeNode *lv_r) {
  self->iv_left = lv_l;
  self->iv_right = lv_r;
}

static sp_TreeNode *sp_TreeNode_new(sp_TreeNode *lv_l, sp_TreeNode *lv_r) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_l);
  SP_GC_ROOT(lv_r);
  sp_TreeNode *self = (sp_TreeNode *)sp_gc_alloc(sizeof(sp_TreeNode), NULL,
                                                 sp_TreeNode_gc_scan);
  sp_TreeNode_initialize(self, lv_l, lv_r);
  return self;
}

static mrb_int sp_TreeNode_check(sp_TreeNode *self) {
  if (!self->iv_left)
    return 1;
  return 1 + sp_TreeNode_check(self->iv_left) + sp_TreeNode_check(self->iv_right);
}

static sp_TreeNode *sp_bottom_up_tree(mrb_int lv_depth) {
  if (lv_depth <= 0)
    return sp_TreeNode_new(NULL, NULL);
  SP_GC_SAVE();
  sp_TreeNode *lv_l = sp_bottom_up_tree(lv_depth - 1);
  SP_GC_ROOT(lv_l);
  sp_TreeNode *lv_r = sp_bottom_up_tree(lv_depth - 1);
  SP_GC_ROOT(lv_r);
  return sp_TreeNode_new(lv_l, lv_r);
}

int main(int argc, char **argv) {
  mrb_int lv_max = argc > 1 ? atoll(argv[1]) : 16;
  SP_GC_SAVE();
  sp_TreeNode *lv_long = sp_bottom_up_tree(lv_max);
  SP_GC_ROOT(lv_long);
  for (mrb_int lv_d = 4; lv_d <= lv_max; lv_d += 2) {
    mrb_int lv_iters = (mrb_int)1 << (lv_max - lv_d + 4);
    mrb_int lv_check = 0;
    for (mrb_int lv_i = 0; lv_i < lv_iters; lv_i++)
      lv_check += sp_TreeNode_check(sp_bottom_up_tree(lv_d));
    printf("%lld trees of depth %lld check: %lld\n", (long long)lv_iters,
           (long long)lv_d, (long long)lv_check);
  }
  printf("long lived tree check: %lld, gc runs: %lld\n",
         (long long)sp_TreeNode_check(lv_long), (long long)(sp_gc_runs > 0));
  return 0;
}
