// Wall mode: a nap counts exactly its length, and the work between naps
// its own. The loop naps (a wrapped nanosleep), then runs "after" and
// "work", each timed from the loop with CLOCK_MONOTONIC; the profile's
// shares are its samples' weights (wall time), against that truth.
//
// 1 kHz, the shape: 0.7 ms naps and 0.14 ms of work. With the
// earlier design (a sampler thread signalling the program) the work read
// 2.5x its share, 24-44 pp off. Measured now: within 0.25 pp quiet, 0.42
// pp in 25 runs beside two busy loops. Bound: 4 pp; at ~3000 samples one
// standard deviation of the work's ~16 % is ~0.7 pp.
//
// 20 kHz: 0.1 ms naps, 3 us of "after", 25 us of "work": a nap holds an
// instant nearly every time, so whatever happens to the instants at a
// nap's edges (the signal held by the wrapper's mask until its restore,
// a sample's stall just before the nap) shows here. Measured: within
// 0.9 pp quiet (after +0.1 to +0.9, work -0.05 to -0.5: a sample's stall
// near a nap's start goes to the stack of the next sample, after the nap),
// 0.97 pp in 25 runs beside two busy loops. Bound: 2 pp; one standard
// deviation of a row's share is ~0.3 pp at ~40 000 samples, most of them
// the naps' own.
//
// UNSUPPORTED: tsan
// (TSan holds signals back to its next interceptor.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/a.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_MODE=wall SPINEL_PROFILE_HZ=1000 %t/app %t/ta 3 700 0 140
// RUN: %python %inputs/check_truth.py %t/a.folded %t/ta --by-weight --tolerance 4 --min-samples 2000 | FileCheck %s
// RUN: env SPINEL_PROFILE=%t/b.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_MODE=wall SPINEL_PROFILE_HZ=20000 %t/app %t/tb 2 100 3 25
// RUN: %python %inputs/check_truth.py %t/b.folded %t/tb --by-weight --tolerance 2 --min-samples 20000 | FileCheck %s
//
// CHECK: truth ok
#define _GNU_SOURCE
#define TRUTH_CLOCK CLOCK_MONOTONIC
#include "truth.h"

#include <errno.h>
#include <stdlib.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_nap, "nap", "nap", SPINELPROF_KIND_USER);
FRAME(f_after, "after", "after", SPINELPROF_KIND_USER);
FRAME(f_work, "work", "work", SPINELPROF_KIND_USER);

static long nap_ns, after_units, work_units;

static NOINLINE void nap(void) {
  uint32_t d = frame_push(&f_nap);
  struct timespec left = {0, nap_ns};
  while (nanosleep(&left, &left) == -1 && errno == EINTR)
    ;
  frame_pop(d);
}

static NOINLINE void after(void) {
  uint32_t d = frame_push(&f_after);
  truth_work(after_units);
  frame_pop(d);
}

static NOINLINE void work(void) {
  uint32_t d = frame_push(&f_work);
  truth_work(work_units);
  frame_pop(d);
}

/// usage: app TRUTH SECONDS NAP_US AFTER_US WORK_US (after: 0 for none)
int main(int argc, char **argv) {
  if (argc < 6)
    return 2;
  uint32_t d = frame_push(&f_main);
  uint64_t c0 = truth_clock_ns(TRUTH_CLOCK);
  truth_work(1000000);
  double ns_per_unit = (double)(truth_clock_ns(TRUTH_CLOCK) - c0) / 1e6;
  nap_ns = atol(argv[3]) * 1000;
  after_units = (long)(atof(argv[4]) * 1000 / ns_per_unit);
  work_units = (long)(atof(argv[5]) * 1000 / ns_per_unit);
  struct truth t = {{"nap", after_units ? "after" : NULL, "work"}, {0}, {0}, 0, 0};
  uint64_t end = truth_clock_ns(TRUTH_CLOCK) + (uint64_t)(atof(argv[2]) * 1e9);
  while (truth_clock_ns(TRUTH_CLOCK) < end) {
    TRUTH_CALL(&t, 0, nap());
    if (after_units)
      TRUTH_CALL(&t, 1, after());
    TRUTH_CALL(&t, 2, work());
  }
  frame_pop(d);
  return truth_write(&t, argv[1]);
}
