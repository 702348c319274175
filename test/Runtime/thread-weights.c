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
// RUN: %python -c "import json,sys; p = json.load(open(sys.argv[1])); w = sorted(t['weight_ns'] for t in p['threads'] if t['name'].startswith('burner')); print('shares', ' '.join('%%.1f' %% (x / w[0]) for x in w), 'ok' if len(w) == 3 and abs(w[1] / w[0] - 2) < 0.3 and abs(w[2] / w[0] - 3) < 0.45 else 'BAD')" %t/w.sprof | FileCheck %s --check-prefix=SHARES
// RUN: %python -c "import json,sys; us = sum(int(l.split()[-1]) for l in open(sys.argv[1]) if 'burn' in l); print('burn us', 'ok' if 200000 <= us <= 300000 else us, json.load(open(sys.argv[2]))['folded']['unit'])" %t/w.folded %t/w.sprof | FileCheck %s --check-prefix=US
//
// OUT: done 3
// SPROF: thread: {{[0-9]+}} burner-
// SPROF: thread: {{[0-9]+}} burner-
// SPROF: thread: {{[0-9]+}} burner-
// SHARES: ok
// US: burn us ok microseconds
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
