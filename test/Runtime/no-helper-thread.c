// Profiling adds no thread: each thread is sampled by a timer of its own
// whose signal it handles itself, so a program that keeps one thread stays
// one task and glibc's malloc keeps its single-thread fast path
// (__libc_single_threaded stays 1; one idle helper pthread made Spinel's
// allocating benchmarks up to x1.6 slower). A second thread gets its own
// timer when it starts, and both are sampled. Only periodic flushing
// (SPINEL_PROFILE_FLUSH_SEC) starts a helper thread, which writes.
// SPINEL_PROFILE_TIMER is gone: setting it costs one line on stderr.
//
// UNSUPPORTED: tsan
// (Under TSan a process always has TSan's own thread.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// One thread, and nothing beside it.
// RUN: env SPINEL_PROFILE=%t/one.folded %t/app > %t/one.out
// RUN: FileCheck %s --check-prefix=ONE < %t/one.out
// RUN: %python %inputs/check_stacks.py %t/one.folded --leaf 'alone >= 60%%' --min-samples 50
// RUN: %python %inputs/check_sprof.py %t/one.folded | FileCheck %s --check-prefix=SPROF
// Wall mode too.
// RUN: env SPINEL_PROFILE=%t/wall.folded SPINEL_PROFILE_MODE=wall %t/app > %t/wall.out
// RUN: FileCheck %s --check-prefix=ONE < %t/wall.out
// RUN: %python %inputs/check_stacks.py %t/wall.folded --leaf 'alone >= 60%%' --min-samples 50
// A second thread: both threads sampled.
// RUN: env SPINEL_PROFILE=%t/two.folded %t/app thread > %t/two.out
// RUN: FileCheck %s --check-prefix=ONE < %t/two.out
// RUN: %python %inputs/check_stacks.py %t/two.folded --leaf 'alone >= 20%%' --leaf 'worker >= 8%%' --leaf 'beside >= 8%%'
// Flushing: a helper pthread from the start.
// RUN: env SPINEL_PROFILE=%t/flush.folded SPINEL_PROFILE_FLUSH_SEC=5 %t/app > %t/flush.out
// RUN: FileCheck %s --check-prefix=PTHREAD < %t/flush.out
// RUN: %python %inputs/check_stacks.py %t/flush.folded --leaf 'alone >= 60%%' --min-samples 50
// RUN: env SPINEL_PROFILE=%t/timer.folded SPINEL_PROFILE_TIMER=thread %t/app > %t/timer.out 2> %t/timer.err
// RUN: FileCheck %s --check-prefix=ONE < %t/timer.out
// RUN: FileCheck %s --check-prefix=TIMER < %t/timer.err
// Profiling off: the same.
// RUN: env SPINEL_PROFILE=0 %t/app > %t/off.out
// RUN: FileCheck %s --check-prefix=ONE < %t/off.out
//
// ONE: single-threaded 1, tasks 1
// ONE-NEXT: done
// SPROF: field: timer thread timer, CLOCK_MONOTONIC, random intervals, thread CPU clock
// SPROF: field: sampler in-thread
// PTHREAD: single-threaded 0, tasks 2
// PTHREAD-NEXT: done
// TIMER: spinelprof: SPINEL_PROFILE_TIMER is no longer read: each thread has its own timer
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
