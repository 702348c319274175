// Stress: recursion one million frames deep, on a thread with a 1 GB stack,
// several times over, sampled at 10 kHz. The shadow stack holds 4096
// frames; deeper samples are truncated (counted as such), never written out
// of bounds. No crash; stdout and exit status unchanged; a valid profile
// whose stacks are all a chain of Object#down under Deep#run.
//
// UNSUPPORTED: tsan
// (TSan keeps its own shadow call stack per thread; a million frames deep
// it runs for many minutes.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -pthread %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE_HZ=10000 timeout 300 %python %inputs/exit_status.py --compare %t/d.folded %t/app > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_sprof.py %t/d.folded > %t/facts
// RUN: FileCheck %s --check-prefix=FACTS < %t/facts
// RUN: %python %inputs/check_stacks.py %t/d.folded --rules %s --min-samples 20
//
// OUT: depth 1000000 x 8 sum ok
// OUT-NEXT: exit status: 0
// OUT-NEXT: identical
// ERR: spinelprof: {{[0-9]+}} samples
// FACTS: field: truncated {{[1-9][0-9]*}}
//
// STACKS-ROOT: <main>
// STACKS-ROOT: Deep#run
// STACKS-ROOT: [unknown]
// STACKS: <main> -> [blocked join]
// STACKS: Deep#run -> Object#down
// STACKS: Object#down -> Object#down, [truncated]
// STACKS-ANY: Object#down >= 50%
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

static volatile uint64_t sink;

// A store after the recursive call: with only arithmetic after it, the
// plugin would pop before the call and clang would turn the recursion into
// a loop (docs/design.md, self tail calls). So every level is a real frame.
__attribute__((noinline)) static uint64_t sp_down(uint64_t n) {
  if (n == 0)
    return 0;
  sink += n;
  uint64_t r = sp_down(n - 1);
  sink += r;
  return r + (n & 1);
}

static void *sp_Deep_run(void *arg) {
  uint64_t ok = 1;
  for (int i = 0; i < 8; ++i)
    ok &= sp_down(1000000) == 500000;
  return (void *)(uintptr_t)ok;
}

int main(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)1 << 30);
  pthread_t t;
  if (pthread_create(&t, &attr, sp_Deep_run, NULL) != 0) {
    printf("cannot create the thread\n");
    return 1;
  }
  void *ok;
  pthread_join(t, &ok);
  printf("depth 1000000 x 8 sum %s\n", ok ? "ok" : "BAD");
  return 0;
}
