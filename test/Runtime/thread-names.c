// A thread's name in the profile is the one the program gave it, even when
// the thread was first sampled before it named itself: the first instant
// is uniform in the first sampling period, so it can come microseconds
// after the thread starts. Each thread here burns 40 ms of its own CPU
// under its inherited name ("app") before pthread_setname_np, so at 1 kHz
// its first sample all but surely comes before the name; named only at
// that sample, both read "app".
// - "late-namer" then burns 40 ms more and ends: renamed when it ends.
// - "still-running" then waits, still alive when the program exits:
//   renamed when sampling stops (from /proc/self/task/TID/comm).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -pthread %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/n.folded SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_sprof.py %t/n.folded | FileCheck %s --check-prefix=SPROF
//
// OUT: named 2
// SPROF-DAG: thread: {{[0-9]+}} late-namer
// SPROF-DAG: thread: {{[0-9]+}} still-running
// SPROF-NOT: thread: {{[0-9]+}} app
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static _Thread_local volatile uint64_t sink;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t named = PTHREAD_COND_INITIALIZER;
static int names_set;

static uint64_t thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

__attribute__((noinline)) static void burn(int ms) {
  uint64_t end = thread_cpu_ns() + (uint64_t)ms * 1000000u;
  while (thread_cpu_ns() < end)
    for (int i = 0; i < 20000; ++i)
      sink = sink * 6364136223846793005u + 1442695040888963407u;
}

static void name_self(const char *name) {
  pthread_setname_np(pthread_self(), name);
  pthread_mutex_lock(&lock);
  ++names_set;
  pthread_cond_broadcast(&named);
  pthread_mutex_unlock(&lock);
}

static void *late_namer(void *arg) {
  (void)arg;
  burn(40);
  name_self("late-namer");
  burn(40);
  return NULL;
}

static void *still_running(void *arg) {
  (void)arg;
  burn(40);
  name_self("still-running");
  for (;;)
    pause(); // Until the process exits.
  return NULL;
}

int main(void) {
  pthread_t late, running;
  pthread_create(&late, NULL, late_namer, NULL);
  pthread_create(&running, NULL, still_running, NULL);
  pthread_join(late, NULL);
  pthread_mutex_lock(&lock);
  while (names_set < 2)
    pthread_cond_wait(&named, &lock);
  pthread_mutex_unlock(&lock);
  printf("named %d\n", names_set);
  return 0;
}
