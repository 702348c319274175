/* depthbench.c DEPTH COUNT: recurses until the shadow stack is DEPTH frames
 * deep (main, DEPTH-2 frames of sp_descend, sp_spin), then sends itself
 * SIGPROF COUNT times and prints the thread CPU time per signal in ns.
 * SIGPROF has an empty handler (the profiler's own signal is another);
 * with the profiler on, each signal comes with one sample taken exactly as
 * the profiler's handler takes one (__spinelprof_bench_sample: clock
 * reads, a stack of DEPTH frames recorded, the next instant armed), so on -
 * off is the cost of one sample at that depth, and off alone is what the
 * kernel charges to deliver a signal. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void empty_handler(int sig) { (void)sig; }

/* Defined by the runtime (weak: the benchmark also links without it). */
extern int __spinelprof_bench_sample(void) __attribute__((weak));

static uint64_t thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static double sp_spin(long lv_count) {
  struct sigaction cur;
  sigaction(SIGPROF, NULL, &cur);
  if (cur.sa_handler == SIG_DFL || cur.sa_handler == SIG_IGN) {
    struct sigaction act = {0};
    act.sa_handler = empty_handler;
    sigaction(SIGPROF, &act, NULL);
  }
  pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid);
  uint64_t t0 = thread_cpu_ns();
  for (long lv_i = 0; lv_i < lv_count; lv_i++) {
    if (__spinelprof_bench_sample)
      (void)__spinelprof_bench_sample();
    syscall(SYS_tgkill, pid, tid, SIGPROF);
  }
  return (double)(thread_cpu_ns() - t0) / (double)lv_count;
}

__attribute__((noinline)) static double sp_descend(long lv_depth, long lv_count) {
  if (lv_depth <= 0)
    return sp_spin(lv_count);
  double r = sp_descend(lv_depth - 1, lv_count);
  return r + 0.0 * (double)lv_depth;
}

int main(int argc, char **argv) {
  long depth = argc > 1 ? atol(argv[1]) : 50;
  long count = argc > 2 ? atol(argv[2]) : 100000;
  printf("%.1f\n", sp_descend(depth - 3, count));
  return 0;
}
