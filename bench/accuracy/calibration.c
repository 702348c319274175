/* calibration.c - checks the truth harness's calibration (cases/truth.h):
 * does subtracting the mean empty interval leave a timed call as long as
 * the same call untimed? A machine fact for the results (run.py prints it).
 *
 * Calls of a ~25 us method, alternately: ten timed one by one and
 * calibrated (TRUTH_CALL, truth_calibrate), then ten timed in one interval,
 * so that the machine's drift (on a shared VM the same work takes +-10%
 * from one millisecond to the next) hits both alike. Prints, per clock, the
 * mean excess of a timed call over an untimed one and its standard error.
 * An excess is either a calibration error or the clock reads slowing the
 * method itself down (cold caches or predictors after a system call: then
 * that time is truly the method's); it is at most this much either way.
 *
 * usage: calibration SECONDS   (per clock; prints lines
 *   "CLOCK excess_ns X se_ns Y empty_ns Z call_us W") */
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
  double sum = 0, sum2 = 0, whole = 0;
  long blocks = 0;
  uint64_t end = truth_read(CLOCK_MONOTONIC) + (uint64_t)(seconds * 1e9);
  while (truth_read(CLOCK_MONOTONIC) < end) {
    uint64_t raw0 = t.rows[r].raw_ns, empty0 = t.empty_raw_ns, n0 = t.empty_calls;
    for (int i = 0; i < CALLS; ++i) {
      truth_calibrate(&t);
      TRUTH_CALL(&t, r, sp_probe(units));
    }
    uint64_t t0 = truth_read(clock);
    for (int i = 0; i < CALLS; ++i)
      sp_probe(units);
    double bulk = (double)(truth_read(clock) - t0);
    /* This block's calibrated calls with this block's own empty mean. */
    double empty = (double)(t.empty_raw_ns - empty0) / (double)(t.empty_calls - n0);
    double timed = (double)(t.rows[r].raw_ns - raw0) - CALLS * empty;
    double d = (timed - bulk) / CALLS;
    sum += d, sum2 += d * d, whole += bulk / CALLS, ++blocks;
  }
  double mean = sum / blocks, var = sum2 / blocks - mean * mean;
  printf("%s excess_ns %.0f se_ns %.0f empty_ns %.0f call_us %.1f\n", name, mean,
         sqrt(var / blocks), truth_empty_ns(&t), whole / blocks / 1000);
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 2;
  truth_setup_work();
  check("cpu", CLOCK_THREAD_CPUTIME_ID, seconds);
  check("wall", CLOCK_MONOTONIC, seconds);
  return 0;
}
