/* What fibers cost: a push and pop per call, and the runtime's work
 * around each swapcontext (copying the suspended context's frames out of
 * the thread's shadow stack and the resumed one's back in, O(depth)).
 *
 * usage: switch_cost [ITERATIONS]   (run it with the runtime linked; the
 * switch figures compare SPINEL_PROFILE=0, where the wrappers only forward,
 * with profiling on). Prints ns per call and ns per switch at three depths
 * of the resuming context. */
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

/* A push and pop as the plugin emits them (abi.h). */
__attribute__((noinline)) static void push_pop(void) {
  struct spinelprof_shadow_stack *s = &__spinelprof_stack;
  uint32_t d = s->depth;
  store_frame(s, d);
  sink = 1;
  __atomic_store_n(&s->depth, d, __ATOMIC_RELEASE);
}

static ucontext_t main_ctx, fiber_ctx;

static void fiber_body(void) {
  for (;;)
    swapcontext(&fiber_ctx, &main_ctx);
}

/* Best of 7 passes of Rounds round trips, with Depth frames pushed. */
static double switch_ns(long rounds, uint32_t depth) {
  struct spinelprof_shadow_stack *s = &__spinelprof_stack;
  uint32_t base = s->depth;
  for (uint32_t d = base; d < base + depth; ++d)
    store_frame(s, d);
  double best = 1e9;
  for (int rep = 0; rep < 7; ++rep) {
    uint64_t t0 = now_ns();
    for (long i = 0; i < rounds; ++i)
      swapcontext(&main_ctx, &fiber_ctx);
    double x = (double)(now_ns() - t0) / (double)(2 * rounds);
    best = x < best ? x : best;
  }
  __atomic_store_n(&s->depth, base, __ATOMIC_RELEASE);
  return best;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000000L;
  void (*fns[2])(void) = {plain, push_pop};
  const char *names[2] = {"call, no push", "call + push/pop"};
  /* The best of 7 passes of each: the machine may be busy. */
  double ns[2] = {1e9, 1e9};
  for (int rep = 0; rep < 7; ++rep)
    for (int f = 0; f < 2; ++f) {
      uint64_t t0 = now_ns();
      for (long i = 0; i < n / 7; ++i)
        fns[f]();
      double x = (double)(now_ns() - t0) / (double)(n / 7);
      ns[f] = x < ns[f] ? x : ns[f];
    }
  for (int f = 0; f < 2; ++f)
    printf("%-40s %6.2f ns\n", names[f], ns[f]);

  getcontext(&fiber_ctx);
  fiber_ctx.uc_stack.ss_sp = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  fiber_ctx.uc_stack.ss_size = 65536;
  fiber_ctx.uc_link = &main_ctx;
  makecontext(&fiber_ctx, fiber_body, 0);
  const uint32_t depths[3] = {0, 64, 1024};
  for (int k = 0; k < 3; ++k) {
    char label[64];
    snprintf(label, sizeof label, "swapcontext, per switch, depth %u",
             depths[k]);
    printf("%-40s %6.1f ns\n", label, switch_ns(n / 500, depths[k]));
  }
  return 0;
}
