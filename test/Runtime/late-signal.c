// An instant at which the thread ran is a CPU sample even when its signal
// comes late, after the thread was off the CPU (docs/design.md, Sampling:
// a late signal counts when the thread ran on from the last read of its
// CPU clock to the instant). Under load this is a thread preempted on its
// own timer interrupt's return; here the program makes it so: it blocks
// the profiling signal, burns 3 ms (an instant falls in it: after a late
// signal the next instant is within two periods), sleeps 20 ms with the
// raw system call, and unblocks, 50 times. Each round's signal comes ~20
// ms late, at the stack `<main>;ran_through`, and its instant fell while the
// thread ran: ~50 samples. The previous rule (at least 90 % of a CPU since
// the last read, to the delivery: 3 ms of 23) counted none; a rule that
// took every late signal for a sample would count the same 50, and the
// sleep no more (its own frame is popped before the unblock), so a second
// part checks the other side: 50 rounds that only sleep while the signal
// is blocked, whose instants fall in the sleep, count about 50 with such a
// rule and few with this one. Not none: the instant is drawn from the end
// of the last handler, and the thread's CPU from there to the delivery
// (the rest of the handler, the block, the sleeps' own system calls, ~20
// us each here, the unblock) covers an instant in the first ~0.1 ms; an
// instant before the block is a prompt sample. Measured 5-13 of 50 in
// `slept_through`; the bound, 25, is half of what counting every late
// signal gives.
//
// UNSUPPORTED: tsan
// (TSan holds signals back to its next interceptor: the raw system call is
// not one, so the deliveries are not the runtime's.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/p.folded SPINEL_PROFILE_HZ=1000 SPINEL_PROFILE_QUIET=1 %t/app
// RUN: %python %inputs/folded_facts.py sum %t/p.folded ran_through 40 60
// RUN: %python %inputs/folded_facts.py sum %t/p.folded slept_through 0 25
// RUN: %python %inputs/folded_facts.py sum %t/p.folded nap 0 0
#define _GNU_SOURCE
#include "manual_frames.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_ran, "ran_through", "ran_through", SPINELPROF_KIND_USER);
FRAME(f_slept, "slept_through", "slept_through", SPINELPROF_KIND_USER);
FRAME(f_nap, "nap", "nap", SPINELPROF_KIND_USER);

static void block_profiling(int how) {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGRTMAX - 2);
  sigprocmask(how, &s, NULL);
}

/// 20 ms asleep in the raw system call (no wrapper), in its own frame.
static void nap(void) {
  uint32_t d = frame_push(&f_nap);
  struct timespec t = {0, 20000000};
  syscall(SYS_nanosleep, &t, NULL);
  frame_pop(d);
}

int main(void) {
  uint32_t d = frame_push(&f_main);
  for (int i = 0; i < 50; ++i) { // Runs through the instant, then waits.
    uint32_t e = frame_push(&f_ran);
    block_profiling(SIG_BLOCK);
    burn_cpu_ms(3);
    nap();
    block_profiling(SIG_UNBLOCK);
    frame_pop(e);
  }
  for (int i = 0; i < 50; ++i) { // Waits through the instant.
    uint32_t e = frame_push(&f_slept);
    block_profiling(SIG_BLOCK);
    nap();
    nap();
    block_profiling(SIG_UNBLOCK);
    frame_pop(e);
  }
  frame_pop(d);
  return 0;
}
