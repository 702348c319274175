// The profiler never changes what the program prints or how it ends: the
// same stdout and exit status with and without profiling, whether main
// returns (0 or 5), the program calls exit(7) or _exit(9) (no profile then:
// atexit hooks do not run), or is killed by a signal.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/p.folded %t/app return0 | FileCheck %s --check-prefix=R0
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/p.folded %t/app return5 | FileCheck %s --check-prefix=R5
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/p.folded %t/app exit7 | FileCheck %s --check-prefix=E7
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/p.folded %t/app _exit9 | FileCheck %s --check-prefix=E9
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/p.folded %t/app abort 2>/dev/null | FileCheck %s --check-prefix=ABRT
// R0: line 1
// R0-NEXT: line 2 (buffered, flushed at exit)
// R0-NEXT: exit status: 0
// R0-NEXT: identical
// R5: exit status: 5
// R5-NEXT: identical
// E7: line 2 (buffered, flushed at exit)
// E7-NEXT: exit status: 7
// E7-NEXT: identical
// E9: exit status: 9
// E9-NEXT: identical
// ABRT: signal: 6
// ABRT-NEXT: identical
//
// An atexit handler of the program still runs, and still sees its frames
// sampled: the profiler's hook runs after it.
// RUN: cd %t && env SPINEL_PROFILE=%t/h.folded %t/app atexit | FileCheck %s --check-prefix=HOOK
// RUN: FileCheck %s --check-prefix=HOOKED < %t/h.folded
// HOOK: program's atexit handler ran
// HOOKED: <main>;at_exit_work
#include "manual_frames.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_hook, "at_exit_work", "at_exit_work", SPINELPROF_KIND_USER);

static void at_exit_work(void) {
  uint32_t d = frame_push(&f_main);
  uint32_t e = frame_push(&f_hook);
  burn_cpu_ms(60);
  frame_pop(e);
  frame_pop(d);
  printf("program's atexit handler ran\n");
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "return0";
  uint32_t d = frame_push(&f_main);
  printf("line 1\n");
  fflush(stdout);
  burn_cpu_ms(20);
  printf("line 2 (buffered, flushed at exit)\n");
  if (!strcmp(how, "atexit"))
    atexit(at_exit_work);
  if (!strcmp(how, "exit7"))
    exit(7);
  if (!strcmp(how, "_exit9"))
    _exit(9);
  if (!strcmp(how, "abort"))
    abort();
  frame_pop(d);
  return !strcmp(how, "return5") ? 5 : 0;
}
