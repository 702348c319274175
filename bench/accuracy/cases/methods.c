/* methods.c - plain compute methods, and one callee whose cost depends on
 * its caller.
 *
 * The top-level loop calls, in this order, each timed from the loop:
 *   sp_step    ~0.1 ms of work
 *   sp_light   calls sp_shared 20 times cheaply (~25 us each)
 *   sp_scan    ~1 ms of work
 *   sp_heavy   calls sp_shared 5 times dearly (~200 us each)
 * sp_light and sp_heavy time each sp_shared call themselves (the reads are
 * their own self time). Rows: sp_step, sp_scan, sp_light, sp_light;sp_shared,
 * sp_heavy, sp_heavy;sp_shared, <rest>. Call counts (all gprof knows about
 * a callee's callers) would give sp_light 80% of sp_shared's time; the
 * truth is about 1/3.
 *
 * usage: methods SECONDS TRUTH_FILE cpu|wall */
#include "truth.h"

static struct truth T;
static int R_STEP, R_SCAN, R_LIGHT, R_LIGHT_SHARED, R_HEAVY, R_HEAVY_SHARED;
static long step_units, scan_units, cheap_units, dear_units;

NOINLINE static void sp_step(void) { truth_work(step_units); }
NOINLINE static void sp_scan(void) { truth_work(scan_units); }
NOINLINE static void sp_shared(long units) {
  truth_work(units);
  truth_sink ^= 1;
}
NOINLINE static void sp_light(void) {
  for (int i = 0; i < 20; ++i)
    TRUTH_CALL(&T, R_LIGHT_SHARED, sp_shared(cheap_units));
}
NOINLINE static void sp_heavy(void) {
  for (int i = 0; i < 5; ++i)
    TRUTH_CALL(&T, R_HEAVY_SHARED, sp_shared(dear_units));
}

int main(int argc, char **argv) {
  double seconds = truth_args(argc, argv, 0);
  truth_begin(&T);
  truth_setup();
  R_STEP = truth_row(&T, "sp_step");
  R_LIGHT = truth_row(&T, "sp_light");
  R_LIGHT_SHARED = truth_row(&T, "sp_light;sp_shared");
  R_SCAN = truth_row(&T, "sp_scan");
  R_HEAVY = truth_row(&T, "sp_heavy");
  R_HEAVY_SHARED = truth_row(&T, "sp_heavy;sp_shared");
  step_units = truth_units(100);
  scan_units = truth_units(1000);
  cheap_units = truth_units(25);
  dear_units = truth_units(200);
  while (truth_running(&T, seconds)) {
    truth_calibrate(&T);
    TRUTH_CALL(&T, R_STEP, sp_step());
    TRUTH_CALL(&T, R_LIGHT, sp_light());
    TRUTH_CALL(&T, R_SCAN, sp_scan());
    TRUTH_CALL(&T, R_HEAVY, sp_heavy());
  }
  truth_finish(&T);
  FILE *f = truth_open(argv);
  truth_write_rows(f, &T);
  return fclose(f) != 0;
}
