// Runtime and plugin together: a leaf with no calls that burns the time is
// the leaf of most samples at -O0 and -O2 (at -O2 a non-volatile push would
// be deleted by dead-store elimination and the leaf would vanish), and the
// descriptors the plugin emits come out in the .sprof with file and line.
// The leaf has a loop, so the default policy gives it a push (a loop-free
// leaf would be PC-named instead: plugin-pc-named-leaf.c).
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// so samples land there, not where the program was; this test asserts
// where they land.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O2 %s %rtlib -o %t/app-O2
// RUN: %clang_prof -O0 %s %rtlib -o %t/app-O0
// RUN: env SPINEL_PROFILE=%t/o2.folded SPINEL_PROFILE_QUIET=1 %t/app-O2 | FileCheck %s --check-prefix=OUT
// RUN: env SPINEL_PROFILE=%t/o0.folded SPINEL_PROFILE_QUIET=1 %t/app-O0 | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/o2.folded --leaf 'hot_leaf >= 70%%' --path '<main>;work;hot_leaf >= 70%%' --min-samples 20
// RUN: %python %inputs/check_stacks.py %t/o0.folded --leaf 'hot_leaf >= 70%%' --min-samples 20
// RUN: %python %inputs/check_sprof.py %t/o2.folded | FileCheck %s
//
// OUT: done 1
// CHECK: frame: user <main>|main|{{.*}}plugin-hot-leaf.c|{{[1-9][0-9]*}}
// CHECK: frame: user work|work|{{.*}}plugin-hot-leaf.c|{{[1-9][0-9]*}}
// CHECK: frame: user hot_leaf|hot_leaf|{{.*}}plugin-hot-leaf.c|{{[1-9][0-9]*}}
#include <stdio.h>
#include <time.h>

static volatile double sink;

static unsigned long long cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (unsigned long long)t.tv_sec * 1000000000u + t.tv_nsec;
}

__attribute__((noinline)) static void hot_leaf(int n) {
  double x = 0;
  for (int i = 0; i < n; ++i)
    x += i * 0.5;
  sink += x;
}

__attribute__((noinline)) static void cold_leaf(int n) {
  double x = 0;
  for (int i = 0; i < n; ++i)
    x += i * 0.25;
  sink += x;
}

__attribute__((noinline)) static void work(void) {
  // About 0.25 s of CPU whatever the optimisation level: 9 parts hot, 1
  // cold. The clock (a system call) is read every 8 rounds, so that its
  // own share stays small at -O2 and under sanitizers alike: this test is
  // about the leaf, truth-syscalls.c about system calls.
  unsigned long long end = cpu_ns() + 250000000ull;
  do {
    for (int i = 0; i < 8; ++i) {
      hot_leaf(90000);
      cold_leaf(10000);
    }
  } while (cpu_ns() < end);
}

int main(void) {
  work();
  printf("done %d\n", sink > 0);
  return 0;
}
