/* syscalls.c - methods that make many short system calls, between methods
 * that make none.
 *
 * The top-level loop calls, in this order, each timed from the loop:
 *   sp_compute       ~0.3 ms of work
 *   sp_write_null    40 one-byte write()s to /dev/null, ~0.5 us of work
 *                    between them
 *   sp_compute_long  ~1 ms of work
 *   sp_getppid       60 syscall(SYS_getppid), ~0.5 us of work between them
 * Time inside a system call is the method's that made it. A sampler whose
 * samples land late, at the thread's next system call or just after it,
 * moves time from the syscall-heavy methods to the ones after them.
 * Rows: the four methods and <rest>.
 *
 * usage: syscalls SECONDS TRUTH_FILE cpu|wall */
#include "truth.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct truth T;
static int null_fd;
static long compute_units, long_units, tiny_units;

NOINLINE static void sp_compute(void) { truth_work(compute_units); }
NOINLINE static void sp_compute_long(void) {
  truth_work(long_units);
  truth_sink ^= 1;
}
NOINLINE static void sp_write_null(void) {
  static const char byte = 'x';
  for (int i = 0; i < 40; ++i) {
    truth_work(tiny_units);
    if (write(null_fd, &byte, 1) != 1)
      abort();
  }
}
NOINLINE static void sp_getppid(void) {
  for (int i = 0; i < 60; ++i) {
    truth_work(tiny_units);
    truth_sink += (uint32_t)syscall(SYS_getppid);
  }
}

int main(int argc, char **argv) {
  double seconds = truth_args(argc, argv, 0);
  truth_begin(&T);
  truth_setup();
  null_fd = open("/dev/null", O_WRONLY);
  if (null_fd < 0)
    return 1;
  int r_compute = truth_row(&T, "sp_compute");
  int r_write = truth_row(&T, "sp_write_null");
  int r_long = truth_row(&T, "sp_compute_long");
  int r_getppid = truth_row(&T, "sp_getppid");
  compute_units = truth_units(300);
  long_units = truth_units(1000);
  tiny_units = truth_units(0.5);
  while (truth_running(&T, seconds)) {
    truth_calibrate(&T);
    TRUTH_CALL(&T, r_compute, sp_compute());
    TRUTH_CALL(&T, r_write, sp_write_null());
    TRUTH_CALL(&T, r_long, sp_compute_long());
    TRUTH_CALL(&T, r_getppid, sp_getppid());
  }
  truth_finish(&T);
  FILE *f = truth_open(argv);
  truth_write_rows(f, &T);
  return fclose(f) != 0;
}
