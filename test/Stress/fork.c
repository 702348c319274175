// Stress: fork in a loop. 50 children, each burning a little CPU and
// exiting with its own status, forked from a parent that is itself being
// sampled at 10 kHz while a second thread burns. Every child writes its own
// profile (%p), every one of them complete and valid; the parent's stdout
// and exit status are those of an unprofiled run.
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call;
// the children's samples land outside every frame, which the stack rules
// refuse.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -pthread -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE_HZ=10000 SPINEL_PROFILE_QUIET=1 timeout 300 %python %inputs/exit_status.py --compare %t/p-%%p.folded %t/app > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: count 0 < %t/err
// RUN: %python %S/Inputs/check_all.py %t 'p-*.folded' 51 --root '<main>' --root 'Burner#run' --root '[unknown]'
//
// OUT: children 50 statuses ok
// OUT-NEXT: exit status: 0
// OUT-NEXT: identical
#define _GNU_SOURCE
#include "burner_thread.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

SPINEL_BURNER_THREAD

__attribute__((noinline)) static int sp_child(int i) {
  sp_burn(200000 + 1000 * i);
  return i % 7;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, sp_Burner_run, NULL);
  int ok = 1;
  for (int i = 0; i < 50; ++i) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
      printf("fork failed\n");
      return 1;
    }
    if (pid == 0)
      exit(sp_child(i));
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != i % 7)
      ok = 0;
  }
  __atomic_store_n(&sp_stop, 1, __ATOMIC_RELAXED);
  pthread_join(t, NULL);
  printf("children 50 statuses %s\n", ok ? "ok" : "BAD");
  return 0;
}
