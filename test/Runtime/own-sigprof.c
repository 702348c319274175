// A program that uses SIGPROF itself (its own handler, ITIMER_PROF at
// 100 Hz) sees exactly its own signals when profiled: the profiler samples
// with a real-time signal of its own (SIGRTMAX-2), never SIGPROF. (When it
// shared SIGPROF, such a program counted ~8x more ticks.) The program
// prints how many ticks it got per CPU-second, as a range; profiled and
// not, the output is the same, and the profile still has its samples. A
// program that installs a handler for SIGRTMAX-2 gets it, and only its
// own signals: sampling stops then, with one line, and the profile of what
// ran before is written.
//
// UNSUPPORTED: tsan
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=0 %t/app > %t/plain.out
// RUN: env SPINEL_PROFILE=%t/p.folded %t/app > %t/prof.out 2> %t/prof.err
// RUN: FileCheck %s < %t/plain.out
// RUN: FileCheck %s < %t/prof.out
// RUN: %python %inputs/check_stacks.py %t/p.folded --leaf 'burn >= 80%%' --min-samples 100
// RUN: env SPINEL_PROFILE=%t/r.folded %t/app rt > %t/rt.out 2> %t/rt.err
// RUN: FileCheck %s --check-prefix=RT < %t/rt.out
// RUN: FileCheck %s --check-prefix=RTERR < %t/rt.err
// RUN: test -s %t/r.folded
//
// CHECK: own SIGPROF ticks per CPU-second: 50-200
// RT: own SIGPROF ticks per CPU-second: 50-200
// RT: own SIGRTMAX-2 signals: 3
// RTERR: spinelprof: the program installs a handler for SIGRTMAX-2, which profiling uses; sampling stops
#define _GNU_SOURCE
#include "manual_frames.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_burn, "burn", "burn", SPINELPROF_KIND_USER);

static volatile sig_atomic_t ticks, rt_signals;
static void on_prof(int sig) { (void)sig; ++ticks; }
static void on_rt(int sig) { (void)sig; ++rt_signals; }

static uint64_t cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(int argc, char **argv) {
  int rt = argc > 1 && strcmp(argv[1], "rt") == 0;
  uint32_t d = frame_push(&f_main);
  if (rt) {
    burn_cpu_ms(50); // Sampled, before the program takes the signal.
    signal(SIGRTMAX - 2, on_rt);
  }
  signal(SIGPROF, on_prof);
  struct itimerval every10ms = {{0, 10000}, {0, 10000}};
  setitimer(ITIMER_PROF, &every10ms, NULL);
  uint64_t start = cpu_ns();
  uint32_t e = frame_push(&f_burn);
  burn_cpu_ms(600);
  frame_pop(e);
  double per_s = ticks / ((cpu_ns() - start) / 1e9);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  // 100 Hz asked; 103-115 read here, more under load (the timer is
  // checked at the kernel's tick). The bias this catches, profiling
  // signals reaching the handler, read ~800.
  fprintf(stderr, "ticks per CPU-second: %.1f\n", per_s);
  printf("own SIGPROF ticks per CPU-second: %s\n",
         per_s >= 50 && per_s <= 200 ? "50-200" : "out of range");
  if (rt) {
    for (int i = 0; i < 3; ++i)
      raise(SIGRTMAX - 2);
    printf("own SIGRTMAX-2 signals: %d\n", (int)rt_signals);
  }
  frame_pop(d);
  return 0;
}
