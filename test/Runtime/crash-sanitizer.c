// Under ASan or TSan the sanitizer owns the crash signals: it reports a
// fault itself and ends the program (status 99 in these tests), so the
// profiler installs no crash handler and no alternate stack, and writes
// no profile after the crash (docs/reliability.md). The program ends
// exactly as it does unprofiled.
//
// REQUIRES: asan || tsan
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/p.folded %t/app > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/p.folded
//
// OUT: before the crash
// OUT-NEXT: exit status: 99
// OUT-NEXT: identical
// CHECK: Sanitizer:DEADLYSIGNAL
// CHECK-NOT: (after SIGSEGV)
#include "manual_frames.h"
#include <stdint.h>
#include <stdio.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

// Not null (UBSan would report a null store first): an unmapped page.
static int *volatile bad_pointer = (int *)(uintptr_t)16;

int main(void) {
  uint32_t d = frame_push(&f_main);
  printf("before the crash\n");
  fflush(stdout);
  burn_cpu_ms(50);
  *bad_pointer = 1;
  frame_pop(d);
  return 0;
}
