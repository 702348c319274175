// Threads started with pthread_create are registered automatically (no
// call from the program), each sample records its thread and weighs the
// CPU time since that thread's previous sample; a thread ending through
// pthread_exit is unregistered too. Three threads burn 40, 80 and 120 ms
// of their own CPU: their shares of the weight are 1:2:3. With
// SPINEL_PROFILE_WEIGHT=time the folded file is in microseconds of CPU.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -pthread %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/w.folded SPINEL_PROFILE_WEIGHT=time SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_sprof.py %t/w.folded | FileCheck %s --check-prefix=SPROF
// RUN: %python %inputs/sprof_facts.py thread-shares %t/w.sprof burner 2:0.3 3:0.45 | FileCheck %s --check-prefix=SHARES
// RUN: %python %inputs/folded_facts.py sum %t/w.folded burn 200000 300000 | FileCheck %s --check-prefix=US
// RUN: %python %inputs/sprof_facts.py field %t/w.sprof folded.unit | FileCheck %s --check-prefix=UNIT
//
// OUT: done 3
// SPROF: thread: {{[0-9]+}} burner-
// SPROF: thread: {{[0-9]+}} burner-
// SPROF: thread: {{[0-9]+}} burner-
// SHARES: ok
// US: burn total within 200000..300000
// UNIT: folded.unit microseconds
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

// One per thread: the burners must not share (and race on) one variable.
static _Thread_local volatile uint64_t sink;

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

static void *run(void *arg) {
  int ms = (int)(intptr_t)arg;
  char name[16];
  snprintf(name, sizeof(name), "burner-%d", ms);
  pthread_setname_np(pthread_self(), name);
  burn(ms);
  if (ms == 80)
    pthread_exit(NULL);
  return NULL;
}

int main(void) {
  pthread_t t[3];
  int ms[3] = {40, 80, 120};
  for (int i = 0; i < 3; ++i)
    pthread_create(&t[i], NULL, run, (void *)(intptr_t)ms[i]);
  int joined = 0;
  for (int i = 0; i < 3; ++i)
    joined += pthread_join(t[i], NULL) == 0;
  printf("done %d\n", joined);
  return 0;
}
