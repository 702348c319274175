// Time inside a system call is CPU time of the method that made it, and no
// sample is moved off a method because its signal came at a system call: a
// loop over compute (0.3 ms); write_null, 40 one-byte writes to /dev/null
// with a little work between; compute_long (1 ms); and getppid_loop, 60
// getppid system calls with a little work between. A sampler that gave
// back samples whose signal landed right after a system call and took
// them again later read each syscall-dense method 8-10 pp low and the
// method after them 18 pp high. The truth is each call's CPU time, from
// its caller. Bound: 5 pp; at ~1,500 samples (1 kHz) one standard
// deviation of a 30 % share is ~1.2 pp.
//
// UNSUPPORTED: tsan
// (TSan holds signals back to its next interceptor: the system calls.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/s.folded SPINEL_PROFILE_HZ=1000 SPINEL_PROFILE_QUIET=1 %t/app %t/truth
// RUN: %python %inputs/check_truth.py %t/s.folded %t/truth --tolerance 5 | FileCheck %s
//
// CHECK: truth ok
#define _GNU_SOURCE
#include "truth.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_compute, "compute", "compute", SPINELPROF_KIND_USER);
FRAME(f_write, "write_null", "write_null", SPINELPROF_KIND_USER);
FRAME(f_long, "compute_long", "compute_long", SPINELPROF_KIND_USER);
FRAME(f_getppid, "getppid_loop", "getppid_loop", SPINELPROF_KIND_USER);

static long unit_us;
static int null_fd;

static NOINLINE void compute(void) {
  uint32_t d = frame_push(&f_compute);
  truth_work(300 * unit_us);
  frame_pop(d);
}

static NOINLINE void write_null(void) {
  uint32_t d = frame_push(&f_write);
  for (int i = 0; i < 40; ++i) {
    if (write(null_fd, "x", 1) != 1)
      truth_sink++;
    truth_work(unit_us / 2);
  }
  frame_pop(d);
}

static NOINLINE void compute_long(void) {
  uint32_t d = frame_push(&f_long);
  truth_work(1000 * unit_us);
  frame_pop(d);
}

static NOINLINE void getppid_loop(void) {
  uint32_t d = frame_push(&f_getppid);
  for (int i = 0; i < 60; ++i) {
    truth_sink += (uint64_t)syscall(SYS_getppid);
    truth_work(unit_us / 2);
  }
  frame_pop(d);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  uint32_t d = frame_push(&f_main);
  null_fd = open("/dev/null", O_WRONLY); // Written to, never replaced.
  uint64_t c0 = truth_cpu_ns();
  truth_work(1000000);
  unit_us = (long)(1e6 / ((double)(truth_cpu_ns() - c0) / 1e3));
  struct truth t = {{"compute", "write_null", "compute_long", "getppid_loop"},
                    {0}, {0}, 0, 0};
  uint64_t end = truth_cpu_ns() + 1500000000u;
  while (truth_cpu_ns() < end) {
    TRUTH_CALL(&t, 0, compute());
    TRUTH_CALL(&t, 1, write_null());
    TRUTH_CALL(&t, 2, compute_long());
    TRUTH_CALL(&t, 3, getppid_loop());
  }
  close(null_fd);
  frame_pop(d);
  return truth_write(&t, argv[1]);
}
