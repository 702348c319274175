// Wall mode weighs each sample by the wall time since the thread's previous
// sample, and a thread's first sample by the time since it registered: the
// weights of a thread add up to at most the run's duration, and the
// achieved rate is the requested one. (A first sample weighed from the CPU
// clock's value once made a 0.3 s run's thread weigh the machine's uptime:
// "0.2 Hz achieved", pprof's total in hours.) Checked for the main thread
// and a second thread started half-way, in a program that computes and
// sleeps.
//
// UNSUPPORTED: tsan
// (TSan holds signals back, so the achieved rate is not the requested one.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/w.folded SPINEL_PROFILE_MODE=wall SPINEL_PROFILE_HZ=1000 %t/app 2> %t/err
// RUN: %python %inputs/check_wall_weights.py %t/w.sprof | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t/err
//
// CHECK: wall weights ok
// ERR-NOT: {{ [0-9] Hz achieved}}
// ERR: spinelprof: {{[0-9]+}} samples (1000 Hz requested, {{[0-9]+}} Hz achieved, wall clock)
#define _GNU_SOURCE
#include "manual_frames.h"
#include <pthread.h>
#include <time.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_nap, "nap", "nap", SPINELPROF_KIND_USER);
FRAME(f_second, "second", "second", SPINELPROF_KIND_USER);

static NOINLINE void nap(void) {
  uint32_t d = frame_push(&f_nap);
  struct timespec ts = {0, 5 * 1000 * 1000};
  nanosleep(&ts, 0);
  frame_pop(d);
}

static void *second(void *arg) {
  (void)arg;
  uint32_t d = frame_push(&f_second);
  for (int i = 0; i < 15; ++i) {
    burn_cpu_ms(2);
    nap();
  }
  frame_pop(d);
  return 0;
}

int main(void) {
  uint32_t d = frame_push(&f_main);
  for (int i = 0; i < 15; ++i) {
    burn_cpu_ms(2);
    nap();
  }
  pthread_t t;
  pthread_create(&t, 0, second, 0);
  pthread_join(t, 0);
  frame_pop(d);
  return 0;
}
