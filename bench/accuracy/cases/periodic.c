/* periodic.c - a program that wakes on a fixed period: it sleeps until the
 * next absolute CLOCK_MONOTONIC boundary of PERIOD_US, then calls sp_first
 * (~25% of the period) and sp_second (~25%), each timed from the loop.
 * A period that is a multiple or a fraction of the sampling period (or of
 * the kernel's tick) catches a sampler whose instants lock in phase with
 * the program: it would see only one of the two. A boundary already past
 * when the work ends is skipped (the phase is kept). With "spin" it waits
 * for the boundary by reading CLOCK_MONOTONIC in a loop instead (a frame
 * loop spinning to its deadline): the wait is CPU, of the row <rest>, and
 * a sample's stall in the work shortens it.
 * Rows: sp_first, sp_second, <rest> (the loop; the sleep uses no CPU).
 *
 * usage: periodic SECONDS TRUTH_FILE cpu|wall PERIOD_US [sleep|spin] */
#include "truth.h"

#include <errno.h>

static long first_units, second_units;

NOINLINE static void sp_first(void) { truth_work(first_units); }
NOINLINE static void sp_second(void) {
  truth_work(second_units);
  truth_sink ^= 1;
}

int main(int argc, char **argv) {
  double seconds = truth_args(argc, argv, 1);
  struct truth t;
  truth_begin(&t);
  truth_setup();
  int r_first = truth_row(&t, "sp_first");
  int r_second = truth_row(&t, "sp_second");
  double period_us = atof(argv[4]);
  int spin = argc > 5 && strcmp(argv[5], "spin") == 0;
  uint64_t period_ns = (uint64_t)(period_us * 1000);
  first_units = truth_units(0.25 * period_us);
  second_units = truth_units(0.25 * period_us);
  uint64_t next = truth_read(CLOCK_MONOTONIC), periods = 0, skipped = 0;
  next -= next % period_ns;
  while (truth_running(&t, seconds)) {
    next += period_ns;
    uint64_t now = truth_read(CLOCK_MONOTONIC);
    if (next <= now) {
      uint64_t behind = (now - next) / period_ns + 1;
      skipped += behind;
      next += behind * period_ns;
    }
    struct timespec at = {(time_t)(next / 1000000000), (long)(next % 1000000000)};
    if (spin)
      while (truth_read(CLOCK_MONOTONIC) < next)
        ;
    else
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
        ;
    truth_calibrate(&t);
    TRUTH_CALL(&t, r_first, sp_first());
    TRUTH_CALL(&t, r_second, sp_second());
    ++periods;
  }
  truth_finish(&t);
  FILE *f = truth_open(argv);
  fprintf(f, "meta periods_run %llu\n", (unsigned long long)periods);
  fprintf(f, "meta periods_skipped %llu\n", (unsigned long long)skipped);
  truth_write_rows(f, &t);
  return fclose(f) != 0;
}
