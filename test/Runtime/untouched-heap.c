// The runtime leaves the program's malloc heap as an unprofiled run has
// it: at main, nothing allocated, off or on; after a thread of the
// program's starts and ends, what an unprofiled run has then (the plain
// build has a thread-local of its own, as the runtime's shadow stack is
// one: glibc sizes each new thread's module table by the executable's
// thread-local modules, 16 bytes of the heap more with one). Its
// start-up strings and threads' start records come from mmap or a static
// pool, and libc functions are looked up without a failed dlsym (whose
// error message is malloc'd). A heap laid out otherwise moved every
// object of a malloc-heavy program: Spinel's bm_gcbench ran x1.10 with
// the runtime linked and profiling off, x0.97 without those allocations
// (bench/overhead/results/2026-11-30-heap-layout.md).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// RUN: %clang -O1 -pthread -I%include -I%inputs %s -DUNPROFILED -o %t/plain
// RUN: %t/plain > %t/plain.out
// RUN: FileCheck %s < %t/plain.out
// RUN: env SPINEL_PROFILE=0 %t/app > %t/off.out
// RUN: diff %t/plain.out %t/off.out
// RUN: env SPINEL_PROFILE=%t/on.folded SPINEL_PROFILE_QUIET=1 %t/app > %t/on.out
// RUN: diff %t/plain.out %t/on.out
// RUN: env SPINEL_PROFILE=%t/p%%p.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_ALLOC=1 %t/app > %t/alloc.out
// RUN: diff %t/plain.out %t/alloc.out
//
// CHECK: heap at main: 0 bytes, 0 mapped chunks
// CHECK: heap after a thread: {{[0-9]+}} bytes in use, the next object {{0x[0-9a-f]+}} after the one before
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifndef UNPROFILED
#include "manual_frames.h"
FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_worker, "worker", "worker", SPINELPROF_KIND_USER);
#else
static __thread volatile int ThreadLocal;
#endif

static void *worker(void *Arg) {
#ifdef UNPROFILED
  ThreadLocal = 1;
#else
  uint32_t d = frame_push(&f_worker);
  frame_pop(d);
#endif
  return Arg;
}

int main(void) {
  struct mallinfo2 Heap = mallinfo2(); // before anything of the program's
#ifndef UNPROFILED
  uint32_t d = frame_push(&f_main);
#endif
  printf("heap at main: %zu bytes, %zu mapped chunks\n", Heap.arena,
         Heap.hblks);
  fflush(stdout); // stdout's buffer is in the heap before the thread's.
  char *First = malloc(16);
  pthread_t Thread;
  if (pthread_create(&Thread, NULL, worker, NULL) != 0 ||
      pthread_join(Thread, NULL) != 0)
    return 1;
  char *Next = malloc(16); // Where it lands says what came between.
  Heap = mallinfo2();
  printf("heap after a thread: %zu bytes in use, the next object %#lx "
         "after the one before\n",
         Heap.uordblks, (unsigned long)(Next - First));
  free(Next);
  free(First);
#ifndef UNPROFILED
  frame_pop(d);
#endif
  return 0;
}
