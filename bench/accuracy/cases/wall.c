/* wall.c - wall-clock profile of a loop that computes, then sleeps.
 *
 * The top-level loop calls, in this order, each timed from the loop with
 * CLOCK_MONOTONIC (run it with the clock argument "wall" and
 * SPINEL_PROFILE_MODE=wall):
 *   sp_compute  COMPUTE_US of work
 *   sp_nap      nanosleep for NAP_US (continued after an interruption)
 * Rows: sp_compute, sp_nap (its "[sleep]" leaf included), <rest>.
 *
 * usage: wall SECONDS TRUTH_FILE wall COMPUTE_US NAP_US */
#include "truth.h"

#include <errno.h>

static long compute_units;
static struct timespec nap;

NOINLINE static void sp_compute(void) { truth_work(compute_units); }
NOINLINE static void sp_nap(void) {
  struct timespec left = nap;
  while (nanosleep(&left, &left) != 0 && errno == EINTR)
    ;
}

int main(int argc, char **argv) {
  double seconds = truth_args(argc, argv, 2);
  struct truth t;
  truth_begin(&t);
  truth_setup();
  int r_compute = truth_row(&t, "sp_compute");
  int r_nap = truth_row(&t, "sp_nap");
  compute_units = truth_units(atof(argv[4]));
  long nap_ns = (long)(atof(argv[5]) * 1000);
  nap.tv_sec = nap_ns / 1000000000;
  nap.tv_nsec = nap_ns % 1000000000;
  while (truth_running(&t, seconds)) {
    truth_calibrate(&t);
    TRUTH_CALL(&t, r_compute, sp_compute());
    TRUTH_CALL(&t, r_nap, sp_nap());
  }
  truth_finish(&t);
  FILE *f = truth_open(argv);
  truth_write_rows(f, &t);
  return fclose(f) != 0;
}
