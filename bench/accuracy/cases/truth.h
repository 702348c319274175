/* truth.h - the timing harness of the ground-truth programs in cases/.
 *
 * The truth is measured from OUTSIDE each method: the caller reads the
 * clock immediately before and after the call (TRUTH_CALL), so the reads
 * are in the caller's frame, never in the measured method. Every loop also
 * times a call to an empty noinline method the same way (truth_calibrate);
 * the mean of those empty intervals (the two clock reads' share inside the
 * interval, a call and a return) is subtracted from every measured call.
 * A row's self time is its calibrated total minus its children's
 * calibrated totals (a row "a;b" is a child of "a"). What no row covers
 * (the loop, the clock reads, start-up of the window) is the row "<rest>":
 * the window (first to last read of the clock in the thread) minus the
 * rows' self times (in a thread, the row of its start routine).
 *
 * The read that ends an interval is not as cheap as the calibration's: a
 * thread-CPU-clock read is a system call, and after a method's work has
 * evicted the kernel's path from the caches it takes longer (here ~0.9 us
 * more after 250 us of truth_work, ~0.1 us after 25 us), half of that
 * before the clock's value is taken, so inside the interval. So in cpu
 * mode each timed call also measures that part of its closing read
 * (truth_late_read: the read's whole cost by CLOCK_MONOTONIC, a vDSO read,
 * less the CPU clock's advance from its value to one more read's), and
 * the call's total is its interval less the empty interval less that
 * read's excess over the calibration's own. The profile samples that time
 * in the clock read, in the caller: without the correction the truth gave
 * it to the method (periodic-1x's <rest> read ~1.15x its truth).
 *
 * Clock: CLOCK_THREAD_CPUTIME_ID in cpu mode, CLOCK_MONOTONIC in wall mode
 * (argv: SECONDS TRUTH_FILE cpu|wall ...). On the 2-vCPU Firecracker VM
 * this was written on, a thread-CPU-clock read is a ~2 us system call.
 *
 * Work the compiler cannot collapse: truth_work(units) walks a random
 * cyclic permutation of a 16 KiB table (one dependent load per unit; the
 * table is filled at run time). truth_check_scaling() times 1x and 4x the
 * units and the program reports the ratio.
 *
 * The truth file (read by run.py), one fact per line:
 *   row KEY SELF_NS CALLS       a row (keys repeat across threads: summed)
 *   meta NAME VALUE             calibration and facts, printed by run.py
 */
#ifndef SPINELPROF_BENCH_TRUTH_H
#define SPINELPROF_BENCH_TRUTH_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

enum { TRUTH_MAX_ROWS = 32, TRUTH_TABLE_SIZE = 4096 };

struct truth_row {
  const char *key;
  uint64_t raw_ns; /* Sum of the measured intervals, uncalibrated. */
  uint64_t calls;
  int64_t late_read_ns; /* Sum of the closing reads' measured excess. */
  uint64_t late_reads;  /* How many were measured (cpu mode). */
  int64_t self_ns; /* Set by truth_finish (and truth_move). */
};

struct truth {
  clockid_t clock;
  int rows_used;
  struct truth_row rows[TRUTH_MAX_ROWS];
  uint64_t empty_raw_ns, empty_calls;
  int64_t empty_late_read_ns; /* The same measure of the empty intervals. */
  uint64_t empty_late_reads;
  uint64_t start_ns, end_ns; /* The window. */
  int64_t rest_ns;
  const char *rest_key; /* The row of what no other row covers: <rest>. */
};

static clockid_t truth_clock_id = CLOCK_THREAD_CPUTIME_ID;
static uint32_t truth_table[TRUTH_TABLE_SIZE];
static volatile uint32_t truth_sink;
static double truth_units_per_us = 1.0;
static double truth_scaling; /* The check's result. */

static inline uint64_t truth_read(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The work: one dependent load per unit, through a table the compiler
 * cannot see into. Inlined into each method that works. */
__attribute__((always_inline)) static inline void truth_work(long units) {
  uint32_t i = truth_sink & (TRUTH_TABLE_SIZE - 1);
  for (long k = 0; k < units; ++k)
    i = truth_table[i];
  truth_sink = i;
}

static inline long truth_units(double us) {
  long u = (long)(us * truth_units_per_us);
  return u > 0 ? u : 1;
}

/* The empty method the calibration calls. */
NOINLINE static void sp_empty(void) { __asm__ volatile("" ::: "memory"); }

/* Cpu mode: the closing read's part inside the interval, as far as it
 * exceeds a warm read's: its whole cost (CLOCK_MONOTONIC from before it,
 * Before, to after it) less the CPU clock's advance from its value, Read,
 * to one more read's (the read's part after its value, plus a warm read's
 * part before). A read preempted (over 50 us) is not measured. Adds the
 * measure to *sum and *n. Wall mode: nothing (a vDSO read). */
static inline void truth_late_read(const struct truth *t, uint64_t before,
                                   uint64_t read, int64_t *sum, uint64_t *n) {
  if (t->clock == CLOCK_MONOTONIC)
    return;
  uint64_t after = truth_read(CLOCK_MONOTONIC);
  uint64_t next = truth_read(t->clock);
  if (after - before < 50000) {
    *sum += (int64_t)(after - before) - (int64_t)(next - read);
    ++*n;
  }
}

/* CLOCK_MONOTONIC before the closing read, in cpu mode (inside the
 * interval, as in the calibration's: the empty interval subtracts it). */
static inline uint64_t truth_before_read(const struct truth *t) {
  return t->clock == CLOCK_MONOTONIC ? 0 : truth_read(CLOCK_MONOTONIC);
}

/* Time a call from outside: the reads are in the calling frame. */
#define TRUTH_CALL(t, row, call)                                               \
  do {                                                                         \
    uint64_t truth_t0_ = truth_read((t)->clock);                              \
    call;                                                                      \
    uint64_t truth_m_ = truth_before_read(t);                                  \
    uint64_t truth_t1_ = truth_read((t)->clock);                              \
    struct truth_row *truth_r_ = &(t)->rows[row];                              \
    truth_r_->raw_ns += truth_t1_ - truth_t0_;                                 \
    truth_r_->calls++;                                                         \
    truth_late_read(t, truth_m_, truth_t1_, &truth_r_->late_read_ns,           \
                    &truth_r_->late_reads);                                    \
  } while (0)

static inline void truth_calibrate(struct truth *t) {
  uint64_t t0 = truth_read(t->clock);
  sp_empty();
  uint64_t m = truth_before_read(t);
  uint64_t t1 = truth_read(t->clock);
  t->empty_raw_ns += t1 - t0;
  t->empty_calls++;
  truth_late_read(t, m, t1, &t->empty_late_read_ns, &t->empty_late_reads);
}

static int truth_row(struct truth *t, const char *key) {
  if (t->rows_used == TRUTH_MAX_ROWS)
    abort();
  t->rows[t->rows_used].key = key;
  return t->rows_used++;
}

static void truth_begin(struct truth *t) {
  memset(t, 0, sizeof *t);
  t->clock = truth_clock_id;
  t->rest_key = "<rest>";
  t->start_ns = truth_read(t->clock);
}

static inline int truth_running(struct truth *t, double seconds) {
  return truth_read(t->clock) - t->start_ns < (uint64_t)(seconds * 1e9);
}

static double truth_empty_ns(const struct truth *t) {
  return t->empty_calls ? (double)t->empty_raw_ns / (double)t->empty_calls : 0;
}

/* The mean closing-read measure of n calls (sum) over the calibration's
 * (empty_sum of empty_n), per call; 0 when either has none. */
static double truth_excess_ns(int64_t sum, uint64_t n, int64_t empty_sum,
                              uint64_t empty_n) {
  if (!n || !empty_n)
    return 0;
  return (double)sum / (double)n - (double)empty_sum / (double)empty_n;
}

/* How much longer a row's closing reads took before their values than
 * the calibration's, per call (0 in wall mode). */
static double truth_late_read_excess_ns(const struct truth *t, int row) {
  const struct truth_row *r = &t->rows[row];
  return truth_excess_ns(r->late_read_ns, r->late_reads,
                         t->empty_late_read_ns, t->empty_late_reads);
}

static int64_t truth_total(const struct truth *t, int row) {
  double per_call = truth_empty_ns(t) + truth_late_read_excess_ns(t, row);
  return (int64_t)t->rows[row].raw_ns -
         (int64_t)((double)t->rows[row].calls * per_call + 0.5);
}

/* The row "a" is the parent of "a;b" (the longest key that is a prefix
 * ending at a ';'). */
static int truth_parent(const struct truth *t, int row) {
  const char *k = t->rows[row].key;
  int best = -1;
  size_t best_len = 0;
  for (int r = 0; r < t->rows_used; ++r) {
    size_t n = strlen(t->rows[r].key);
    if (r != row && n > best_len && strncmp(k, t->rows[r].key, n) == 0 &&
        k[n] == ';') {
      best = r;
      best_len = n;
    }
  }
  return best;
}

/* Ends the window and computes every row's self time and <rest>. */
static void truth_finish(struct truth *t) {
  t->end_ns = truth_read(t->clock);
  for (int r = 0; r < t->rows_used; ++r)
    t->rows[r].self_ns = truth_total(t, r);
  for (int r = 0; r < t->rows_used; ++r) {
    int p = truth_parent(t, r);
    if (p >= 0)
      t->rows[p].self_ns -= truth_total(t, r);
  }
  t->rest_ns = (int64_t)(t->end_ns - t->start_ns);
  for (int r = 0; r < t->rows_used; ++r)
    t->rest_ns -= t->rows[r].self_ns;
}

/* Moves self time from one row to another (a derived split). */
static void truth_move(struct truth *t, int from, int to, int64_t ns) {
  t->rows[from].self_ns -= ns;
  t->rows[to].self_ns += ns;
}

static void truth_write_rows(FILE *f, const struct truth *t) {
  for (int r = 0; r < t->rows_used; ++r)
    fprintf(f, "row %s %lld %llu\n", t->rows[r].key,
            (long long)t->rows[r].self_ns, (unsigned long long)t->rows[r].calls);
  fprintf(f, "row %s %lld 0\n", t->rest_key, (long long)t->rest_ns);
  fprintf(f, "meta empty_interval_ns %.1f\n", truth_empty_ns(t));
  for (int r = 0; r < t->rows_used; ++r)
    if (t->rows[r].late_reads)
      fprintf(f, "meta late_read_ns %s %.1f\n", t->rows[r].key,
              truth_late_read_excess_ns(t, r));
  uint64_t pairs = t->empty_calls;
  for (int r = 0; r < t->rows_used; ++r)
    pairs += t->rows[r].calls;
  fprintf(f, "meta clock_read_pairs %llu\n", (unsigned long long)pairs);
  fprintf(f, "meta window_ns %llu\n",
          (unsigned long long)(t->end_ns - t->start_ns));
}

/* Fills the table with one random cycle (Sattolo), then measures how many
 * units a microsecond of this thread's CPU holds (best of 5). */
static void truth_setup_work(void) {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (uint32_t i = 0; i < TRUTH_TABLE_SIZE; ++i)
    truth_table[i] = i;
  for (uint32_t i = TRUTH_TABLE_SIZE - 1; i > 0; --i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    uint32_t j = (uint32_t)(s % i), x = truth_table[i];
    truth_table[i] = truth_table[j];
    truth_table[j] = x;
  }
  const long n = 1000000;
  double best = 1e18;
  for (int k = 0; k < 5; ++k) {
    uint64_t t0 = truth_read(CLOCK_THREAD_CPUTIME_ID);
    truth_work(n);
    double ns = (double)(truth_read(CLOCK_THREAD_CPUTIME_ID) - t0);
    if (ns < best)
      best = ns;
  }
  truth_units_per_us = 1000.0 * (double)n / best;
}

/* The time of 4x the units over 1x: ~4 if the work really scales (best of
 * 5 of each: the machine is noisy). */
static double truth_check_scaling(void) {
  const long n = 500000;
  double one = 1e18, four = 1e18;
  for (int k = 0; k < 5; ++k) {
    uint64_t t0 = truth_read(CLOCK_THREAD_CPUTIME_ID);
    truth_work(n);
    uint64_t t1 = truth_read(CLOCK_THREAD_CPUTIME_ID);
    truth_work(4 * n);
    uint64_t t2 = truth_read(CLOCK_THREAD_CPUTIME_ID);
    if ((double)(t1 - t0) < one)
      one = (double)(t1 - t0);
    if ((double)(t2 - t1) < four)
      four = (double)(t2 - t1);
  }
  return four / one;
}

/* Prepares the work and checks it scales (in the caller's window: the
 * time is <rest>). */
static void truth_setup(void) {
  truth_setup_work();
  truth_scaling = truth_check_scaling();
}

/* argv: SECONDS TRUTH_FILE cpu|wall [case arguments...]. Sets the clock;
 * returns the seconds. */
static double truth_args(int argc, char **argv, int min_args) {
  if (argc < 4 + min_args) {
    fprintf(stderr, "usage: %s SECONDS TRUTH_FILE cpu|wall%s\n", argv[0],
            min_args ? " ARGS..." : "");
    exit(2);
  }
  if (strcmp(argv[3], "wall") == 0)
    truth_clock_id = CLOCK_MONOTONIC;
  else if (strcmp(argv[3], "cpu") != 0) {
    fprintf(stderr, "%s: clock must be cpu or wall\n", argv[0]);
    exit(2);
  }
  return atof(argv[1]);
}

static FILE *truth_open(char **argv) {
  FILE *f = fopen(argv[2], "w");
  if (!f) {
    perror(argv[2]);
    exit(1);
  }
  fprintf(f, "meta clock %s\n", argv[3]);
  fprintf(f, "meta units_per_us %.1f\n", truth_units_per_us);
  fprintf(f, "meta work_scaling_4x %.2f\n", truth_scaling);
  return f;
}

#endif
