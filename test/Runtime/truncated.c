// A stack deeper than the shadow stack's 4096 slots: the root-most 4096
// frames are kept and a "[truncated]" frame stands for the rest at the leaf
// end; the truncated counter counts those samples; nothing is written out
// of bounds (the sink slot absorbs deeper pushes), and the stack heals as
// the recursion returns.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/deep.folded %t/app 6000 2> %t/err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_sprof.py %t/deep.folded > %t/facts
// RUN: FileCheck %s --check-prefix=SPROF < %t/facts
// RUN: %python %inputs/folded_facts.py first-stack %t/deep.folded 0 1 4095 -1 | FileCheck %s --check-prefix=FOLDED
//
// OUT: depth after: 0
// ERR: spinelprof: {{[0-9]+}} samples {{.*}}, 0 dropped, {{[1-9][0-9]*}} truncated,
// SPROF: frame: synthetic [truncated]|||0
// SPROF: field: truncated {{[1-9][0-9]*}}
// FOLDED: 4097 <main> rec rec [truncated]
#include "manual_frames.h"
#include <stdio.h>
#include <stdlib.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_rec, "rec", "rec", SPINELPROF_KIND_USER);

static NOINLINE int rec(int n) {
  uint32_t d = frame_push(&f_rec);
  int r = n > 0 ? rec(n - 1) + 1 : (int)(burn_cpu_ms(200) & 1);
  frame_pop(d);
  return r;
}

int main(int argc, char **argv) {
  uint32_t d = frame_push(&f_main);
  rec(argc > 1 ? atoi(argv[1]) : 6000);
  burn_cpu_ms(10);
  frame_pop(d);
  printf("depth after: %u\n", __spinelprof_stack.depth);
  return 0;
}
