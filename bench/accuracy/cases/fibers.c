/* fibers.c - methods that run inside fibers (ucontext: makecontext,
 * swapcontext, as Spinel's Fiber runtime does).
 *
 * Two fibers, each with its own 64 KiB mmap'd stack, and the main loop.
 * Each fiber body loops: call its method, timed from the body, then yield
 * back to main. The main loop resumes fiber 1, resumes fiber 2, then calls
 * its own method, timed from the loop:
 *   sp_work_a     ~200 us of work, in fiber 1 (_fiber_body_1)
 *   sp_work_b     ~500 us of work, in fiber 2 (_fiber_body_2)
 *   sp_work_main  ~300 us of work, on the main stack
 * All on one thread, one CPU clock. Rows: the three methods and <rest>
 * (the loops, the clock reads and the four switches per round, ~1.3 us
 * each: glibc's swapcontext makes a sigprocmask system call).
 *
 * usage: fibers SECONDS TRUTH_FILE cpu|wall */
#include "truth.h"

#include <sys/mman.h>
#include <ucontext.h>

enum { FIBER_STACK = 65536 };

struct sp_Fiber {
  ucontext_t context, caller;
};

static struct truth T;
static int R_A, R_B, R_MAIN;
static long a_units, b_units, main_units;
static struct sp_Fiber fiber1, fiber2;

NOINLINE static void sp_work_a(void) { truth_work(a_units); }
NOINLINE static void sp_work_b(void) {
  truth_work(b_units);
  truth_sink ^= 1;
}
NOINLINE static void sp_work_main(void) {
  truth_work(main_units);
  truth_sink ^= 2;
}

NOINLINE static void sp_Fiber_resume(struct sp_Fiber *f) {
  swapcontext(&f->caller, &f->context);
}
NOINLINE static void sp_Fiber_yield(struct sp_Fiber *f) {
  swapcontext(&f->context, &f->caller);
}

NOINLINE static void _fiber_body_1(void) {
  for (;;) {
    TRUTH_CALL(&T, R_A, sp_work_a());
    sp_Fiber_yield(&fiber1);
  }
}
NOINLINE static void _fiber_body_2(void) {
  for (;;) {
    TRUTH_CALL(&T, R_B, sp_work_b());
    sp_Fiber_yield(&fiber2);
  }
}

static int sp_Fiber_new(struct sp_Fiber *f, void (*body)(void)) {
  void *stack = mmap(NULL, FIBER_STACK, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack == MAP_FAILED || getcontext(&f->context) != 0)
    return -1;
  f->context.uc_stack.ss_sp = stack;
  f->context.uc_stack.ss_size = FIBER_STACK;
  f->context.uc_link = &f->caller;
  makecontext(&f->context, body, 0);
  return 0;
}

int main(int argc, char **argv) {
  double seconds = truth_args(argc, argv, 0);
  truth_begin(&T);
  truth_setup();
  R_A = truth_row(&T, "sp_work_a");
  R_B = truth_row(&T, "sp_work_b");
  R_MAIN = truth_row(&T, "sp_work_main");
  a_units = truth_units(200);
  b_units = truth_units(500);
  main_units = truth_units(300);
  if (sp_Fiber_new(&fiber1, _fiber_body_1) != 0 ||
      sp_Fiber_new(&fiber2, _fiber_body_2) != 0)
    return 1;
  while (truth_running(&T, seconds)) {
    truth_calibrate(&T);
    sp_Fiber_resume(&fiber1);
    sp_Fiber_resume(&fiber2);
    TRUTH_CALL(&T, R_MAIN, sp_work_main());
  }
  truth_finish(&T);
  FILE *f = truth_open(argv);
  truth_write_rows(f, &T);
  return fclose(f) != 0;
}
