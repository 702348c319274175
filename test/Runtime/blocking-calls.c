// Profiling never cuts a blocking call short. While a second thread burns
// CPU (so SIGPROF is being sent), the main thread sleeps, polls and reads a
// pipe; none of those calls returns early with EINTR. (SA_RESTART covers
// read; nanosleep and poll are never restarted, so this relies on the
// CPU-time timer signalling the thread that is running.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/b.folded SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s
// RUN: %python %inputs/check_stacks.py %t/b.folded --leaf 'burner >= 80%%' --min-samples 10
//
// CHECK: nanosleep: 0
// CHECK-NEXT: poll: 0
// CHECK-NEXT: read: 1
#include "manual_frames.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_burner, "burner", "burner", SPINELPROF_KIND_USER);

static int fds[2];

static void *burner(void *arg) {
  (void)arg;
  uint32_t d = frame_push(&f_burner);
  burn_cpu_ms(300);
  frame_pop(d);
  (void)!write(fds[1], "x", 1);
  return NULL;
}

int main(void) {
  uint32_t d = frame_push(&f_main);
  if (pipe(fds) != 0)
    return 2;
  pthread_t t;
  pthread_create(&t, NULL, burner, NULL);
  struct timespec ts = {0, 100 * 1000 * 1000};
  int r = nanosleep(&ts, NULL);
  printf("nanosleep: %d%s\n", r, r ? (errno == EINTR ? " EINTR" : " error") : "");
  r = poll(NULL, 0, 50);
  printf("poll: %d%s\n", r, r < 0 && errno == EINTR ? " EINTR" : "");
  char c;
  ssize_t n = read(fds[0], &c, 1);
  printf("read: %zd%s\n", n, n < 0 && errno == EINTR ? " EINTR" : "");
  pthread_join(t, NULL);
  frame_pop(d);
  return 0;
}
