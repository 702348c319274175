/* threads.c - six threads sharing two cores, each alternating two methods
 * in its own proportion.
 *
 * Thread N (N = 0..5, named acc-N) runs sp_workerN, whose loop calls, each
 * timed from the loop with the thread's CPU clock:
 *   sp_alpha   (N+1) x 100 us of work
 *   sp_beta    (7-N) x 100 us of work
 * until it has used SECONDS/6 of CPU. Rows, shares of the whole process:
 * sp_workerN;sp_alpha, sp_workerN;sp_beta, sp_workerN (the loop and its
 * clock reads), and <rest> (the main thread). So a row is right only if
 * both the thread's share of the CPU and the method's share of the thread
 * are.
 *
 * usage: threads SECONDS TRUTH_FILE cpu|wall */
#include "truth.h"

#include <pthread.h>

enum { THREADS = 6 };

static double budget;
static struct truth truths[THREADS];

NOINLINE static void sp_alpha(long units) { truth_work(units); }
NOINLINE static void sp_beta(long units) {
  truth_work(units);
  truth_sink ^= 1;
}

/* Each thread has its own start routine, so a stack says which thread it
 * is (gperftools' profile has no thread ids). */
#define WORKER(N)                                                              \
  NOINLINE static void *sp_worker##N(void *arg) {                             \
    (void)arg;                                                                 \
    pthread_setname_np(pthread_self(), "acc-" #N);                             \
    struct truth *t = &truths[N];                                              \
    truth_begin(t);                                                            \
    t->rest_key = "sp_worker" #N;                                              \
    int r_alpha = truth_row(t, "sp_worker" #N ";sp_alpha");                    \
    int r_beta = truth_row(t, "sp_worker" #N ";sp_beta");                      \
    long alpha = truth_units(100.0 * (N + 1)), beta = truth_units(100.0 * (7 - N)); \
    while (truth_running(t, budget)) {                                         \
      truth_calibrate(t);                                                      \
      TRUTH_CALL(t, r_alpha, sp_alpha(alpha));                                 \
      TRUTH_CALL(t, r_beta, sp_beta(beta));                                    \
    }                                                                          \
    truth_finish(t);                                                           \
    return NULL;                                                               \
  }
WORKER(0)
WORKER(1)
WORKER(2)
WORKER(3)
WORKER(4)
WORKER(5)

int main(int argc, char **argv) {
  double seconds = truth_args(argc, argv, 0);
  struct truth t;
  truth_begin(&t);
  truth_setup();
  budget = seconds / THREADS;
  void *(*const workers[THREADS])(void *) = {sp_worker0, sp_worker1, sp_worker2,
                                             sp_worker3, sp_worker4, sp_worker5};
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; ++i)
    if (pthread_create(&threads[i], NULL, workers[i], NULL) != 0)
      return 1;
  for (int i = 0; i < THREADS; ++i)
    pthread_join(threads[i], NULL);
  truth_finish(&t);
  FILE *f = truth_open(argv);
  truth_write_rows(f, &t);
  for (int i = 0; i < THREADS; ++i)
    truth_write_rows(f, &truths[i]);
  return fclose(f) != 0;
}
