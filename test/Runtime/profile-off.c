// SPINEL_PROFILE=0: nothing written, nothing printed, nothing changed.
//
// RUN: rm -rf %t && mkdir -p %t/run
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: cd %t/run && env SPINEL_PROFILE=0 %t/app > %t/out 2> %t/err
// RUN: ls %t/run | count 0
// RUN: count 0 < %t/err
// RUN: FileCheck %s < %t/out
// Bad values of other flags are not even read when profiling is off.
// RUN: cd %t/run && env SPINEL_PROFILE=0 SPINEL_PROFILE_HZ=abc %t/app 2> %t/err2
// RUN: count 0 < %t/err2
// RUN: ls %t/run | count 0
//
// CHECK: hello from app
#include "manual_frames.h"
#include <stdio.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

int main(void) {
  uint32_t d = frame_push(&f_main);
  burn_cpu_ms(30);
  frame_pop(d);
  printf("hello from app\n");
  return 0;
}
