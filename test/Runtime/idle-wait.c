// A thread asleep in a wait no wrapper covers (here a raw nanosleep system
// call, which a signal ends with EINTR) is no CPU sample and is seldom
// woken: a signal that interrupted a wait is no sample, and a thread that
// used under a tenth of a CPU since the last look has its mean interval doubled,
// up to 64 P (docs/design.md, Sampling). One second asleep at 1 kHz: about
// 20 interruptions (1, 2, 4, ... 64 ms, then every 64 ms, measured 21); a
// sampler without the backoff interrupts it ~1000 times, one that took
// such an instant for a sample gives the sleep ~20 samples or more.
// Bounds: 60 interruptions, 3 samples of the sleep. Then 600 ms of work,
// whose samples the sleep must not have taken: its first 64 ms may get
// none (the timer stays armed for the backed-off interval), so at least
// ~536 of ~600, Poisson counts (SD ~24); bound 450: under 1e-4 a run
// (300 ms and a bound of 200: one run in ~1500 below it, 1 in 130 when the
// first 64 ms got none). A thread that stayed backed off until one of
// its instants counted lost up to 64 ms at each instant its signal
// reached it late: 101-151 of 300 under load, a third to a half.
// The sleep runs on a thread that names itself after
// it, as programs name threads after their start: signals that found it
// asleep must not have named it (a thread is named at its first sample;
// named at such a signal it read "app", the program's name).
//
// UNSUPPORTED: tsan
// (TSan holds signals back to its next interceptor: the raw system call is
// not one, so the count is not the runtime's.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/p.folded SPINEL_PROFILE_QUIET=1 %t/app > %t/out
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: %python %inputs/folded_facts.py sum %t/p.folded sleep 0 3
// RUN: %python %inputs/folded_facts.py sum %t/p.folded burn 450 800
// RUN: %python %inputs/check_sprof.py %t/p.folded | FileCheck %s --check-prefix=SPROF
//
// OUT: interruptions {{[0-9]|[1-5][0-9]}}{{$}}
// SPROF: thread: {{[0-9]+}} woke{{$}}
#define _GNU_SOURCE
#include "manual_frames.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_sleep, "sleep", "sleep", SPINELPROF_KIND_USER);
FRAME(f_burn, "burn", "burn", SPINELPROF_KIND_USER);

/// Sleeps one second with the raw system call (no wrapper), going on with
/// the time left after each interruption; returns how many there were.
static NOINLINE int sleep_raw(void) {
  uint32_t d = frame_push(&f_sleep);
  struct timespec left = {1, 0};
  int interruptions = 0;
  while (syscall(SYS_nanosleep, &left, &left) != 0 && errno == EINTR)
    ++interruptions;
  frame_pop(d);
  return interruptions;
}

static NOINLINE void burn(void) {
  uint32_t d = frame_push(&f_burn);
  burn_cpu_ms(600);
  frame_pop(d);
}

static void *sleeper(void *out) {
  uint32_t d = frame_push(&f_main);
  *(int *)out = sleep_raw();
  pthread_setname_np(pthread_self(), "woke");
  burn();
  frame_pop(d);
  return NULL;
}

int main(void) {
  int interruptions = -1;
  pthread_t t;
  pthread_create(&t, NULL, sleeper, &interruptions);
  pthread_join(t, NULL);
  printf("interruptions %d\n", interruptions);
  return 0;
}
