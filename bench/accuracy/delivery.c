/* delivery.c - how late a thread's own timer signal reaches it: a machine
 * fact for the accuracy results (run.py prints it).
 *
 * The sampler's design (docs/design.md, "Sampling"): each thread owns a
 * POSIX timer on CLOCK_MONOTONIC whose signal goes to that thread
 * (SIGEV_THREAD_ID), armed one instant at a time with TIMER_ABSTIME. This
 * program does the same while the thread spins, N times, each instant 50
 * us ahead, and reads CLOCK_MONOTONIC first thing in the handler: the
 * delay from the instant to the handler is when the stack and PC a sample
 * reads are taken, and the program runs on through it.
 *
 * usage: delivery [N]   (prints: "p10 A p50 B p90 C p99 D us, N signals") */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t handled_ns;
static volatile int handled;

static uint64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void on_timer(int sig, siginfo_t *info, void *context) {
  (void)sig, (void)info, (void)context;
  handled_ns = mono_ns();
  handled++;
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2000;
  if (n < 100)
    n = 100;
  uint64_t *delay = calloc((size_t)n, sizeof *delay);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_timer;
  action.sa_flags = SA_SIGINFO;
  sigaction(SIGRTMAX - 2, &action, NULL);
  struct sigevent event;
  memset(&event, 0, sizeof event);
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGRTMAX - 2;
  event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  timer_t timer;
  if (!delay || timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) {
    perror("delivery: timer_create");
    return 1;
  }
  volatile double spin = 1;
  for (int i = 0; i < n; ++i) {
    int before = handled;
    uint64_t due = mono_ns() + 50000;
    struct itimerspec at = {{0, 0}, {(time_t)(due / 1000000000u), (long)(due % 1000000000u)}};
    timer_settime(timer, TIMER_ABSTIME, &at, NULL);
    while (handled == before)
      spin *= 1.0000001;
    delay[i] = handled_ns - due;
  }
  qsort(delay, (size_t)n, sizeof *delay, by_value);
  printf("p10 %.1f p50 %.1f p90 %.1f p99 %.1f us, %d signals\n", delay[n / 10] / 1e3,
         delay[n / 2] / 1e3, delay[n * 9 / 10] / 1e3, delay[n * 99 / 100] / 1e3, n);
  return 0;
}
