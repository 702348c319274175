/* What fibers cost: the extra load a push makes (the stack in use is
 * &__spinelprof_stack + __spinelprof_stack_offset), and the runtime's work
 * around each swapcontext (switching shadow stacks).
 *
 * usage: switch_cost [ITERATIONS]   (run it with the runtime linked; the
 * switch figures compare SPINEL_PROFILE=0, where the wrappers only forward,
 * with profiling on). Prints ns per call and ns per switch. */
#define _GNU_SOURCE
#include "spinelprof/abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

static const struct spinelprof_frame_descriptor frame = {
    SPINELPROF_ABI_VERSION, SPINELPROF_KIND_USER, 0, 0, "f", "f", ""};
static volatile int sink;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline void store_frame(struct spinelprof_shadow_stack *s, uint32_t d) {
  *(const struct spinelprof_frame_descriptor *volatile *)&s->frames[
      d < SPINELPROF_STACK_CAPACITY ? d : SPINELPROF_STACK_CAPACITY] = &frame;
  __atomic_store_n(&s->depth, d + 1, __ATOMIC_RELEASE);
}

__attribute__((noinline)) static void plain(void) { sink = 1; }

/* The push and pop before fibers: the thread's own stack. */
__attribute__((noinline)) static void push_own(void) {
  struct spinelprof_shadow_stack *s = &__spinelprof_stack;
  uint32_t d = s->depth;
  store_frame(s, d);
  sink = 1;
  __atomic_store_n(&s->depth, d, __ATOMIC_RELEASE);
}

/* As the plugin emits it now: own stack + offset. */
__attribute__((noinline)) static void push_offset(void) {
  struct spinelprof_shadow_stack *s =
      (struct spinelprof_shadow_stack *)((char *)&__spinelprof_stack +
                                         __spinelprof_stack_offset);
  uint32_t d = s->depth;
  store_frame(s, d);
  sink = 1;
  __atomic_store_n(&s->depth, d, __ATOMIC_RELEASE);
}

static ucontext_t main_ctx, fiber_ctx;
static long rounds;
/* Best of 7 passes of N/7 calls, and of 7 passes of N/500 round trips. */

static void fiber_body(void) {
  for (;;)
    swapcontext(&fiber_ctx, &main_ctx);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000000L;
  void (*fns[3])(void) = {plain, push_own, push_offset};
  const char *names[3] = {"call, no push", "call + push/pop (own stack)",
                          "call + push/pop (own stack + offset)"};
  /* The best of 7 passes of each: the machine may be busy. */
  double ns[3] = {1e9, 1e9, 1e9};
  for (int rep = 0; rep < 7; ++rep)
    for (int f = 0; f < 3; ++f) {
      uint64_t t0 = now_ns();
      for (long i = 0; i < n / 7; ++i)
        fns[f]();
      double x = (double)(now_ns() - t0) / (double)(n / 7);
      ns[f] = x < ns[f] ? x : ns[f];
    }
  for (int f = 0; f < 3; ++f)
    printf("%-40s %6.2f ns\n", names[f], ns[f]);
  printf("%-40s %+6.2f ns\n", "offset load, per call", ns[2] - ns[1]);

  getcontext(&fiber_ctx);
  fiber_ctx.uc_stack.ss_sp = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  fiber_ctx.uc_stack.ss_size = 65536;
  fiber_ctx.uc_link = &main_ctx;
  makecontext(&fiber_ctx, fiber_body, 0);
  rounds = n / 500;
  double per_switch = 1e9;
  for (int rep = 0; rep < 7; ++rep) {
    uint64_t t0 = now_ns();
    for (long i = 0; i < rounds; ++i)
      swapcontext(&main_ctx, &fiber_ctx);
    double x = (double)(now_ns() - t0) / (double)(2 * rounds);
    per_switch = x < per_switch ? x : per_switch;
  }
  printf("%-40s %6.1f ns\n", "swapcontext, per switch", per_switch);
  return 0;
}
