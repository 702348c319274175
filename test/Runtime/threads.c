// Several threads burning CPU at once: the handler runs on each of them
// (sometimes concurrently, on two cores), samples carry each thread's own
// stack, tid and name, and nothing crashes or is dropped.
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// so samples land there, not where the program was; this test asserts
// where they land.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/t.folded %t/app 2> %t/err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %python %inputs/check_sprof.py %t/t.folded > %t/facts
// RUN: FileCheck %s --check-prefix=SPROF < %t/facts
// RUN: %python %inputs/sprof_facts.py leaf-threads %t/t.sprof 'Worker#burn' 3 | FileCheck %s --check-prefix=TIDS
// RUN: %python %inputs/check_stacks.py %t/t.folded --leaf 'Worker#burn >= 80%%' --root '<main>' --root 'Worker#run' --root '[unknown]'
//
// OUT: joined 4
// ERR: spinelprof: {{[0-9]+}} samples ({{.*}}), 0 dropped,
// SPROF: thread: {{[0-9]+}} worker-
// SPROF: thread: {{[0-9]+}} worker-
// SPROF: thread: {{[0-9]+}} worker-
// SPROF: sample: {{[0-9]+}} {{[0-9]+}} Worker#run;Worker#burn
// SPROF: field: dropped 0
// TIDS: threads with Worker#burn on top: at least 3
#define _GNU_SOURCE
#include "manual_frames.h"
#include <pthread.h>
#include <stdio.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_run, "Worker#run", "sp_Worker_run", SPINELPROF_KIND_USER);
FRAME(f_burn, "Worker#burn", "sp_Worker_burn", SPINELPROF_KIND_USER);

static NOINLINE void burn(void) {
  uint32_t d = frame_push(&f_burn);
  burn_cpu_ms(120);
  frame_pop(d);
}

static void *run(void *arg) {
  char name[16];
  snprintf(name, sizeof(name), "worker-%d", (int)(long)arg);
  pthread_setname_np(pthread_self(), name);
  uint32_t d = frame_push(&f_run);
  burn();
  frame_pop(d);
  return NULL;
}

int main(void) {
  uint32_t d = frame_push(&f_main);
  pthread_t t[4];
  for (long i = 0; i < 4; ++i)
    pthread_create(&t[i], NULL, run, (void *)i);
  int joined = 0;
  for (int i = 0; i < 4; ++i)
    joined += pthread_join(t[i], NULL) == 0;
  frame_pop(d);
  printf("joined %d\n", joined);
  return 0;
}
