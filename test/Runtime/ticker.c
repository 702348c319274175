// While a program has one thread, its sampler runs on a "ticker", a thread
// made with clone() that glibc does not know of: glibc's malloc keeps its
// single-thread fast path (__libc_single_threaded stays 1; one idle
// pthread made Spinel's allocating benchmarks up to x1.6 slower). The
// program's first pthread_create hands sampling to a sampler pthread, and
// every thread is sampled from then on. Periodic flushing and
// SPINEL_PROFILE_TIMER=thread use the sampler pthread from the start.
//
// UNSUPPORTED: tsan
// (Under TSan a process always has TSan's own thread, so the runtime always
// uses the sampler pthread.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// One thread: the ticker beside it, no pthread.
// RUN: env SPINEL_PROFILE=%t/one.folded %t/app > %t/one.out
// RUN: FileCheck %s --check-prefix=ONE < %t/one.out
// RUN: %python %inputs/check_stacks.py %t/one.folded --leaf 'alone >= 60%%' --min-samples 50
// RUN: %python %inputs/check_sprof.py %t/one.folded | FileCheck %s --check-prefix=SPROF
// Wall mode too.
// RUN: env SPINEL_PROFILE=%t/wall.folded SPINEL_PROFILE_MODE=wall %t/app > %t/wall.out
// RUN: FileCheck %s --check-prefix=ONE < %t/wall.out
// RUN: %python %inputs/check_stacks.py %t/wall.folded --leaf 'alone >= 60%%' --min-samples 50
// A second thread: the sampler pthread takes over; both threads sampled.
// RUN: env SPINEL_PROFILE=%t/two.folded %t/app thread > %t/two.out
// RUN: FileCheck %s --check-prefix=TWO < %t/two.out
// RUN: %python %inputs/check_stacks.py %t/two.folded --leaf 'alone >= 20%%' --leaf 'worker >= 8%%' --leaf 'beside >= 8%%'
// Flushing and SPINEL_PROFILE_TIMER=thread: a sampler pthread from the
// start.
// RUN: env SPINEL_PROFILE=%t/flush.folded SPINEL_PROFILE_FLUSH_SEC=5 %t/app > %t/flush.out
// RUN: FileCheck %s --check-prefix=PTHREAD < %t/flush.out
// RUN: %python %inputs/check_stacks.py %t/flush.folded --leaf 'alone >= 60%%' --min-samples 50
// RUN: env SPINEL_PROFILE=%t/thread.folded SPINEL_PROFILE_TIMER=thread %t/app > %t/thread.out
// RUN: FileCheck %s --check-prefix=PTHREAD < %t/thread.out
// RUN: %python %inputs/check_stacks.py %t/thread.folded --leaf 'alone >= 60%%' --min-samples 50
// RUN: env SPINEL_PROFILE=%t/bad.folded SPINEL_PROFILE_TIMER=sometimes %t/app > %t/bad.out 2> %t/bad.err
// RUN: FileCheck %s --check-prefix=ONE < %t/bad.out
// RUN: FileCheck %s --check-prefix=BAD < %t/bad.err
// Profiling off: the program alone.
// RUN: env SPINEL_PROFILE=0 %t/app > %t/off.out
// RUN: FileCheck %s --check-prefix=OFF < %t/off.out
//
// ONE: single-threaded 1, tasks 2
// ONE-NEXT: done
// SPROF: field: timer sampler thread, CLOCK_MONOTONIC, thread CPU clocks
// TWO: single-threaded 1, tasks 2
// TWO-NEXT: done
// PTHREAD: single-threaded 0, tasks 2
// PTHREAD-NEXT: done
// BAD: spinelprof: SPINEL_PROFILE_TIMER='sometimes' is not auto or thread; using auto
// OFF: single-threaded 1, tasks 1
// OFF-NEXT: done
#include "manual_frames.h"
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/single_threaded.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_alone, "alone", "alone", SPINELPROF_KIND_USER);
FRAME(f_worker, "worker", "worker", SPINELPROF_KIND_USER);
FRAME(f_beside, "beside", "beside", SPINELPROF_KIND_USER);

static int tasks(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  for (struct dirent *e; d && (e = readdir(d));)
    n += e->d_name[0] != '.';
  if (d)
    closedir(d);
  return n;
}

static void *worker(void *arg) {
  (void)arg;
  uint32_t d = frame_push(&f_worker);
  burn_cpu_ms(300);
  frame_pop(d);
  return NULL;
}

int main(int argc, char **argv) {
  uint32_t d = frame_push(&f_main);
  uint32_t e = frame_push(&f_alone);
  burn_cpu_ms(250);
  frame_pop(e);
  printf("single-threaded %d, tasks %d\n", (int)__libc_single_threaded,
         tasks());
  if (argc > 1 && strcmp(argv[1], "thread") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    e = frame_push(&f_beside);
    burn_cpu_ms(300);
    frame_pop(e);
    pthread_join(t, NULL);
  }
  printf("done\n");
  frame_pop(d);
  return 0;
}
