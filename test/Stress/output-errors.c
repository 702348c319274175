// Stress: the profile cannot be written — an unwritable path, a path that
// is a directory, a filesystem that fills up while the profile is written
// (simulated: every write to a regular file fails with ENOSPC once 1000
// bytes went through; full-filesystem.test does it with a real full
// tmpfs). Three threads, 10 kHz. Each time: stdout and exit status exactly
// as without profiling, one clear line on stderr naming the path and the
// problem, and nothing half-written left behind.
//
// RUN: rm -rf %t && mkdir -p %t/adir %t/out
// RUN: %clang_prof -O1 -pthread %s %rtlib -o %t/app
// The shim is preloaded into unsanitized programs too (timeout, python).
// RUN: %clang -fno-sanitize=all -O1 -shared -fPIC %S/Inputs/short_write.c -o %t/short_write.so
//
// RUN: env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare /proc/spinelprof-none/p.folded %t/app > %t/o1 2> %t/e1
// RUN: FileCheck %s --check-prefix=OUT < %t/o1
// RUN: FileCheck %s --check-prefix=PROC --match-full-lines < %t/e1
// RUN: count 1 < %t/e1
// PROC: spinelprof: cannot write profile '/proc/spinelprof-none/p.folded': {{.+}}; profiling is off
//
// RUN: env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/adir %t/app > %t/o2 2> %t/e2
// RUN: FileCheck %s --check-prefix=OUT < %t/o2
// RUN: FileCheck %s --check-prefix=DIR -DT=%t < %t/e2
// RUN: count 1 < %t/e2
// RUN: ls -A %t/adir | count 0
// DIR: spinelprof: {{.*}}[[T]]/adir{{.*}}
//
// RUN: env SPINEL_PROFILE_HZ=10000 LD_PRELOAD=%t/short_write.so timeout 120 %python %inputs/exit_status.py --compare %t/out/p.folded %t/app > %t/o3 2> %t/e3
// RUN: FileCheck %s --check-prefix=OUT < %t/o3
// RUN: FileCheck %s --check-prefix=FULL -DT=%t < %t/e3
// RUN: count 1 < %t/e3
// RUN: ls -A %t/out | count 0
// FULL: spinelprof: {{.*}}[[T]]/out/p.{{folded|sprof}}{{.*}}No space left on device
//
// OUT: working 3 threads
// OUT-NEXT: done
// OUT-NEXT: exit status: 5
// OUT-NEXT: identical
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

static _Thread_local volatile uint64_t sink; // per thread: no data race

__attribute__((noinline)) static void sp_burn(int n) {
  for (int i = 0; i < n; ++i)
    sink = sink * 6364136223846793005u + 1442695040888963407u;
}

static void *sp_Worker_run(void *arg) {
  for (int i = 0; i < 300; ++i)
    sp_burn(10000 + i);
  return arg;
}

int main(void) {
  printf("working 3 threads\n");
  pthread_t t[3];
  for (int i = 0; i < 3; ++i)
    pthread_create(&t[i], NULL, sp_Worker_run, NULL);
  for (int i = 0; i < 3; ++i)
    pthread_join(t[i], NULL);
  printf("done\n");
  return 5;
}
