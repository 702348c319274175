/* A program in Spinel's C shape whose true CPU split is known: it measures
 * it itself, with its thread's CPU clock around every slice of work.
 *
 * Five kinds of work, interleaved in slices of about half a millisecond in
 * a pseudo-random order, each under its own stack:
 *   <main>;sp_phase_a            a plain loop
 *   <main>;sp_phase_b            another, twice as long per slice
 *   <main>;sp_phase_c;sp_mix     a loop in a callee
 *   <main>;sp_light;sp_shared    1000 cheap calls of sp_shared (100 steps)
 *   <main>;sp_heavy;sp_shared    50 costly ones (2000 steps): the same work
 *                                per slice, but call counts (all gprof
 *                                knows about the callee's callers) give
 *                                sp_light 95% of sp_shared's time
 * The slices' CPU time is summed per stack. Each slice reads the clock at
 * its own end, inside its own frame: a profiling signal that reaches the
 * thread only at that syscall (late, see README.md) was sent during the
 * slice, and is charged to it.
 *
 * usage: accuracy SECONDS THREADS TRUTH_FILE
 * Each of THREADS threads (named acc-0, acc-1, ...; one thread: the main
 * thread does the work) burns SECONDS of CPU with its own mix of the five,
 * then the truth is written: "thread NAME STACK NANOSECONDS" lines. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PHASE_A, PHASE_B, PHASE_C, LIGHT, HEAVY, KINDS };
static const char *const stack_names[KINDS + 1] = {
    "<main>;sp_phase_a", "<main>;sp_phase_b", "<main>;sp_phase_c",
    "<main>;sp_light", "<main>;sp_heavy", "<main>"};

static double seconds;
static int thread_count;

struct worker {
  int index;
  uint64_t stamp; /* The thread's CPU clock at the end of the last slice. */
  char name[16];
  uint64_t truth_ns[KINDS + 1];
  volatile uint64_t sink;
};

static uint64_t thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define SPIN(w, n)                                                             \
  do {                                                                         \
    uint64_t x_ = (w)->sink;                                                   \
    for (long i_ = 0; i_ < (n); ++i_)                                          \
      x_ = x_ * 6364136223846793005u + 1442695040888963407u;                   \
    (w)->sink = x_;                                                            \
  } while (0)
#define END_SLICE(w) ((w)->stamp = thread_cpu_ns())

__attribute__((noinline)) static void sp_phase_a(struct worker *w, long n) {
  SPIN(w, n);
  END_SLICE(w);
}
__attribute__((noinline)) static void sp_phase_b(struct worker *w, long n) {
  SPIN(w, 2 * n);
  END_SLICE(w);
}
__attribute__((noinline)) static void sp_mix(struct worker *w, long n) {
  SPIN(w, n);
}
__attribute__((noinline)) static void sp_phase_c(struct worker *w, long n) {
  sp_mix(w, n);
  w->sink ^= 1;
  END_SLICE(w);
}
/* The callee whose cost depends on its caller. (Not the same code as
 * sp_mix, or a linker folding identical code would merge them.) */
__attribute__((noinline)) static void sp_shared(struct worker *w, long n) {
  uint64_t x = w->sink;
  for (long i = 0; i < n; ++i)
    x = x * 2862933555777941757u + 3037000493u;
  w->sink = x;
}
__attribute__((noinline)) static void sp_light(struct worker *w, long n) {
  for (int i = 0; i < 1000; ++i)
    sp_shared(w, n / 2000);
  END_SLICE(w);
}
__attribute__((noinline)) static void sp_heavy(struct worker *w, long n) {
  for (int i = 0; i < 50; ++i)
    sp_shared(w, n / 25);
  END_SLICE(w);
}

static void *work(void *arg) {
  struct worker *w = arg;
  if (thread_count > 1)
    pthread_setname_np(pthread_self(), w->name);
  /* Each thread its own mix: how often each kind comes up. */
  static const int mixes[4][KINDS] = {
      {3, 2, 2, 2, 3}, {1, 1, 4, 1, 1}, {4, 1, 1, 3, 1}, {1, 3, 1, 1, 4}};
  const int *mix = mixes[w->index % 4];
  int total = 0;
  for (int k = 0; k < KINDS; ++k)
    total += mix[k];
  /* About 0.5 ms per slice: 1 unit of n is one step of the spin loop. */
  const long n = 200000;
  uint64_t rng = 0x9E3779B97F4A7C15ull * (uint64_t)(w->index + 1);
  uint64_t start = thread_cpu_ns(), end = start + (uint64_t)(seconds * 1e9);
  uint64_t before = start, slices = 0;
  w->stamp = start;
  while (w->stamp < end) {
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    int pick = (int)((rng >> 33) % (uint64_t)total), kind = 0;
    while (pick >= mix[kind])
      pick -= mix[kind++];
    switch (kind) {
    case PHASE_A: sp_phase_a(w, n); break;
    case PHASE_B: sp_phase_b(w, n / 2); break;
    case PHASE_C: sp_phase_c(w, n); break;
    case LIGHT: sp_light(w, n); break;
    default: sp_heavy(w, n / 4); break;
    }
    w->truth_ns[kind] += w->stamp - before;
    before = w->stamp;
    ++slices;
  }
  /* What the slices do not cover (start-up, the loop) is main's own. */
  w->truth_ns[KINDS] = thread_cpu_ns() - start;
  for (int k = 0; k < KINDS; ++k)
    w->truth_ns[KINDS] -= w->truth_ns[k];
  (void)slices;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: accuracy SECONDS THREADS TRUTH_FILE\n");
    return 2;
  }
  seconds = atof(argv[1]);
  thread_count = atoi(argv[2]);
  if (thread_count < 1 || thread_count > 16)
    return 2;
  static struct worker workers[16];
  pthread_t threads[16];
  for (int i = 0; i < thread_count; ++i) {
    workers[i].index = i;
    snprintf(workers[i].name, sizeof(workers[i].name),
             thread_count > 1 ? "acc-%d" : "main", i);
  }
  if (thread_count == 1) {
    work(&workers[0]);
  } else {
    for (int i = 0; i < thread_count; ++i)
      pthread_create(&threads[i], NULL, work, &workers[i]);
    for (int i = 0; i < thread_count; ++i)
      pthread_join(threads[i], NULL);
  }
  FILE *f = fopen(argv[3], "w");
  if (!f)
    return 1;
  for (int i = 0; i < thread_count; ++i)
    for (int k = 0; k <= KINDS; ++k)
      fprintf(f, "thread %s %s %llu\n", workers[i].name, stack_names[k],
              (unsigned long long)workers[i].truth_ns[k]);
  fclose(f);
  return 0;
}
