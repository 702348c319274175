// SPINEL_PROFILE_QUIET=1: no summary line, the profile is still written.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/q.folded SPINEL_PROFILE_QUIET=1 %t/app > %t/out 2> %t/err
// RUN: count 0 < %t/err
// RUN: FileCheck %s < %t/out
// RUN: %python %inputs/check_sprof.py %t/q.folded | FileCheck %s --check-prefix=SPROF
// RUN: env SPINEL_PROFILE=%t/q.folded SPINEL_PROFILE_QUIET=true %t/app 2>&1 >/dev/null | count 0
//
// CHECK: output unchanged
// SPROF: ok:
#include "manual_frames.h"
#include <stdio.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

int main(void) {
  uint32_t d = frame_push(&f_main);
  burn_cpu_ms(30);
  frame_pop(d);
  puts("output unchanged");
  return 0;
}
