/*===- manual_frames.h - Hand-written push/pop for runtime tests -*- C -*-===*
 *
 * The runtime tests push and pop frames by hand, exactly as abi.h says the
 * plugin does, so that they test the runtime alone. Also small helpers to
 * burn a given amount of CPU time.
 *===----------------------------------------------------------------------===*/
#ifndef SPINELPROF_TEST_MANUAL_FRAMES_H
#define SPINELPROF_TEST_MANUAL_FRAMES_H

#include "spinelprof/abi.h"

#include <stdint.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

/* A static frame descriptor named VAR. */
#define FRAME(VAR, NAME, C_NAME, KIND)                                         \
  static const struct spinelprof_frame_descriptor VAR = {                      \
      SPINELPROF_ABI_VERSION, KIND, __LINE__, 0, NAME, C_NAME, "manual.c"}

/* Push: load depth, store the slot (clamped into the sink slot), then the
 * depth, in that order (abi.h). */
static inline uint32_t frame_push(const struct spinelprof_frame_descriptor *d) {
  uint32_t depth = __spinelprof_stack.depth;
  uint32_t slot =
      depth < SPINELPROF_STACK_CAPACITY ? depth : SPINELPROF_STACK_CAPACITY;
  /* Atomic stores (plain moves on x86-64), ordered for the thread's own
   * signal handler by the fences. */
  __atomic_store_n((const struct spinelprof_frame_descriptor *volatile *)&__spinelprof_stack
                       .frames[slot], d, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_RELEASE);
  __atomic_store_n((volatile uint32_t *)&__spinelprof_stack.depth, depth + 1,
                   __ATOMIC_RELEASE);
  return depth;
}

/* Pop: restore the depth saved at entry. */
static inline void frame_pop(uint32_t saved) {
  __atomic_signal_fence(__ATOMIC_RELEASE);
  __atomic_store_n((volatile uint32_t *)&__spinelprof_stack.depth, saved,
                   __ATOMIC_RELEASE);
}

static inline uint64_t process_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Spins until the process has used `ms` more milliseconds of CPU (so
 * threads burning at once share the budget). It polls the process CPU
 * clock, never the thread clock: on this kernel, a thread that reads its own
 * CPU clock thousands of times a second while the CPU is contended is
 * rarely the running task at a scheduler tick, so the tick-driven
 * ITIMER_PROF misses most of its samples. */
static inline uint64_t burn_cpu_ms(unsigned ms) {
  uint64_t end = process_cpu_ns() + (uint64_t)ms * 1000000u;
  volatile uint64_t x = 1;
  while (process_cpu_ns() < end)
    for (int i = 0; i < 20000; ++i)
      x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

#endif /* SPINELPROF_TEST_MANUAL_FRAMES_H */
