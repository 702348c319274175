// A program that keeps one thread is sampled by a timer of its own, with no
// helper thread: glibc's malloc keeps its single-thread fast path
// (__libc_single_threaded stays 1; one idle helper thread made Spinel's
// allocating benchmarks up to x1.6 slower) and no other task exists. The
// program's first pthread_create hands sampling to the sampler thread, and
// every thread is sampled from then on. Wall mode and periodic flushing
// use the sampler thread from the start.
//
// UNSUPPORTED: tsan
// (Under TSan a process always has TSan's own thread, so the runtime always
// uses the sampler thread.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// One thread: no helper, a profile timed by the thread's own timer.
// RUN: env SPINEL_PROFILE=%t/one.folded %t/app > %t/one.out
// RUN: FileCheck %s --check-prefix=ONE < %t/one.out
// RUN: %python %inputs/check_stacks.py %t/one.folded --leaf 'alone >= 60%%' --min-samples 50
// RUN: %python %inputs/check_sprof.py %t/one.folded | FileCheck %s --check-prefix=OWN
// A second thread: the sampler thread takes over; both threads sampled.
// RUN: env SPINEL_PROFILE=%t/two.folded %t/app thread > %t/two.out
// RUN: FileCheck %s --check-prefix=TWO < %t/two.out
// RUN: %python %inputs/check_stacks.py %t/two.folded --leaf 'alone >= 20%%' --leaf 'worker >= 20%%' --leaf 'beside >= 10%%'
// RUN: %python %inputs/check_sprof.py %t/two.folded | FileCheck %s --check-prefix=SAMPLER
// Wall mode, flushing and SPINEL_PROFILE_TIMER=thread: a sampler thread
// from the start.
// RUN: env SPINEL_PROFILE=%t/wall.folded SPINEL_PROFILE_MODE=wall %t/app > %t/wall.out
// RUN: FileCheck %s --check-prefix=HELPER < %t/wall.out
// RUN: env SPINEL_PROFILE=%t/flush.folded SPINEL_PROFILE_FLUSH_SEC=5 %t/app > %t/flush.out
// RUN: FileCheck %s --check-prefix=HELPER < %t/flush.out
// RUN: %python %inputs/check_stacks.py %t/flush.folded --leaf 'alone >= 60%%' --min-samples 50
// RUN: env SPINEL_PROFILE=%t/thread.folded SPINEL_PROFILE_TIMER=thread %t/app > %t/thread.out
// RUN: FileCheck %s --check-prefix=HELPER < %t/thread.out
// RUN: %python %inputs/check_stacks.py %t/thread.folded --leaf 'alone >= 60%%' --min-samples 50
// RUN: env SPINEL_PROFILE=%t/bad.folded SPINEL_PROFILE_TIMER=sometimes %t/app > %t/bad.out 2> %t/bad.err
// RUN: FileCheck %s --check-prefix=ONE < %t/bad.out
// RUN: FileCheck %s --check-prefix=BAD < %t/bad.err
// Profiling off: the program as it is.
// RUN: env SPINEL_PROFILE=0 %t/app > %t/off.out
// RUN: FileCheck %s --check-prefix=ONE < %t/off.out
//
// ONE: single-threaded 1, tasks 1
// ONE-NEXT: done
// OWN: field: timer thread's own timer, CLOCK_MONOTONIC, thread CPU clock
// OWN: field: sampler none
// TWO: single-threaded 1, tasks 1
// TWO-NEXT: done
// SAMPLER: field: timer sampler thread, CLOCK_MONOTONIC, thread CPU clocks
// SAMPLER: field: sampler {{realtime|normal}}
// BAD: spinelprof: SPINEL_PROFILE_TIMER='sometimes' is not auto or thread; using auto
// HELPER: single-threaded 0, tasks 2
// HELPER-NEXT: done
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
