/*===- spinel_longjmp.h - The frame of the raise and throw tests -*- C -*-===*
 *
 * Runtime/spinel-raise.c and Runtime/spinel-throw.c are one program with
 * two different chains in the middle: main calls Object#run, which calls
 * the handler (a rescue, a catch) a given number of times; the handler's
 * chain ends in a leaf that burns CPU and then raises or throws; after the
 * loop the handler, and then Object#settle from main, run Object#crunch.
 * This header holds what the two share.
 *
 * The functions are defined by macros that each test expands in its own
 * file: the plugin names a function by where it is defined, and one
 * defined in a header is a runtime helper (kind runtime, C name kept),
 * while these must be the program's own Ruby methods (Object#crunch).
 *===----------------------------------------------------------------------===*/
#ifndef SPINELPROF_TEST_SPINEL_LONGJMP_H
#define SPINELPROF_TEST_SPINEL_LONGJMP_H

#include "sp_runtime.h"

#ifndef BURN_STEPS
#define BURN_STEPS 100
#endif
#ifndef CRUNCH_PER_CYCLE
#define CRUNCH_PER_CYCLE 50
#endif

static mrb_int gv_sink;

/* One dependent mixing step: the work of the leaf and of crunch. */
#define SPINEL_LONGJMP_MIX(X, I)                                               \
  (((X) ^ ((X) >> 7)) * 0x9E3779B97F4A7C15ull + (uint64_t)(I))

/* The leaf that burns (named LEAF: Object#burn, Object#probe), BURN_STEPS
 * steps a call, and Object#crunch, N steps. */
#define SPINEL_LONGJMP_WORK(LEAF)                                              \
  __attribute__((noinline)) static mrb_int LEAF(mrb_int lv_n) {                \
    uint64_t lv_x = (uint64_t)lv_n;                                            \
    for (int lv_i = 0; lv_i < BURN_STEPS; lv_i++)                              \
      lv_x = SPINEL_LONGJMP_MIX(lv_x, lv_i);                                   \
    return (mrb_int)(lv_x >> 40);                                              \
  }                                                                            \
                                                                               \
  __attribute__((noinline)) static mrb_int sp_crunch(mrb_int lv_n) {           \
    uint64_t lv_x = (uint64_t)lv_n;                                            \
    for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)                                \
      lv_x = SPINEL_LONGJMP_MIX(lv_x, lv_i);                                   \
    return (mrb_int)(lv_x >> 40);                                              \
  }

/* Object#run (calls HANDLER(cycles, work) once), Object#settle and main:
 * argv[1] is the number of cycles (default 1000); crunch gets
 * CRUNCH_PER_CYCLE steps per cycle, once from the handler, once from
 * settle. */
#define SPINEL_LONGJMP_MAIN(HANDLER)                                           \
  static mrb_int sp_run(mrb_int lv_cycles, mrb_int lv_work) {                  \
    return HANDLER(lv_cycles, lv_work) + 1;                                    \
  }                                                                            \
                                                                               \
  static mrb_int sp_settle(mrb_int lv_work) { return sp_crunch(lv_work) + 1; } \
                                                                               \
  int main(int argc, char **argv) {                                            \
    mrb_int lv_cycles = argc > 1 ? atoll(argv[1]) : 1000;                      \
    mrb_int lv_work = lv_cycles * CRUNCH_PER_CYCLE;                            \
    gv_sink += sp_run(lv_cycles, lv_work);                                     \
    printf("settle: %lld\n", (long long)sp_settle(lv_work));                   \
    return gv_sink == 42 ? 1 : 0;                                              \
  }

#endif /* SPINELPROF_TEST_SPINEL_LONGJMP_H */
