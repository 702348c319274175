// Sampling instants never lock in phase with the program: a loop that
// sleeps to absolute CLOCK_MONOTONIC boundaries every PERIOD us, then runs
// first then second (a quarter of the period each), is measured as truly
// as any other, at a period of 1 ms (the sampling period at 1 kHz) and of
// 4 ms (the kernel's tick here, 250 Hz). A timer bound to the tick
// (ITIMER_PROF, a thread CPU-clock timer) or a fixed-period one sees one
// phase only: measured, 0 samples in 3 s at 4 ms, and 82/18 for two equal
// halves at 1 ms. The truth is each call's CPU time, from its caller.
// Bound: 10 pp on a half; at ~700 samples one standard deviation of a
// half's share is ~1.9 pp, and the bias this catches is tens of pp.
//
// "nap": the instants after a blocking call keep their rate. The loop
// sleeps (a wrapped nanosleep of 2.5 sampling periods, so that instants
// fall inside it), then runs first and second, half a period each. When
// the wrapper's count of the instants inside a call drew the next instant
// and threw it away, the first instant after each wake-up came late, and
// first (the half right after the wake-up) read 41-44 % for its 50 % at
// 1 kHz (9 runs). Bound: 4 pp on a half; at ~4000 samples one standard
// deviation of a half's share is ~0.8 pp (at 2000, 1.1 pp: with 0.4 pp
// of residual bias, over the bound about one run in 2000), and the bias
// is 6-10 pp.
//
// "nap" at 5 kHz: the sampler's own stall (~45 us a sample here: the
// thread stops from its instant to the handler's end) is no time of the
// program's. When each interval ran on from its instant, through the
// stall, the half right after each wake-up got instants at 1/P and the
// other at 1/(P - stall): first read 4.0-4.4 pp low at 5 kHz (1 pp at 1
// kHz, within the bound above); drawn from the stall's end, within 0.7 pp.
// Bound: 2.5 pp; at ~16000 samples one standard deviation of a half's
// share is ~0.4 pp.
//
// UNSUPPORTED: tsan
// (TSan holds signals back to its next interceptor.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/p1.folded SPINEL_PROFILE_QUIET=1 %t/app 1000 %t/t1
// RUN: %python %inputs/check_truth.py %t/p1.folded %t/t1 --tolerance 10 | FileCheck %s
// RUN: env SPINEL_PROFILE=%t/p4.folded SPINEL_PROFILE_QUIET=1 %t/app 4000 %t/t4
// RUN: %python %inputs/check_truth.py %t/p4.folded %t/t4 --tolerance 10 | FileCheck %s
// RUN: env SPINEL_PROFILE=%t/pn.folded SPINEL_PROFILE_QUIET=1 %t/app 1000 %t/tn nap 4000
// RUN: %python %inputs/check_truth.py %t/pn.folded %t/tn --tolerance 4 --min-samples 2000 | FileCheck %s
// RUN: env SPINEL_PROFILE=%t/ps.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_HZ=5000 %t/app 200 %t/ts nap 16000
// RUN: %python %inputs/check_truth.py %t/ps.folded %t/ts --tolerance 2.5 --min-samples 8000 | FileCheck %s
//
// CHECK: truth ok
#define _GNU_SOURCE
#include "truth.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_first, "first", "first", SPINELPROF_KIND_USER);
FRAME(f_second, "second", "second", SPINELPROF_KIND_USER);

static long units;

static NOINLINE void first(void) {
  uint32_t d = frame_push(&f_first);
  truth_work(units);
  frame_pop(d);
}

static NOINLINE void second(void) {
  uint32_t d = frame_push(&f_second);
  truth_work(units);
  frame_pop(d);
}

static uint64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/// Nap mode: 2.5 periods of nanosleep, then first and second for half a
/// period each, for Count periods of CPU.
static void naps(struct truth *t, uint64_t period, uint64_t count) {
  struct timespec nap = {0, (long)(period * 5 / 2)};
  uint64_t end = truth_cpu_ns() + count * period;
  while (truth_cpu_ns() < end) {
    while (nanosleep(&nap, &nap) == -1 && errno == EINTR)
      ;
    nap.tv_nsec = (long)(period * 5 / 2);
    TRUTH_CALL(t, 0, first());
    TRUTH_CALL(t, 1, second());
  }
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  uint32_t d = frame_push(&f_main);
  uint64_t period = (uint64_t)atol(argv[1]) * 1000;
  int nap = argc > 3 && strcmp(argv[3], "nap") == 0;
  // Units for a quarter period (half in nap mode): calibrated now.
  uint64_t c0 = truth_cpu_ns();
  truth_work(1000000);
  double ns_per_unit = (double)(truth_cpu_ns() - c0) / 1e6;
  units = (long)(period / (nap ? 2 : 4) / ns_per_unit);
  struct truth t = {{"first", "second"}, {0}, {0}, 0, 0};
  if (nap) {
    naps(&t, period, argc > 4 ? (uint64_t)atol(argv[4]) : 2000);
    frame_pop(d);
    return truth_write(&t, argv[2]);
  }
  // Until first and second have used 700 ms of CPU (~1.4 s alone), not
  // for a fixed 1.5 s of wall time: under a load of 8 that gave 98
  // samples at 4 ms, under check_truth's floor of 100. At most 20 s.
  uint64_t next = mono_ns(), end = next + 20000000000u;
  next -= next % period;
  while (t.ns[0] + t.ns[1] < 700000000u && mono_ns() < end) {
    next += period;
    uint64_t now = mono_ns();
    if (next <= now)
      next += ((now - next) / period + 1) * period; // Keep the phase.
    struct timespec at = {(time_t)(next / 1000000000u),
                          (long)(next % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
      ;
    TRUTH_CALL(&t, 0, first());
    TRUTH_CALL(&t, 1, second());
  }
  frame_pop(d);
  return truth_write(&t, argv[2]);
}
