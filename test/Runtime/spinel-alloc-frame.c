// The allocator's frame where Spinel's allocator is external and too large
// to inline (test/Inputs/spinel_calloc_gc.h): the constructor calls a
// counting copy of the allocator without the allocator's frame, and pushes
// that frame itself, inside its own (LowerAllocSites.cpp). The time in
// the allocator, in calloc under it and in the collector it runs must stay
// under `Node.new;sp_gc_alloc`: without the caller's push the collector
// would stand under Node.new, and calloc without the allocator. An allocation profile's stacks are the allocating method's
// (no sp_gc_alloc under "alloc Node"), exactly counted at rate 1.
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// so samples land there, not where the program was; this test asserts
// where they land.)
//
// RUN: %clang_prof -O2 -I%inputs %s %rtlib -o %t
// RUN: nm %t | FileCheck %s --check-prefix=COPY
// COPY: sp_gc_alloc.spinelprof_site_frameless
// RUN: env SPINEL_PROFILE=%t.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_HZ=1000 %t 1000000 > %t.out
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: %python %inputs/check_stacks.py %t.folded --rules %s
// RUN: env SPINEL_PROFILE=%t.alloc SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_ALLOC_RATE=1 %t 3000 > %t.alloc.out
// RUN: %python %inputs/alloc_stacks.py %t.alloc.alloc.sprof | FileCheck %s --check-prefix=ALLOC
//
// OUT: built 1000000 nodes, kept 1000
//
// STACKS-ROOT: <main>
// STACKS: <main> -> Object#build
// STACKS: Object#build -> Node.new
// STACKS: Node.new -> sp_gc_alloc
// STACKS: sp_gc_alloc -> sp_gc_collect
// STACKS: sp_gc_collect -> sp_gc_sweep, sp_gc_mark, Node#gc_scan, sp_Node_gc_scan
// STACKS: sp_gc_mark -> Node#gc_scan, sp_Node_gc_scan, sp_gc_mark
// STACKS: Node#gc_scan -> sp_gc_mark
// STACKS: sp_Node_gc_scan -> sp_gc_mark
// STACKS-SAMPLES: >= 100
// Most of the time is calloc's zeroing of 4 KB objects and free's, both
// under the allocator.
// STACKS-ANY: sp_gc_alloc >= 60%
// STACKS-ANY: sp_gc_collect >= 5%
//
// ALLOC: {{^}}<main>;Object#build;Node.new;alloc Node objects=3000 bytes=12288000{{$}}
// ALLOC-NEXT: total objects=3000
#include "spinel_calloc_gc.h"

#include <stdio.h>

typedef long long mrb_int;

typedef struct sp_Node {
  struct sp_Node *iv_next;
  char iv_payload[4096 - sizeof(struct sp_Node *)];
} sp_Node;

static void sp_Node_gc_scan(void *p) { sp_gc_mark(((sp_Node *)p)->iv_next); }

static sp_Node *sp_Node_new(sp_Node *lv_next) {
  sp_Node *self = (sp_Node *)sp_gc_alloc(sizeof(sp_Node), NULL, sp_Node_gc_scan);
  self->iv_next = lv_next;
  self->iv_payload[0] = 1;
  return self;
}

// Keeps every thousandth node on a rooted list (marked recursively: 1000
// deep at most); the rest is garbage.
static mrb_int sp_build(mrb_int lv_n) {
  static sp_Node *lv_kept;
  sp_gc_roots[sp_gc_nroots++] = (void **)&lv_kept;
  mrb_int lv_count = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_Node *lv_node = sp_Node_new(lv_i % 1000 == 0 ? lv_kept : NULL);
    if (lv_i % 1000 == 0) {
      lv_kept = lv_node;
      lv_count++;
    }
  }
  return lv_count;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 1000;
  mrb_int lv_kept = sp_build(lv_n);
  printf("built %lld nodes, kept %lld\n", lv_n, lv_kept);
  return 0;
}
