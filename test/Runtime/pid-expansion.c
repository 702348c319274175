// %p in SPINEL_PROFILE becomes the pid (in the .sprof name too).
// (In RUN lines %%p is lit's escape for a literal %p.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/prof-%%p.folded SPINEL_PROFILE_QUIET=1 %t/app > %t/pid
// RUN: %python %inputs/check_listing.py %t %t/pid app pid 'prof-{pid}.folded' 'prof-{pid}.sprof' | FileCheck %s
// CHECK: listing ok
#include "manual_frames.h"
#include <stdio.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

int main(void) {
  uint32_t d = frame_push(&f_main);
  burn_cpu_ms(20);
  frame_pop(d);
  printf("%d\n", (int)getpid());
  return 0;
}
