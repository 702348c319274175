// Profiling never cuts a blocking call short. While a second thread burns
// CPU (so profiling signals are being sent), the main thread sleeps, polls
// and reads a pipe; none of those calls returns early with EINTR.
// (SA_RESTART covers read; nanosleep and poll are never restarted, so this
// relies on the wrappers blocking the profiling signal during the call.)
// With "alone", the program keeps one thread, and a timer of its own sends
// it the profiling signal (SIGRTMAX-2) 20 ms into each wait, as the
// thread's timer expiring during the wait would; it also waits in the
// calls that install a signal mask of their own (ppoll, pselect,
// sigsuspend: the wrappers add the profiling signal to it) or that any
// handler ends (sigtimedwait, fcntl's lock wait): each wait lasts its full
// time, or until the program's own signal.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/b.folded SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s
// RUN: %python %inputs/check_stacks.py %t/b.folded --leaf 'burner >= 80%%' --min-samples 10
// RUN: env SPINEL_PROFILE=%t/a.folded SPINEL_PROFILE_QUIET=1 %t/app alone | FileCheck %s --check-prefixes=CHECK,ALONE
// RUN: %python %inputs/check_stacks.py %t/a.folded --leaf 'burner >= 80%%' --min-samples 10
//
// CHECK: nanosleep: 0
// CHECK-NEXT: poll: 0
// CHECK-NEXT: read: 1
// ALONE-NEXT: ppoll: 0, waited enough
// ALONE-NEXT: pselect: 0, waited enough
// ALONE-NEXT: sigtimedwait: -1 EAGAIN, waited enough
// ALONE-NEXT: sigsuspend: -1 EINTR, alarm
// ALONE-NEXT: fcntl lock: 0, waited enough
#define _GNU_SOURCE
#include "manual_frames.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_burner, "burner", "burner", SPINELPROF_KIND_USER);

static int fds[2];

static void *burner(void *arg) {
  (void)arg;
  uint32_t d = frame_push(&f_burner);
  burn_cpu_ms(300);
  frame_pop(d);
  (void)!write(fds[1], "x", 1);
  return NULL;
}

static uint64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

static volatile sig_atomic_t alarmed;
static void on_alarm(int sig) {
  (void)sig;
  alarmed = 1;
}

static timer_t prof_timer;
static int alone;

// In 20 ms, the profiling signal (SIGRTMAX-2) to this process from a timer
// of the program's (the runtime's handler takes it and records nothing: it
// is not a thread's own timer's).
static void prof_soon(void) {
  if (!alone)
    return;
  struct itimerspec in20 = {{0, 0}, {0, 20 * 1000 * 1000}};
  timer_settime(prof_timer, 0, &in20, NULL);
}

static const char *waited(uint64_t start, unsigned ms) {
  return now_ms() - start + 5 >= ms ? "waited enough" : "cut short";
}

// Waits that install a mask of their own, or that any handler ends; SIGPROF
// must not end them. Each waits 60 ms.
static void waits_with_masks(void) {
  sigset_t empty;
  sigemptyset(&empty);
  struct timespec ts = {0, 60 * 1000 * 1000};
  uint64_t start = now_ms();
  prof_soon();
  int r = ppoll(NULL, 0, &ts, &empty);
  printf("ppoll: %d%s, %s\n", r, r < 0 && errno == EINTR ? " EINTR" : "",
         waited(start, 60));
  start = now_ms();
  prof_soon();
  r = pselect(0, NULL, NULL, NULL, &ts, &empty);
  printf("pselect: %d%s, %s\n", r, r < 0 && errno == EINTR ? " EINTR" : "",
         waited(start, 60));
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigprocmask(SIG_BLOCK, &usr1, NULL);
  start = now_ms();
  prof_soon();
  r = sigtimedwait(&usr1, NULL, &ts);
  printf("sigtimedwait: %d%s, %s\n", r,
         r < 0 ? (errno == EAGAIN ? " EAGAIN" : " EINTR") : "",
         waited(start, 60));
  // sigsuspend returns after a handler runs: the program's SIGALRM, 60 ms
  // on, not a profiling signal.
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);
  sigset_t alrm, old;
  sigemptyset(&alrm);
  sigaddset(&alrm, SIGALRM);
  sigprocmask(SIG_BLOCK, &alrm, &old);
  struct itimerval it = {{0, 0}, {0, 60000}};
  setitimer(ITIMER_REAL, &it, NULL);
  prof_soon();
  r = sigsuspend(&empty);
  printf("sigsuspend: %d%s, %s\n", r, r < 0 && errno == EINTR ? " EINTR" : "",
         alarmed ? "alarm" : "not the alarm");
  sigprocmask(SIG_SETMASK, &old, NULL);
  // A lock another process holds for 60 ms: fcntl(F_SETLKW) waits for it.
  char path[] = "/tmp/spinelprof-lock-XXXXXX";
  int fd = mkstemp(path);
  int ready[2];
  if (fd < 0 || pipe(ready) != 0)
    return;
  unlink(path);
  struct flock lock;
  memset(&lock, 0, sizeof(lock));
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  fflush(stdout); // TSan's _exit flushes the child's copy of stdio too.
  pid_t child = fork();
  if (child == 0) {
    fcntl(fd, F_SETLK, &lock);
    (void)!write(ready[1], "x", 1);
    usleep(60000);
    _exit(0);
  }
  char c;
  (void)!read(ready[0], &c, 1);
  start = now_ms();
  prof_soon();
  r = fcntl(fd, F_SETLKW, &lock);
  printf("fcntl lock: %d%s, %s\n", r, r < 0 && errno == EINTR ? " EINTR" : "",
         waited(start, 40));
  waitpid(child, NULL, 0);
}

int main(int argc, char **argv) {
  alone = argc > 1 && strcmp(argv[1], "alone") == 0;
  struct sigevent ev;
  memset(&ev, 0, sizeof(ev));
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGRTMAX - 2; // The profiler's signal.
  if (alone && timer_create(CLOCK_MONOTONIC, &ev, &prof_timer) != 0)
    return 2;
  uint32_t d = frame_push(&f_main);
  if (pipe(fds) != 0)
    return 2;
  pthread_t t;
  if (alone)
    burner(NULL); // Burns, then writes the byte the read below gets.
  else
    pthread_create(&t, NULL, burner, NULL);
  struct timespec ts = {0, 100 * 1000 * 1000};
  prof_soon();
  int r = nanosleep(&ts, NULL);
  printf("nanosleep: %d%s\n", r, r ? (errno == EINTR ? " EINTR" : " error") : "");
  prof_soon();
  r = poll(NULL, 0, 50);
  printf("poll: %d%s\n", r, r < 0 && errno == EINTR ? " EINTR" : "");
  char c;
  ssize_t n = read(fds[0], &c, 1);
  printf("read: %zd%s\n", n, n < 0 && errno == EINTR ? " EINTR" : "");
  if (alone)
    waits_with_masks();
  else
    pthread_join(t, NULL);
  frame_pop(d);
  return 0;
}
