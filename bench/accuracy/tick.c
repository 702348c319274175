/* tick.c - the kernel's tick as a CPU-time timer sees it: a machine fact
 * for the accuracy results (run.py prints it).
 *
 * Asks setitimer(ITIMER_PROF) for a signal every 100 us of CPU and spins
 * for 0.5 s of CPU. On a kernel that acts on CPU-clock timers only at
 * scheduler ticks, the signals come at the tick rate (250 per CPU-second
 * at CONFIG_HZ=250), whatever was asked. Prints the rate and the median
 * CLOCK_MONOTONIC interval between signals.
 *
 * usage: tick    (prints: "signals_per_cpu_s N median_interval_us M") */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

enum { MAX_SIGNALS = 20000 };
static uint64_t stamps[MAX_SIGNALS];
static volatile int count;
static volatile uint64_t sink;

static uint64_t read_ns(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void on_prof(int sig) {
  (void)sig;
  if (count < MAX_SIGNALS)
    stamps[count++] = read_ns(CLOCK_MONOTONIC);
}

static int compare(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  struct sigaction sa = {0};
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval every = {{0, 100}, {0, 100}};
  uint64_t start = read_ns(CLOCK_PROCESS_CPUTIME_ID), x = 1;
  setitimer(ITIMER_PROF, &every, NULL);
  while (read_ns(CLOCK_PROCESS_CPUTIME_ID) - start < 500000000u)
    for (int i = 0; i < 1000; ++i)
      x = x * 6364136223846793005u + 1442695040888963407u;
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  sink = x;
  double cpu_s = (double)(read_ns(CLOCK_PROCESS_CPUTIME_ID) - start) / 1e9;
  int n = count;
  if (n < 3)
    return 1;
  static uint64_t gaps[MAX_SIGNALS];
  for (int i = 1; i < n; ++i)
    gaps[i - 1] = stamps[i] - stamps[i - 1];
  qsort(gaps, (size_t)(n - 1), sizeof gaps[0], compare);
  printf("signals_per_cpu_s %.0f median_interval_us %.0f\n", n / cpu_s,
         (double)gaps[(n - 1) / 2] / 1000.0);
  return 0;
}
