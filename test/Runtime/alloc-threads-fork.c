// Allocation samples per thread, and in fork children. Two threads
// allocate 700 and 300 objects, the main thread 100 (rate 1: exact); the
// profile keeps them apart by thread. A fork child writes its own
// allocation profile (f.<pid>.alloc.folded) with only its own 50
// allocations; the parent's has none of them.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O2 -pthread -I%examples %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/f.folded SPINEL_PROFILE_QUIET=1 SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_ALLOC_RATE=1 %t/app > %t/out
// RUN: %python %inputs/alloc_stacks.py %t/f.alloc.sprof | FileCheck %s --check-prefix=PARENT --implicit-check-not=child
// RUN: %python %inputs/alloc_stacks.py %t/f.alloc.sprof --by-thread | FileCheck %s --check-prefix=THREADS
// RUN: %python %inputs/child_profile.py %t/out '%t/f.{pid}.alloc.sprof' %inputs/alloc_stacks.py | FileCheck %s --check-prefix=CHILD
//
// PARENT: {{^}}<main>;Object#work;Foo.new;alloc Foo objects=100 bytes=1600{{$}}
// PARENT-NEXT: {{^}}Object#worker;Object#work;Foo.new;alloc Foo objects=1000 bytes=16000{{$}}
// PARENT-NEXT: total objects=1100 bytes=17600
// THREADS: thread objects=700 bytes=11200
// THREADS-NEXT: thread objects=300 bytes=4800
// THREADS-NEXT: thread objects=100 bytes=1600
// CHILD: {{^}}<main>;Object#child_work;Object#work;Foo.new;alloc Foo objects=50 bytes=800{{$}}
// CHILD-NEXT: total objects=50 bytes=800
#include "sp_runtime.h"

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct sp_Foo {
  struct sp_Foo *iv_next;
  mrb_int iv_v;
} sp_Foo;

/* The miniature GC is not thread-safe: one allocator at a time. */
static pthread_mutex_t gc_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile mrb_int sink;

static sp_Foo *sp_Foo_new(mrb_int lv_v) {
  sp_Foo *self = (sp_Foo *)sp_gc_alloc(sizeof(sp_Foo), NULL, NULL);
  self->iv_v = lv_v;
  return self;
}

static void sp_work(mrb_int lv_n) {
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    pthread_mutex_lock(&gc_lock);
    sink += sp_Foo_new(lv_i)->iv_v;
    pthread_mutex_unlock(&gc_lock);
  }
}

static void *sp_worker(void *arg) {
  sp_work((mrb_int)(intptr_t)arg);
  return NULL;
}

static void sp_child_work(mrb_int lv_n) { sp_work(lv_n); }

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, sp_worker, (void *)(intptr_t)700);
  pthread_create(&b, NULL, sp_worker, (void *)(intptr_t)300);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  sp_work(100);
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    sp_child_work(50);
    exit(0);
  }
  int status;
  waitpid(child, &status, 0);
  printf("child %d exited %d\n", (int)child, WEXITSTATUS(status));
  return 0;
}
