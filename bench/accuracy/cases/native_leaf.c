/* native_leaf.c - a method that spends most of its time in a library
 * function (memchr), in many short calls.
 *
 * The top-level loop calls, in this order, each timed from the loop:
 *   sp_mixed        1000 times: memchr over 8 KiB (the byte is absent, so
 *                   it reads all of it: ~50 ns here, from L1) then a few
 *                   ns of own work (register arithmetic)
 *   sp_memchr_only  the same 1000 memchr calls, nothing else
 *   sp_own_only     the same 1000 steps of own work, no memchr
 *   sp_glue_only    1000 times the caller's code around each call (the
 *                   next address from truth_sink, a compare and a volatile
 *                   add of the result), no call between
 * A profile shows sp_mixed's memchr time as a leaf "[native] ..." above
 * sp_mixed (row sp_mixed;[native]) and the rest, its own code and the glue
 * around each call, as sp_mixed's self time: the glue is sp_mixed's code,
 * and a profiler reading the PC finds it there.
 *
 * How the split of sp_mixed is measured (from outside, no clock read in
 * it): memchr's time per call is sp_memchr_only's less sp_glue_only's (the
 * same glue and loop without the call), times sp_mixed's calls; sp_mixed's
 * self time is the rest of its measured time. Without the glue's part the
 * truth gave the glue to memchr: on an AMD EPYC host ~1 pp of the total,
 * by gperftools' PCs (bench/accuracy/results/2026-11-28-closing-reads.md).
 * sp_memchr_only is one row, its glue and memchr together (its split is
 * not measured); sp_own_only has no native calls. The split assumes the
 * times add up (memchr's result feeds the glue, the glue the own code and
 * the own code the next call's address, so they do not overlap); run.py
 * prints the check: sp_mixed's self time minus sp_own_only's and
 * sp_glue_only's, which would be 0, in pp of the total.
 * Rows: sp_mixed, sp_mixed;[native], sp_memchr_only, sp_own_only,
 * sp_glue_only, <rest>.
 *
 * usage: native_leaf SECONDS TRUTH_FILE cpu|wall */
#include "truth.h"

enum { CALLS = 1000, BUFFER = 8192 };

static struct truth T;
static unsigned char buffer[BUFFER];
/* The buffer, byte and size are read through volatiles at every call, so
 * the compiler can neither hoist the calls out of the loop nor shorten
 * them. */
static unsigned char *volatile haystack = buffer;
static volatile int needle = 0xff;
static volatile size_t length = BUFFER;

/* The own code: a few ns of register arithmetic (no memory, so it does not
 * compete with memchr for the cache), continuing the chain through
 * truth_sink that memchr's result feeds and the next call's address reads. */
__attribute__((always_inline)) static inline void own_code(void) {
  uint64_t x = truth_sink;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  x *= 0x94D049BB133111EBull;
  truth_sink = (uint32_t)(x >> 48) & 0xff;
}

NOINLINE static void sp_mixed(void) {
  for (int i = 0; i < CALLS; ++i) {
    truth_sink += (memchr(haystack + (truth_sink >> 16), needle, length) != NULL);
    own_code();
  }
}
NOINLINE static void sp_memchr_only(void) {
  for (int i = 0; i < CALLS; ++i)
    truth_sink += (memchr(haystack + (truth_sink >> 16), needle, length) != NULL);
}
NOINLINE static void sp_own_only(void) {
  for (int i = 0; i < CALLS; ++i) {
    own_code();
  }
}
/* The glue of sp_memchr_only's loop without the call: the pointer passes
 * through an empty asm, so the compiler neither folds the compare nor
 * drops the add (it adds 0, as memchr's absent byte does). */
NOINLINE static void sp_glue_only(void) {
  for (int i = 0; i < CALLS; ++i) {
    unsigned char *p = haystack + (truth_sink >> 16);
    __asm__ volatile("" : "+r"(p));
    truth_sink += (p == NULL);
  }
}

/* A row's self time per step (per call of memchr or of the glue). */
static double per_step_ns(int row) {
  return (double)T.rows[row].self_ns / ((double)T.rows[row].calls * CALLS);
}

int main(int argc, char **argv) {
  double seconds = truth_args(argc, argv, 0);
  truth_begin(&T);
  truth_setup();
  memset(buffer, 'a', sizeof buffer);
  int r_mixed = truth_row(&T, "sp_mixed");
  int r_native = truth_row(&T, "sp_mixed;[native]");
  int r_memchr = truth_row(&T, "sp_memchr_only");
  int r_own = truth_row(&T, "sp_own_only");
  int r_glue = truth_row(&T, "sp_glue_only");
  while (truth_running(&T, seconds)) {
    truth_calibrate(&T);
    TRUTH_CALL(&T, r_mixed, sp_mixed());
    TRUTH_CALL(&T, r_memchr, sp_memchr_only());
    TRUTH_CALL(&T, r_own, sp_own_only());
    TRUTH_CALL(&T, r_glue, sp_glue_only());
  }
  truth_finish(&T);
  /* memchr's share of sp_mixed: sp_memchr_only's time per call less the
   * glue's. */
  double per_call = per_step_ns(r_memchr) - per_step_ns(r_glue);
  int64_t native = (int64_t)(per_call * (double)T.rows[r_mixed].calls * CALLS);
  truth_move(&T, r_mixed, r_native, native);
  FILE *f = truth_open(argv);
  fprintf(f, "meta memchr_call_ns %.1f\n", per_call);
  fprintf(f, "meta own_only_ns %lld\n", (long long)T.rows[r_own].self_ns);
  fprintf(f, "meta glue_only_ns %lld\n", (long long)T.rows[r_glue].self_ns);
  fprintf(f, "meta mixed_self_ns %lld\n", (long long)T.rows[r_mixed].self_ns);
  truth_write_rows(f, &T);
  return fclose(f) != 0;
}
