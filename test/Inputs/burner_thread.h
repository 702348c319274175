/*===- burner_thread.h - Threads that burn CPU until told to stop -*- C -*-===*
 *
 * Stress/fork.c and Stress/signals.c sample a program whose other threads
 * burn CPU: SPINEL_BURNER_THREAD defines Object#burn (N steps of a
 * per-thread linear congruential generator) and Burner#run (burns until
 * sp_stop is set), to start with pthread_create(..., sp_Burner_run, NULL).
 * Set sp_stop with __atomic_store_n(&sp_stop, 1, __ATOMIC_RELAXED).
 *
 * A macro that the test expands in its own file: the plugin names a
 * function by where it is defined, and one defined in a header would be a
 * runtime helper (C name, kind runtime), not the Ruby method Burner#run.
 *===----------------------------------------------------------------------===*/
#ifndef SPINELPROF_TEST_BURNER_THREAD_H
#define SPINELPROF_TEST_BURNER_THREAD_H

#include <pthread.h>
#include <stdint.h>

#define SPINEL_BURNER_THREAD                                                   \
  static int sp_stop; /* atomic loads and stores: no data race */             \
  static _Thread_local volatile uint64_t sink; /* per thread: no data race */ \
                                                                               \
  __attribute__((noinline)) static void sp_burn(int n) {                       \
    for (int i = 0; i < n; ++i)                                                \
      sink = sink * 6364136223846793005u + 1442695040888963407u;               \
  }                                                                            \
                                                                               \
  static void *sp_Burner_run(void *arg) {                                      \
    while (!__atomic_load_n(&sp_stop, __ATOMIC_RELAXED))                       \
      sp_burn(10000);                                                          \
    return arg;                                                                \
  }

#endif /* SPINELPROF_TEST_BURNER_THREAD_H */
