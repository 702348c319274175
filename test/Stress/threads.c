// Stress: 32 threads burning CPU at once, while main creates and joins
// short-lived threads in a loop (2000 of them, 8 alive at a time), sampled
// at the default rate and at 10 kHz. No crash or hang; stdout and exit
// status as without profiling; a complete, valid profile; no impossible
// stack: every thread's frames hang off its own start routine.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -pthread %s %rtlib -o %t/app
// RUN: timeout 300 %python %inputs/exit_status.py --compare %t/a.folded %t/app > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_sprof.py %t/a.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/a.folded --rules %s --min-samples 100
// RUN: env SPINEL_PROFILE_HZ=10000 timeout 300 %python %inputs/exit_status.py --compare %t/b.folded %t/app > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_sprof.py %t/b.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/b.folded --rules %s --min-samples 1000
//
// OUT: burners 32 short-lived 2000 checksum ok
// OUT-NEXT: exit status: 0
// OUT-NEXT: identical
// ERR: spinelprof: {{[0-9]+}} samples
//
// STACKS-ROOT: <main>
// STACKS-ROOT: Worker#run
// STACKS-ROOT: Object#short_lived
// STACKS-ROOT: [unknown]
// STACKS: <main> -> Object#churn, Object#now_ns, [blocked join], [blocked *], [sleep]
// STACKS: Object#churn -> [blocked join]
// STACKS: Worker#run -> Worker#burn
// STACKS: Object#short_lived -> Worker#burn
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int sp_stop; // atomic loads and stores: no data race
static uint64_t sp_sums[32];

static uint64_t sp_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

__attribute__((noinline)) static uint64_t sp_Worker_burn(uint64_t x, int n) {
  for (int i = 0; i < n; ++i)
    x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

static void *sp_Worker_run(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg;
  while (!__atomic_load_n(&sp_stop, __ATOMIC_RELAXED))
    x = sp_Worker_burn(x, 20000);
  sp_sums[(uintptr_t)arg] = x | 1;
  return NULL;
}

static void *sp_short_lived(void *arg) {
  return (void *)(uintptr_t)(sp_Worker_burn((uint64_t)(uintptr_t)arg, 2000) | 1);
}

__attribute__((noinline)) static int sp_churn(int n) {
  int made = 0;
  pthread_t t[8];
  for (int i = 0; i < n; i += 8) {
    for (int j = 0; j < 8; ++j)
      if (pthread_create(&t[j], NULL, sp_short_lived, (void *)(uintptr_t)(i + j)) != 0)
        return -1;
    for (int j = 0; j < 8; ++j) {
      void *r;
      pthread_join(t[j], &r);
      made += r != NULL;
    }
  }
  return made;
}

int main(void) {
  pthread_t burners[32];
  for (int i = 0; i < 32; ++i)
    pthread_create(&burners[i], NULL, sp_Worker_run, (void *)(uintptr_t)i);
  uint64_t start = sp_now_ns();
  int made = sp_churn(2000);
  // The burners run for at least a second in all.
  while (sp_now_ns() - start < 1000000000u)
    made += sp_churn(8) - 8;
  __atomic_store_n(&sp_stop, 1, __ATOMIC_RELAXED);
  int ok = 1;
  for (int i = 0; i < 32; ++i) {
    pthread_join(burners[i], NULL);
    ok &= sp_sums[i] != 0;
  }
  printf("burners 32 short-lived %d checksum %s\n", made, ok ? "ok" : "BAD");
  return 0;
}
