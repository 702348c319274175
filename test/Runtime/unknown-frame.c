// A sample taken while the thread has no frame on its shadow stack is
// recorded under the synthetic root "[unknown]", not lost.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/u.folded SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/u.folded --max-outside 100 --leaf '[unknown] >= 60%%' --leaf 'framed >= 10%%'
// RUN: %python %inputs/check_sprof.py %t/u.folded | FileCheck %s
//
// OUT: depth 0
// CHECK: frame: synthetic [unknown]|||0
#include "manual_frames.h"
#include <stdio.h>

FRAME(f_framed, "framed", "framed", SPINELPROF_KIND_USER);

int main(void) {
  printf("depth %u\n", __spinelprof_stack.depth);
  burn_cpu_ms(200);
  uint32_t d = frame_push(&f_framed);
  burn_cpu_ms(60);
  frame_pop(d);
  return 0;
}
