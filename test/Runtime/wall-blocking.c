// Wall mode samples every registered thread on the wall clock, running or
// blocked; a blocking call made by the program shows as a synthetic leaf
// ("[sleep]", "[blocked poll]", ...) read from outside the blocked thread,
// which never gets a signal. The program checks that every sleep, poll,
// select and epoll_wait lasts as long and returns what it would without
// the profiler (no EINTR, no early return) while a second thread burns CPU,
// in wall mode and in cpu mode, and prints the same as an unprofiled run.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE_MODE=wall SPINEL_PROFILE_HZ=2000 %python %inputs/exit_status.py --compare %t/w.folded %t/app > %t/wall.out 2> %t/wall.err
// RUN: FileCheck %s < %t/wall.out
// RUN: FileCheck %s --check-prefix=ERR < %t/wall.err
// RUN: %python %inputs/check_stacks.py %t/w.folded --path '<main>;wait_a_bit;[sleep] >= 12%%' --path '<main>;wait_a_bit;[blocked poll] >= 3%%' --any '[blocked select] >= 1%%' --any '[blocked epoll_wait] >= 1%%' --path '<main>;spin >= 4%%' --leaf 'burner >= 15%%' --root '<main>' --root burner --root '[unknown]' --root '[blocked write]'
// (stdio's flush at exit writes after main's last pop: a [blocked write]
// root with no frame below it is a true sample.)
// RUN: %python %inputs/check_sprof.py %t/w.folded | FileCheck %s --check-prefix=SPROF
// RUN: env SPINEL_PROFILE_HZ=2000 %python %inputs/exit_status.py --compare %t/c.folded %t/app > %t/cpu.out
// RUN: FileCheck %s < %t/cpu.out
// In cpu mode a sleeping thread uses no CPU: the CPU goes to spin and burner.
// RUN: %python %inputs/check_stacks.py %t/c.folded --leaf 'spin >= 10%%' --leaf 'burner >= 40%%'
//
// CHECK: nanosleep 0 ok
// CHECK-NEXT: poll 0 ok
// CHECK-NEXT: select 0 ok
// CHECK-NEXT: epoll_wait 0 ok
// CHECK-NEXT: usleep 0 ok
// CHECK-NEXT: read 1 ok
// CHECK-NEXT: exit status: 0
// CHECK-NEXT: identical
// ERR: spinelprof: {{[0-9]+}} samples (2000 Hz requested, {{[0-9]+}} Hz achieved, wall clock), 0 dropped
// SPROF: field: mode wall
#define _GNU_SOURCE
#include "manual_frames.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_spin, "spin", "spin", SPINELPROF_KIND_USER);
FRAME(f_wait, "wait_a_bit", "wait_a_bit", SPINELPROF_KIND_USER);
FRAME(f_burner, "burner", "burner", SPINELPROF_KIND_USER);

static int fds[2];

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void *burner(void *arg) {
  (void)arg;
  uint32_t d = frame_push(&f_burner);
  burn_cpu_ms(250);
  frame_pop(d);
  (void)!write(fds[1], "x", 1);
  return NULL;
}

// Whether a call that returned R (errno E) after T ns behaved: the expected
// value, no EINTR, and at least the time asked for.
static int ok(long r, long want, uint64_t t, uint64_t min_ns) {
  return r == want && t >= min_ns;
}

static void report(const char *what, long r, int good) {
  printf("%s %ld %s\n", what, r, good ? "ok" : (errno == EINTR ? "EINTR" : "BAD"));
}

static void wait_a_bit(int round, int *good) {
  uint32_t d = frame_push(&f_wait);
  uint64_t t0 = now_ns();
  struct timespec ts = {0, 60 * 1000 * 1000};
  long r = nanosleep(&ts, NULL);
  good[0] &= ok(r, 0, now_ns() - t0, 60000000u);
  t0 = now_ns();
  r = poll(NULL, 0, 20);
  good[1] &= ok(r, 0, now_ns() - t0, 20000000u);
  t0 = now_ns();
  struct timeval tv = {0, 10000};
  r = select(0, NULL, NULL, NULL, &tv);
  good[2] &= ok(r, 0, now_ns() - t0, 10000000u);
  int ep = epoll_create1(0);
  struct epoll_event ev;
  t0 = now_ns();
  r = epoll_wait(ep, &ev, 1, 10);
  good[3] &= ok(r, 0, now_ns() - t0, 10000000u);
  close(ep);
  t0 = now_ns();
  r = usleep(5000);
  good[4] &= ok(r, 0, now_ns() - t0, 5000000u);
  (void)round;
  frame_pop(d);
}

static void spin(void) {
  uint32_t d = frame_push(&f_spin);
  burn_cpu_ms(25);
  frame_pop(d);
}

int main(void) {
  uint32_t d = frame_push(&f_main);
  if (pipe(fds) != 0)
    return 2;
  pthread_t t;
  pthread_create(&t, NULL, burner, NULL);
  int good[5] = {1, 1, 1, 1, 1};
  for (int round = 0; round < 4; ++round) {
    spin();
    wait_a_bit(round, good);
  }
  report("nanosleep", 0, good[0]);
  report("poll", 0, good[1]);
  report("select", 0, good[2]);
  report("epoll_wait", 0, good[3]);
  report("usleep", 0, good[4]);
  char c;
  ssize_t n = read(fds[0], &c, 1);
  report("read", (long)n, n == 1);
  pthread_join(t, NULL);
  frame_pop(d);
  return 0;
}
