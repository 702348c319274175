// The copy of the process that writes the profile for SIGTERM (writeInCopy)
// ends when the process is killed while it runs: a copy that hangs (here
// stopped by SIGSTOP while it waits on a FIFO whose reader never reads)
// must not outlive its parent. It is made with PR_SET_PDEATHSIG.
//
// UNSUPPORTED: tsan
// (TSan holds a signal back to the program's next intercepted call, and
// this loop makes none: no copy is made; checked.)
//
// RUN: rm -rf %t && mkdir %t && mkfifo %t/p
// RUN: %clang_prof -O1 %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/p SPINEL_PROFILE_HZ=5000 %python %inputs/fifo_reader.py --stall %t/p %t/got -- %python %inputs/kill_during_copy.py %t/app | FileCheck %s
//
// CHECK: copy ended with its parent
#include <stdint.h>
#include <stdio.h>

static volatile uint64_t sink;

__attribute__((noinline)) static void sp_burn(int n) {
  for (int i = 0; i < n; ++i)
    sink = sink * 6364136223846793005u + 1442695040888963407u;
}

// A stack per depth: the folded profile is tens of KiB, more than the
// FIFO's one page, so the copy waits on it.
__attribute__((noinline)) static void sp_descend(int depth) {
  if (depth == 0) {
    sp_burn(20000);
    return;
  }
  sp_descend(depth - 1);
  sink += 1;
}

int main(void) {
  for (long round = 0;; ++round) {
    for (int depth = 0; depth < 100; ++depth)
      sp_descend(depth);
    if (round == 20) {
      printf("ready\n");
      fflush(stdout);
    }
  }
}
