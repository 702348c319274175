/* calibration.c - checks the truth harness's calibration (cases/truth.h):
 * does subtracting the mean empty interval (and, in cpu mode, the closing
 * read's measured excess) leave a timed call as long as the same call
 * untimed? A machine fact for the results (run.py prints it).
 *
 * Calls of a ~25 us method, alternately: ten timed one by one and
 * calibrated (TRUTH_CALL, truth_calibrate), then ten timed in one
 * interval, so that the machine's drift (on a shared VM the same work
 * takes +-10% from one millisecond to the next) hits both alike. Prints,
 * per clock, the mean excess of a timed call over an untimed
 * one and its standard error. An excess is either a calibration error or
 * the clock reads slowing the method itself down (cold caches or
 * predictors after a system call: then that time is truly the method's);
 * it is at most this much either way. Also prints the excess with the
 * empty interval alone (no closing-read correction). Longer calls are too
 * noisy here to check this way (+-0.5-0.9 us at 250 us in 2 s); each case
 * prints its rows' measured closing-read excess instead.
 *
 * usage: calibration SECONDS   (per clock; prints lines
 *   "CLOCK excess_ns X se_ns Y empty_ns Z call_us W uncorrected_ns V") */
#include "cases/truth.h"

#include <math.h>

NOINLINE static void sp_probe(long units) { truth_work(units); }

static void check(const char *name, clockid_t clock, double seconds) {
  enum { CALLS = 10 };
  long units = truth_units(25);
  struct truth t;
  memset(&t, 0, sizeof t);
  t.clock = clock;
  int r = truth_row(&t, "probe");
  struct truth_row *row = &t.rows[r];
  double sum = 0, sum2 = 0, whole = 0, uncorrected = 0;
  long blocks = 0;
  uint64_t end = truth_read(CLOCK_MONOTONIC) + (uint64_t)(seconds * 1e9);
  while (truth_read(CLOCK_MONOTONIC) < end) {
    struct truth before = t;
    for (int i = 0; i < CALLS; ++i) {
      truth_calibrate(&t);
      TRUTH_CALL(&t, r, sp_probe(units));
    }
    uint64_t t0 = truth_read(clock);
    for (int i = 0; i < CALLS; ++i)
      sp_probe(units);
    double bulk = (double)(truth_read(clock) - t0);
    /* This block's calibrated calls with this block's own means. */
    double empty = (double)(t.empty_raw_ns - before.empty_raw_ns) /
                   (double)(t.empty_calls - before.empty_calls);
    double late = truth_excess_ns(row->late_read_ns - before.rows[r].late_read_ns,
                                  row->late_reads - before.rows[r].late_reads,
                                  t.empty_late_read_ns - before.empty_late_read_ns,
                                  t.empty_late_reads - before.empty_late_reads);
    double timed = (double)(row->raw_ns - before.rows[r].raw_ns) - CALLS * empty;
    double d = (timed - CALLS * late - bulk) / CALLS;
    sum += d, sum2 += d * d, whole += bulk / CALLS, ++blocks;
    uncorrected += (timed - bulk) / CALLS;
  }
  double mean = sum / blocks, var = sum2 / blocks - mean * mean;
  printf("%s excess_ns %.0f se_ns %.0f empty_ns %.0f call_us %.1f uncorrected_ns %.0f\n",
         name, mean, sqrt(var / blocks), truth_empty_ns(&t), whole / blocks / 1000,
         uncorrected / blocks);
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 2;
  truth_setup_work();
  check("cpu", CLOCK_THREAD_CPUTIME_ID, seconds);
  check("wall", CLOCK_MONOTONIC, seconds);
  return 0;
}
