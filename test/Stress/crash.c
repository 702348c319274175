// Stress: programs that crash, sampled at 10 kHz, each run unprofiled and
// profiled (exit_status.py --compare): the profiled run dies of the same
// signal, prints the same stdout, and leaves a valid profile holding the
// samples taken before the crash (the summary line says after which
// signal), and nothing else: no temporary file, no core from the copy
// that writes it. The crash comes
//   main      on the main thread of a one-thread program (SIGSEGV);
//   thread    in one of three burning threads, main in pthread_join
//             (after 20 ms of its own work: a thread that never used a
//             sampling period of CPU has no sample in cpu mode, and the
//             profile is checked to hold all four threads);
//   abort     from abort() in one of those threads (SIGABRT);
//   two       in two threads at once: one writes, the other waits and
//             dies of its own fault;
//   fiber     inside a fiber (ucontext, a 64 KiB mmap'd stack);
//   gc        in the GC's mark phase, on a corrupt reference;
//   overflow  by unbounded recursion on the main thread's stack;
//   fiberflow by unbounded recursion on a fiber's 64 KiB stack (a guard
//             page below it), caught on the thread's alternate stack.
// And a fault, or a hang, while the profile is written after the crash
// (SPINEL_PROFILE_TEST_CRASH_WRITE, a test hook of the writer): the copy
// that writes ends (killed after 5 s if it hangs), the program still dies
// of its own SIGSEGV, one line says the profile was lost, and no file at
// all is left.
//
// UNSUPPORTED: asan, tsan
// (Their runtimes own the crash signals: the profiler stands aside,
// test/Runtime/crash-sanitizer.c.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 -pthread %s %rtlib -o %t/app
// RUN: cd %t && env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/main.folded %t/app main > %t/main.out 2> %t/main.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/main.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV < %t/main.err
// RUN: %python %inputs/check_sprof.py %t/main.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/main.folded --rules %s --any 'Object#work >= 80%%' --min-samples 1000
//
// RUN: cd %t && env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/thread.folded %t/app thread > %t/thread.out 2> %t/thread.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/thread.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV < %t/thread.err
// RUN: %python %inputs/check_sprof.py %t/thread.folded | FileCheck %s --check-prefix=THREADS
// RUN: %python %inputs/check_stacks.py %t/thread.folded --rules %s --any 'Worker#run >= 80%%' --min-samples 1000
//
// RUN: cd %t && env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/abort.folded %t/app abort > %t/abort.out 2> %t/abort.err
// RUN: FileCheck %s --check-prefix=ABRT < %t/abort.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGABRT < %t/abort.err
// RUN: %python %inputs/check_sprof.py %t/abort.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/abort.folded --rules %s --any 'Worker#run >= 80%%' --min-samples 1000
//
// RUN: cd %t && env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/two.folded %t/app two > %t/two.out 2> %t/two.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/two.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV < %t/two.err
// RUN: %python %inputs/check_sprof.py %t/two.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/two.folded --rules %s --any 'Worker#run >= 80%%' --min-samples 1000
//
// RUN: cd %t && env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/fiber.folded %t/app fiber > %t/fiber.out 2> %t/fiber.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/fiber.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV < %t/fiber.err
// RUN: %python %inputs/check_sprof.py %t/fiber.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/fiber.folded --rules %s --path '<main>;run_fiber;Fiber#resume;[fiber];Object#fiber_trampoline;fiber in run_fiber;Object#work >= 80%%' --min-samples 1000
//
// RUN: cd %t && env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/gc.folded %t/app gc > %t/gc.out 2> %t/gc.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/gc.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV < %t/gc.err
// RUN: %python %inputs/check_sprof.py %t/gc.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/gc.folded --rules %s --any 'sp_gc_mark >= 50%%' --min-samples 1000
//
// RUN: cd %t && env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/overflow.folded %t/app overflow > %t/overflow.out 2> %t/overflow.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/overflow.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV < %t/overflow.err
// RUN: %python %inputs/check_sprof.py %t/overflow.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/overflow.folded --rules %s --any 'Object#work >= 50%%' --min-samples 1000
//
// RUN: cd %t && env SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/fiberflow.folded %t/app fiberflow > %t/fiberflow.out 2> %t/fiberflow.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/fiberflow.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV < %t/fiberflow.err
// RUN: %python %inputs/check_sprof.py %t/fiberflow.folded > /dev/null
// RUN: %python %inputs/check_stacks.py %t/fiberflow.folded --rules %s --any 'Object#work >= 50%%' --min-samples 1000
//
// Nothing but the profiles: no temporary file, no core.
// RUN: ls %t | FileCheck %s --check-prefix=FILES --implicit-check-not=tmp --implicit-check-not=core
//
// RUN: rm -rf %t/w && mkdir %t/w && cd %t/w
// RUN: env SPINEL_PROFILE_TEST_CRASH_WRITE=fault SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/w/fault.folded %t/app main > %t/fault.out 2> %t/fault.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/fault.out
// RUN: FileCheck %s --check-prefix=LOST < %t/fault.err
// RUN: env SPINEL_PROFILE_TEST_CRASH_WRITE=hang SPINEL_PROFILE_HZ=10000 timeout 120 %python %inputs/exit_status.py --compare %t/w/hang.folded %t/app thread > %t/hang.out 2> %t/hang.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/hang.out
// RUN: FileCheck %s --check-prefix=LOST < %t/hang.err
// RUN: ls -A %t/w | count 0
//
// SEGV: started
// SEGV-NEXT: signal: 11
// SEGV-NEXT: identical
// ABRT: started
// ABRT-NEXT: signal: 6
// ABRT-NEXT: identical
// ERR: spinelprof: {{[0-9]+}} samples ({{.*}}), {{.*}}, wrote {{.*}}.folded (after [[SIG]])
// ERR-NOT: spinelprof
// LOST: spinelprof: the profile could not be written after SIGSEGV
// LOST-NOT: spinelprof
// THREADS: ok: {{.*}}, 4 threads
// FILES-DAG: abort.folded
// FILES-DAG: fiber.folded
// FILES-DAG: fiberflow.folded
// FILES-DAG: gc.folded
// FILES-DAG: main.folded
// FILES-DAG: overflow.folded
// FILES-DAG: thread.folded
// FILES-DAG: two.folded
//
// STACKS-ROOT: <main>
// STACKS-ROOT: Worker#run
// STACKS-ROOT: [unknown]
// STACKS: <main> -> Object#work, Object#crash, Object#down, run_threads, run_fiber, Object#churn
// STACKS: Object#work -> Object#process_cpu_ns
// STACKS: Object#down -> Object#down, [truncated]
// STACKS: run_threads -> [blocked join]
// STACKS: Worker#run -> Object#work, Object#crash
// STACKS: run_fiber -> Fiber.new, Fiber#resume
// STACKS: Fiber#resume -> [fiber]
// STACKS: [fiber] -> Object#fiber_trampoline
// STACKS: Object#fiber_trampoline -> fiber in run_fiber
// STACKS: fiber in run_fiber -> Object#work, Object#crash, Object#down, Fiber.yield
// STACKS: Object#churn -> Node.new, sp_gc_collect, Object#process_cpu_ns
// STACKS: Node.new -> sp_gc_alloc
// STACKS: sp_gc_collect -> sp_gc_mark
// STACKS: sp_gc_mark -> sp_gc_mark
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

static volatile uint64_t sink;
static int *volatile sp_null;

static uint64_t sp_process_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// Burns `ms` milliseconds of the process's CPU time (shared by threads
// burning at once).
__attribute__((noinline)) static void sp_work(unsigned ms) {
  uint64_t end = sp_process_cpu_ns() + (uint64_t)ms * 1000000u;
  while (sp_process_cpu_ns() < end)
    for (int i = 0; i < 20000; ++i)
      sink = sink * 6364136223846793005u + 1442695040888963407u;
}

__attribute__((noinline)) static void sp_crash(void) { *sp_null = 1; }

// Unbounded: a store after the call keeps every level a real frame.
__attribute__((noinline)) static uint64_t sp_down(uint64_t n) {
  volatile char pad[256];
  pad[0] = (char)n;
  uint64_t r = sp_down(n + 1);
  sink += r + (uint64_t)pad[0];
  return r;
}

// Threads.
static pthread_barrier_t start_line, crash_line;
static int crashers; // How many workers crash (the others burn on).
static int abort_instead;

static void *sp_Worker_run(void *arg) {
  int id = (int)(intptr_t)arg;
  pthread_barrier_wait(&start_line);
  sp_work(300);
  if (id < crashers) {
    pthread_barrier_wait(&crash_line); // The crashers fault together.
    if (abort_instead)
      abort();
    sp_crash();
  }
  for (;;)
    sp_work(100);
  return 0;
}

static void run_threads(int n_crashers, int abort_) {
  crashers = n_crashers;
  abort_instead = abort_;
  pthread_barrier_init(&start_line, 0, 4);
  pthread_barrier_init(&crash_line, 0, (unsigned)n_crashers);
  pthread_t t[3];
  for (intptr_t i = 0; i < 3; ++i)
    pthread_create(&t[i], 0, sp_Worker_run, (void *)i);
  pthread_barrier_wait(&start_line);
  pthread_join(t[0], 0);
}

// Fibers: 64 KiB mmap'd stacks, a guard page below each.
typedef struct sp_Fiber {
  ucontext_t ctx;
  ucontext_t caller;
  void (*body)(void);
} sp_Fiber;
static sp_Fiber *sp_fiber_current;
static int fiber_overflow;

static void sp_fiber_trampoline(void) { sp_fiber_current->body(); }

__attribute__((noinline)) static void sp_Fiber_new(sp_Fiber *f, void (*body)(void)) {
  getcontext(&f->ctx);
  char *stack = mmap(NULL, 4096 + 65536, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  mprotect(stack, 4096, PROT_NONE);
  f->ctx.uc_stack.ss_sp = stack + 4096;
  f->ctx.uc_stack.ss_size = 65536;
  f->ctx.uc_link = &f->caller;
  f->body = body;
  makecontext(&f->ctx, sp_fiber_trampoline, 0);
}

__attribute__((noinline)) static void sp_Fiber_resume(sp_Fiber *f) {
  sp_Fiber *prev = sp_fiber_current;
  sp_fiber_current = f;
  swapcontext(&f->caller, &f->ctx);
  sp_fiber_current = prev;
}

__attribute__((noinline)) static void sp_Fiber_cls_yield(void) {
  sp_Fiber *f = sp_fiber_current;
  swapcontext(&f->ctx, &f->caller);
}

static void _fiber_body_1(void) {
  for (int i = 0; i < 30; ++i) {
    sp_work(10);
    sp_Fiber_cls_yield();
  }
  if (fiber_overflow)
    sp_down(0);
  sp_crash();
}

static void run_fiber(int overflow) {
  static sp_Fiber f;
  fiber_overflow = overflow;
  sp_Fiber_new(&f, _fiber_body_1);
  for (;;)
    sp_Fiber_resume(&f);
}

// A GC in the shape of Spinel's: mark recurses through the object graph;
// one reference is corrupt, and marking it faults.
typedef struct sp_Node {
  struct sp_Node *left, *right;
  int marked;
} sp_Node;
static sp_Node *nodes[4096];
static int n_nodes;

__attribute__((noinline)) static void sp_gc_mark(sp_Node *n) {
  if (!n || n->marked)
    return;
  n->marked = 1;
  sp_gc_mark(n->left);
  sp_gc_mark(n->right);
}

__attribute__((noinline)) static void sp_gc_collect(void) {
  for (int i = 0; i < n_nodes; ++i)
    nodes[i]->marked = 0;
  for (int r = 0; r < 50; ++r) {
    for (int i = 0; i < n_nodes; ++i)
      nodes[i]->marked = 0;
    sp_gc_mark(nodes[0]);
  }
}

__attribute__((noinline)) static sp_Node *sp_gc_alloc(void) {
  return calloc(1, sizeof(sp_Node));
}

__attribute__((noinline)) static sp_Node *sp_Node_new(sp_Node *l, sp_Node *r) {
  sp_Node *n = sp_gc_alloc();
  n->left = l;
  n->right = r;
  return n;
}

__attribute__((noinline)) static void sp_churn(void) {
  // A balanced tree of 4095 nodes.
  for (int i = 4094; i >= 0; --i) {
    sp_Node *l = 2 * i + 1 < 4095 ? nodes[2 * i + 1] : 0;
    sp_Node *r = 2 * i + 2 < 4095 ? nodes[2 * i + 2] : 0;
    nodes[i] = sp_Node_new(l, r);
  }
  n_nodes = 4095;
  uint64_t end = sp_process_cpu_ns() + 300000000u;
  while (sp_process_cpu_ns() < end)
    sp_gc_collect();
  nodes[4094]->left = (sp_Node *)(uintptr_t)16; // Corrupt.
  sp_gc_collect();
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "main";
  printf("started\n");
  fflush(stdout);
  printf("never flushed\n");
  if (strcmp(how, "main") == 0) {
    sp_work(300);
    sp_crash();
  } else if (strcmp(how, "thread") == 0) {
    sp_work(20);
    run_threads(1, 0);
  } else if (strcmp(how, "abort") == 0) {
    sp_work(20);
    run_threads(1, 1);
  } else if (strcmp(how, "two") == 0) {
    sp_work(20);
    run_threads(2, 0);
  } else if (strcmp(how, "fiber") == 0) {
    run_fiber(0);
  } else if (strcmp(how, "fiberflow") == 0) {
    run_fiber(1);
  } else if (strcmp(how, "gc") == 0) {
    sp_churn();
  } else if (strcmp(how, "overflow") == 0) {
    sp_work(300);
    sp_down(0);
  }
  printf("survived %s\n", how);
  return 0;
}
