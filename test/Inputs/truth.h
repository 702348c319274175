/*===- truth.h - Ground truth for the runtime's share tests -----*- C -*-===*
 *
 * A test program times each measured method from its caller with the
 * thread's CPU clock (a system call, ~2 us here; or the clock a test names
 * by defining TRUTH_CLOCK first, such as CLOCK_MONOTONIC for wall mode),
 * subtracts the cost of an empty timed call measured the same way, and
 * writes "NAME NANOSECONDS" lines that test/Inputs/check_truth.py
 * compares with the profile. The work cannot be collapsed by the
 * compiler: a walk of a table through data-dependent indexes.
 *===----------------------------------------------------------------------===*/
#ifndef SPINELPROF_TEST_TRUTH_H
#define SPINELPROF_TEST_TRUTH_H

#include "manual_frames.h"

#include <stdio.h>

#ifndef TRUTH_CLOCK
#define TRUTH_CLOCK CLOCK_THREAD_CPUTIME_ID
#endif

static inline uint64_t truth_clock_ns(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline uint64_t truth_cpu_ns(void) {
  return truth_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static unsigned char truth_table[1 << 16];
static volatile uint64_t truth_sink;

/* About 1 ns a unit: a dependent walk through the table. */
static NOINLINE void truth_work(long units) {
  uint64_t x = truth_sink;
  for (long i = 0; i < units; ++i) {
    x = x * 31 + truth_table[(x >> 7) & 0xffff];
    truth_table[x & 0xffff]++;
  }
  truth_sink = x;
}

#define TRUTH_ROWS 8
struct truth {
  const char *name[TRUTH_ROWS];
  uint64_t ns[TRUTH_ROWS], calls[TRUTH_ROWS];
  uint64_t empty_ns, empty_calls;
};

static NOINLINE void truth_empty(void) { __asm__ volatile(""); }

/* Times Call from outside as row Row, and an empty call the same way. */
#define TRUTH_CALL(T, Row, Call)                                               \
  do {                                                                         \
    uint64_t t0_ = truth_clock_ns(TRUTH_CLOCK);                                \
    Call;                                                                      \
    uint64_t t1_ = truth_clock_ns(TRUTH_CLOCK);                                \
    truth_empty();                                                             \
    uint64_t t2_ = truth_clock_ns(TRUTH_CLOCK);                                \
    (T)->ns[Row] += t1_ - t0_;                                                 \
    (T)->calls[Row]++;                                                         \
    (T)->empty_ns += t2_ - t1_;                                                \
    (T)->empty_calls++;                                                        \
  } while (0)

/* Writes each row's time less the empty call's mean. */
static inline int truth_write(const struct truth *T, const char *Path) {
  FILE *F = fopen(Path, "w");
  if (!F)
    return 1;
  double empty = T->empty_calls ? (double)T->empty_ns / T->empty_calls : 0;
  for (int I = 0; I < TRUTH_ROWS; ++I)
    if (T->name[I]) {
      double ns = (double)T->ns[I] - empty * (double)T->calls[I];
      fprintf(F, "%s %.0f\n", T->name[I], ns > 0 ? ns : 0);
    }
  fprintf(F, "#empty_ns %.0f\n", empty);
  return fclose(F) != 0;
}

#endif /* SPINELPROF_TEST_TRUTH_H */
