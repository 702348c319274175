// A relative SPINEL_PROFILE is resolved against the start-up directory: a
// chdir by the program does not move the profile.
//
// RUN: rm -rf %t && mkdir -p %t/start/elsewhere
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: cd %t/start && env SPINEL_PROFILE=prof.folded %t/app elsewhere 2> %t/err
// RUN: FileCheck %s -DDIR=%t/start < %t/err
// RUN: ls %t/start | FileCheck %s --check-prefix=LS
// RUN: ls %t/start/elsewhere | count 0
// RUN: %python %inputs/check_sprof.py %t/start/prof.folded | FileCheck %s --check-prefix=SPROF
//
// CHECK: wrote [[DIR]]/prof.folded{{$}}
// LS: elsewhere
// LS-NEXT: prof.folded
// LS-NEXT: prof.sprof
// SPROF: sample: {{[0-9]+}} {{[0-9]+}} <main>;moved
#include "manual_frames.h"
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_moved, "moved", "moved", SPINELPROF_KIND_USER);

int main(int argc, char **argv) {
  uint32_t d = frame_push(&f_main);
  if (argc > 1 && chdir(argv[1]) != 0)
    return 1;
  uint32_t e = frame_push(&f_moved);
  burn_cpu_ms(100);
  frame_pop(e);
  frame_pop(d);
  return 0;
}
