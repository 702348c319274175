// Stress: SIGINT and SIGTERM at random moments — during start-up (a third
// of the runs, in the first 30 ms), while
// three threads burn at 10 kHz sampling, during the exit-time write, after
// exit. 60 runs (the seed is printed; --seed repeats a run). Each run must
// end as an unprofiled program would: killed by the signal sent, or exit
// status 0 if it finished first; its stdout is the unprofiled program's
// lines, in order, cut short only by the kill; no hang (a 20 s limit per
// run); at most one spinelprof line on stderr; and the profile, when there
// is one, complete and valid with no temporary file left behind.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -pthread -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=0 %t/app > %t/expected
// RUN: timeout 600 %python %S/Inputs/random_signals.py --runs 60 --dir %t --expected %t/expected %t/app | FileCheck %s
//
// CHECK: random_signals: seed {{[0-9]+}}
// CHECK: random_signals: 60 runs ok
#define _GNU_SOURCE
#include "burner_thread.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

SPINEL_BURNER_THREAD

static uint64_t sp_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

// One line per 20 ms of work, written with write(2) so that what reached
// stdout before a kill is exactly what the program wrote.
__attribute__((noinline)) static void sp_tick(int i) {
  char line[32];
  int n = snprintf(line, sizeof(line), "tick %d\n", i);
  (void)write(1, line, (size_t)n);
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; ++i)
    pthread_create(&t[i], NULL, sp_Burner_run, NULL);
  uint64_t start = sp_now_ms();
  for (int i = 0; i < 15; ++i) {
    while (sp_now_ms() - start < 20u * (uint64_t)(i + 1))
      sp_burn(10000);
    sp_tick(i);
  }
  __atomic_store_n(&sp_stop, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < 2; ++i)
    pthread_join(t[i], NULL);
  sp_tick(99);
  return 0;
}
