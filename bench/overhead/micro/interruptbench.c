//===- interruptbench.c - What one timer event costs a busy thread --------===//
//
// A memory-heavy loop (random read-modify-writes over MB megabytes, the
// shape of an allocating program's working set) runs on CPU 0 for ITERS
// steps under each of these, interleaved over ROUNDS rounds, and the
// median wall time of each is compared with the loop's alone:
//
//   none      nothing
//   signal    the profiler's scheme without the profiler: a CLOCK_MONOTONIC
//             timer of the thread's own (SIGEV_THREAD_ID), re-armed by an
//             empty handler at random 0.5-1.5 ms instants (~1 kHz)
//   periodic  the same timer armed once with a fixed 1 ms period
//   wakeup    no signal: a second thread on the same CPU sleeping 1 ms at
//             a time (a timer interrupt and two context switches each)
//   elsewhere the sleeping thread on the other CPU (a control: the loop's
//             CPU sees nothing)
//   tick      gperftools' scheme: setitimer(ITIMER_PROF) asking 1 kHz, an
//             empty SIGPROF handler; the kernel checks the process timer
//             on its own scheduler tick (250 Hz here), so these signals
//             ride interrupts that happen anyway and bring none of their own
//
// It prints, per scheme, events per second and the added microseconds per
// event. If "wakeup" costs what "signal" costs, the price of a sample is
// the timer interrupt (on a VM, its exits to the hypervisor and the caches
// and TLB refilled after them; as much at 2 MB as at 64 MB, mostly the
// former), not the signal or the handler, and no arming scheme off the
// tick makes a sample cheaper: only fewer samples do. "tick" shows the
// one way around it, and its price: instants on the tick are cheap but
// lock in phase with a program of 4 ms periods (the reason the profiler
// draws random instants; docs/design.md, "Why not the alternatives").
//
// usage: interruptbench [MB [ITERS [ROUNDS]]]     (defaults 64 30000000 5)
//===----------------------------------------------------------------------===//
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum Scheme { NONE, SIGNAL, PERIODIC, WAKEUP, ELSEWHERE, TICK, SCHEMES };
static const char *const Names[SCHEMES] = {"none",   "signal",    "periodic",
                                           "wakeup", "elsewhere", "tick"};

static timer_t Timer;
static uint64_t NextNs, Rng = 88172645463325252ull;
static volatile long Events;
static volatile int Stop;

static uint64_t nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (uint64_t)T.tv_sec * 1000000000u + (uint64_t)T.tv_nsec;
}

static void pinTo(int Cpu) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  sched_setaffinity(0, sizeof Set, &Set);
}

/// Arms the next random instant (async-signal-safe: xorshift, timer_settime).
static void armNext(void) {
  Rng ^= Rng << 13, Rng ^= Rng >> 7, Rng ^= Rng << 17;
  NextNs += 500000 + Rng % 1000000;
  struct itimerspec At = {{0, 0}, {(time_t)(NextNs / 1000000000u),
                                   (long)(NextNs % 1000000000u)}};
  timer_settime(Timer, TIMER_ABSTIME, &At, NULL);
}

/// The signal handler (async-signal-safe): counts, and re-arms in "signal".
static void onSignal(int Sig, siginfo_t *Info, void *Context) {
  (void)Sig, (void)Info, (void)Context;
  ++Events;
  if (!Stop && Sig != SIGPROF && Info->si_value.sival_int == SIGNAL)
    armNext();
}

/// Starts or stops the process CPU-time timer of "tick" (1 ms asked).
static void setTick(long Microseconds) {
  struct itimerval Every = {{0, Microseconds}, {0, Microseconds}};
  setitimer(ITIMER_PROF, &Every, NULL);
}

static void *sleeper(void *Cpu) {
  pinTo((int)(intptr_t)Cpu);
  while (!Stop) {
    struct timespec T = {0, 1000000};
    nanosleep(&T, NULL);
    ++Events;
  }
  return NULL;
}

static void startTimer(enum Scheme S) {
  struct sigevent Ev;
  memset(&Ev, 0, sizeof Ev);
  Ev.sigev_notify = SIGEV_THREAD_ID;
  Ev.sigev_signo = SIGRTMAX - 2;
  Ev.sigev_value.sival_int = S;
  Ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  timer_create(CLOCK_MONOTONIC, &Ev, &Timer);
  if (S == PERIODIC) {
    struct itimerspec Every = {{0, 1000000}, {0, 1000000}};
    timer_settime(Timer, 0, &Every, NULL);
  } else {
    NextNs = nowNs();
    armNext();
  }
}

/// One run of the loop under scheme S: wall seconds; events in *Count.
static double runOnce(enum Scheme S, uint64_t *Table, size_t N, long Iters,
                      long *Count) {
  pthread_t Thread;
  Stop = 0;
  Events = 0;
  if (S == SIGNAL || S == PERIODIC)
    startTimer(S);
  if (S == TICK)
    setTick(1000);
  if (S == WAKEUP || S == ELSEWHERE)
    pthread_create(&Thread, NULL, sleeper, (void *)(intptr_t)(S == WAKEUP ? 0 : 1));
  uint64_t X = 1, Sum = 0, T0 = nowNs();
  for (long I = 0; I < Iters; ++I) {
    // A multiply-xorshift step the compiler cannot collapse; the loads
    // and stores depend on it.
    X ^= X << 13, X ^= X >> 7, X ^= X << 17;
    size_t J = (size_t)(X % N);
    Sum += Table[J];
    Table[J] = Sum ^ (uint64_t)I;
  }
  double Seconds = (double)(nowNs() - T0) / 1e9;
  Stop = 1;
  if (S == SIGNAL || S == PERIODIC)
    timer_delete(Timer);
  if (S == TICK)
    setTick(0);
  if (S == WAKEUP || S == ELSEWHERE)
    pthread_join(Thread, NULL);
  *Count = Events;
  if (Sum == 42)
    puts("");
  return Seconds;
}

static int compareDoubles(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return (X > Y) - (X < Y);
}

int main(int Argc, char **Argv) {
  size_t Mb = Argc > 1 ? (size_t)atol(Argv[1]) : 64;
  long Iters = Argc > 2 ? atol(Argv[2]) : 30000000;
  int Rounds = Argc > 3 ? atoi(Argv[3]) : 5;
  if (!Mb || Iters <= 0 || Rounds <= 0 || Rounds > 99) {
    fprintf(stderr, "usage: interruptbench [MB [ITERS [ROUNDS<=99]]]\n");
    return 2;
  }
  size_t N = Mb * 1024 * 1024 / sizeof(uint64_t);
  uint64_t *Table = malloc(N * sizeof *Table);
  if (!Table)
    return 1;
  for (size_t I = 0; I < N; ++I)
    Table[I] = I * 2654435761u;
  struct sigaction Sa;
  memset(&Sa, 0, sizeof Sa);
  Sa.sa_sigaction = onSignal;
  Sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGRTMAX - 2, &Sa, NULL);
  sigaction(SIGPROF, &Sa, NULL);
  pinTo(0);
  double Wall[SCHEMES][99];
  long Count[SCHEMES][99];
  for (int R = 0; R < Rounds; ++R)
    for (int K = 0; K < SCHEMES; ++K) {
      enum Scheme S = (enum Scheme)((K + R) % SCHEMES);
      Wall[S][R] = runOnce(S, Table, N, Iters, &Count[S][R]);
    }
  double Median[SCHEMES];
  printf("| scheme | events/s | wall s (median of %d) | added | us per event |\n", Rounds);
  printf("|---|---|---|---|---|\n");
  for (int S = 0; S < SCHEMES; ++S) {
    double Rate = 0;
    for (int R = 0; R < Rounds; ++R)
      Rate += (double)Count[S][R] / Wall[S][R] / Rounds;
    qsort(Wall[S], (size_t)Rounds, sizeof(double), compareDoubles);
    Median[S] = Wall[S][Rounds / 2];
    double Added = Median[S] / Median[NONE] - 1;
    printf("| %s | %.0f | %.3f | %+.1f%% |", Names[S], Rate, Median[S], 100 * Added);
    if (S != NONE && S != ELSEWHERE && Rate > 0)
      printf(" %.1f |\n", (Median[S] - Median[NONE]) * 1e6 / (Rate * Median[S]));
    else
      printf(" - |\n");
  }
  return 0;
}
