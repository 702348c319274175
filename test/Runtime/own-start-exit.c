// No sample stands for the profiler's own start-up or exit: the main
// thread's timer starts as the runtime's last step before the program's
// constructors, no instant falls inside that arming, and the exit hook's
// thread records no sample from the hook's first line. A program that does
// nothing runs ~5 us between the arming's end and the hook.
//
// The arming (timer_settime) takes 15-35 us on this VM (it programs the
// CPU's timer: a hypervisor exit) and 80-200 us under load, longer than the
// first interval at high rates: an instant that passed during it came on
// the call's return. At 100 kHz that gave 104 samples in 50 quiet runs
// (33 at 50 kHz), at 20 kHz 3 quiet and 14 under CI's lit -j2 load, where
// 17 of 24 had the leaf timer_settime. With the arming drawn again, 0-6 in
// 50 runs under lit -j2 at each rate: an instant after the arming, in the
// program's own exit path, or an instant in a preemption there counted as
// prompt (docs/design.md, Sampling). The bound, 30, is under a third of
// the quiet 100 kHz bias (larger under load, where the arming is slower):
// on a later VM host (a slower exit path, 2026-11-28) six quiet rounds of
// 50 runs read 3-14 with the stratified law and 5-10 with the Poisson
// one; beside four busy loops 6-19 (median 11), all "[unknown]": the
// program's own exit path after main's frame, slower under load. One of
// 25 rounds of lit -j2 beside two busy loops read over the bound of 20
// then. At 20 kHz it is 15: under ASan
// (a slower exit path) and lit -j2 a run read 11, since a late signal
// counts when the thread ran through its instant (quiet, 2-5); the
// 100 kHz run keeps catching the bias.
//
// Under ASan the program's exit path (the sanitizer's own teardown, after
// main's frame: "[unknown]") is longer still: on 2026-11-30, quiet, 2-15
// samples in 50 runs at 20 kHz (16 and 19 under lit -j2, over 15) and
// 16-33 at 100 kHz. Its bounds are 30 and 60, the latter still under
// two thirds of the unsanitized bias.
//
// UNSUPPORTED: tsan
// (TSan holds a signal back to its next interceptor, the exit hook's
// pthread_sigmask among them, and delivers it there.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE_HZ=20000 SPINEL_PROFILE_QUIET=1 \
// RUN:     %python %inputs/samples_over_runs.py 50 %if asan %{30%} %else %{15%} %t %t/app | FileCheck %s
// RUN: env SPINEL_PROFILE_HZ=100000 SPINEL_PROFILE_QUIET=1 \
// RUN:     %python %inputs/samples_over_runs.py 50 %if asan %{60%} %else %{30%} %t %t/app | FileCheck %s
//
// (samples_over_runs.py prints "too many" above the bound.)
// CHECK: ok: {{[0-9]+}} samples in 50 runs

#include "manual_frames.h"

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

int main(void) {
  uint32_t d = frame_push(&f_main);
  frame_pop(d);
  return 0;
}
