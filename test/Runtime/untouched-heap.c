// The runtime leaves the program's malloc heap as an unprofiled run has
// it: at main, nothing allocated, off or on. Its start-up strings come
// from mmap, and libc functions are looked up without a failed dlsym
// (whose error message is malloc'd). A heap laid out otherwise moved
// every object of a malloc-heavy program: Spinel's bm_gcbench ran x1.10
// with the runtime linked and profiling off, x0.97 without those
// allocations (bench/overhead/results/2026-11-30-heap-layout.md).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: %clang -O1 -I%include -I%inputs %s -DUNPROFILED -o %t/plain
// RUN: %t/plain | FileCheck %s
// RUN: env SPINEL_PROFILE=0 %t/app | FileCheck %s
// RUN: env SPINEL_PROFILE=%t/on.folded SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s
// RUN: env SPINEL_PROFILE=%t/p%%p.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_ALLOC=1 %t/app | FileCheck %s
//
// CHECK: heap at main: 0 bytes, 0 mapped chunks
#include <malloc.h>
#include <stdio.h>
#ifndef UNPROFILED
#include "manual_frames.h"
FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
#endif

int main(void) {
  struct mallinfo2 Heap = mallinfo2(); // before anything of the program's
#ifndef UNPROFILED
  uint32_t d = frame_push(&f_main);
  frame_pop(d);
#endif
  printf("heap at main: %zu bytes, %zu mapped chunks\n", Heap.arena,
         Heap.hblks);
  return 0;
}
