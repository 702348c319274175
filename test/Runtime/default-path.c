// SPINEL_PROFILE unset, empty or 1: the profile is <program basename>.folded
// in the start-up directory, with the .sprof beside it.
//
// RUN: rm -rf %t && mkdir -p %t/bin %t/run1 %t/run2 %t/run3
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/bin/myapp
// RUN: cd %t/run1 && ../bin/myapp > %t/out1 2> %t/err1
// RUN: FileCheck %s --check-prefix=ERR -DDIR=%t/run1 < %t/err1
// RUN: ls %t/run1 | FileCheck %s --check-prefix=LS
// RUN: ls %t/run1 | count 2
// RUN: %python %inputs/check_sprof.py %t/run1/myapp.folded | FileCheck %s --check-prefix=SPROF
// RUN: cd %t/run2 && env SPINEL_PROFILE=1 %t/bin/myapp 2> %t/err2
// RUN: ls %t/run2 | FileCheck %s --check-prefix=LS
// RUN: cd %t/run3 && env SPINEL_PROFILE= %t/bin/myapp 2> %t/err3
// RUN: ls %t/run3 | FileCheck %s --check-prefix=LS
//
// ERR: spinelprof: {{[0-9]+}} samples (1000 Hz requested, {{[0-9]+}} Hz achieved), 0 dropped, {{[0-9]+\.[0-9][0-9]}} s, wrote [[DIR]]/myapp.folded
// LS: myapp.folded
// LS-NEXT: myapp.sprof
// SPROF: ok:
// SPROF: command: ["../bin/myapp"]
#include "manual_frames.h"

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

int main(void) {
  uint32_t d = frame_push(&f_main);
  burn_cpu_ms(50);
  frame_pop(d);
  return 0;
}
