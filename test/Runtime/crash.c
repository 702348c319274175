// A program that crashes still leaves its profile (docs/reliability.md):
// the samples taken before the crash, written by a copy of the process,
// and the summary line says after which signal. The program dies as it
// would unprofiled: the same signal, the same stdout (a buffered line it
// never flushed is lost in both runs). SIGSEGV, SIGBUS, SIGILL and SIGFPE
// come from real faults (the fault repeats once the handler has returned
// with the default action back), SIGABRT from abort(); a SIGSEGV sent with
// raise() does not repeat and is raised again. A stack overflow on a
// thread's 1 MiB stack is caught on the alternate signal stack. A program
// with its own SIGSEGV handler keeps it: it runs and its exit status
// stands (it _exits: no profile, as with any _exit). A program that set an
// alternate signal stack of its own keeps it; the handler runs there, and
// writes the profile only if it is big enough (1 MiB is; on 8 KiB from
// malloc it writes nothing, says so, and the program still dies of its
// SIGSEGV, its heap intact).
//
// UNSUPPORTED: asan, tsan
// (Their runtimes own the crash signals and report the fault themselves;
// the profiler stands aside: test/Runtime/crash-sanitizer.c.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -lpthread -o %t/app
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/segv.folded %t/app segv > %t/segv.out 2> %t/segv.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/segv.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV -DFILE=%t/segv.folded < %t/segv.err
// RUN: %python %inputs/check_stacks.py %t/segv.folded --leaf 'work >= 80%%' --min-samples 50
// RUN: %python %inputs/check_sprof.py %t/segv.folded > /dev/null
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/bus.folded %t/app bus > %t/bus.out 2> %t/bus.err
// RUN: FileCheck %s --check-prefix=BUS < %t/bus.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGBUS -DFILE=%t/bus.folded < %t/bus.err
// RUN: %python %inputs/check_stacks.py %t/bus.folded --leaf 'work >= 80%%' --min-samples 50
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/ill.folded %t/app ill > %t/ill.out 2> %t/ill.err
// RUN: FileCheck %s --check-prefix=ILL < %t/ill.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGILL -DFILE=%t/ill.folded < %t/ill.err
// RUN: %python %inputs/check_stacks.py %t/ill.folded --leaf 'work >= 80%%' --min-samples 50
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/fpe.folded %t/app fpe > %t/fpe.out 2> %t/fpe.err
// RUN: FileCheck %s --check-prefix=FPE < %t/fpe.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGFPE -DFILE=%t/fpe.folded < %t/fpe.err
// RUN: %python %inputs/check_stacks.py %t/fpe.folded --leaf 'work >= 80%%' --min-samples 50
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/abrt.folded %t/app abort > %t/abrt.out 2> %t/abrt.err
// RUN: FileCheck %s --check-prefix=ABRT < %t/abrt.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGABRT -DFILE=%t/abrt.folded < %t/abrt.err
// RUN: %python %inputs/check_stacks.py %t/abrt.folded --leaf 'work >= 80%%' --min-samples 50
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/raise.folded %t/app raise > %t/raise.out 2> %t/raise.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/raise.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV -DFILE=%t/raise.folded < %t/raise.err
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/over.folded %t/app overflow > %t/over.out 2> %t/over.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/over.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV -DFILE=%t/over.folded < %t/over.err
// RUN: %python %inputs/check_stacks.py %t/over.folded --path '<main>;work >= 50%%' --any 'recurse >= 0.1%%'
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/own.folded %t/app own > %t/own.out 2> %t/own.err
// RUN: FileCheck %s --check-prefix=OWN < %t/own.out
// RUN: FileCheck %s --check-prefix=NOPROFILE --allow-empty < %t/own.err
// RUN: test ! -e %t/own.folded
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/big.folded %t/app bigalt > %t/big.out 2> %t/big.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/big.out
// RUN: FileCheck %s --check-prefix=ERR -DSIG=SIGSEGV -DFILE=%t/big.folded < %t/big.err
// RUN: cd %t && %python %inputs/exit_status.py --compare %t/small.folded %t/app smallalt > %t/small.out 2> %t/small.err
// RUN: FileCheck %s --check-prefix=SEGV < %t/small.out
// RUN: FileCheck %s --check-prefix=NOROOM < %t/small.err
// RUN: test ! -e %t/small.folded
// Nothing but the profiles (and the bus test's file) is left: no
// temporary file, no core.
// RUN: ls %t | FileCheck %s --check-prefix=FILES --implicit-check-not=tmp --implicit-check-not=core
//
// ERR: spinelprof: {{[0-9]+}} samples ({{.*}}), {{.*}}, wrote [[FILE]] (after [[SIG]])
// SEGV: before the crash
// SEGV-NEXT: signal: 11
// SEGV-NEXT: identical
// BUS: before the crash
// BUS-NEXT: signal: 7
// BUS-NEXT: identical
// ILL: before the crash
// ILL-NEXT: signal: 4
// ILL-NEXT: identical
// FPE: before the crash
// FPE-NEXT: signal: 8
// FPE-NEXT: identical
// ABRT: before the crash
// ABRT-NEXT: signal: 6
// ABRT-NEXT: identical
// OWN: before the crash
// OWN-NEXT: own handler: 11
// OWN-NEXT: exit status: 3
// OWN-NEXT: identical
// NOPROFILE-NOT: spinelprof
// NOROOM: spinelprof: no profile after the crash: the program's alternate signal stack is too small to write it
// NOROOM-NOT: spinelprof
// FILES: abrt.folded
// FILES: segv.folded
#define _GNU_SOURCE
#include "manual_frames.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_work, "work", "work", SPINELPROF_KIND_USER);
FRAME(f_crash, "crash", "crash", SPINELPROF_KIND_USER);
FRAME(f_recurse, "recurse", "recurse", SPINELPROF_KIND_USER);

static volatile int zero = 0, seven = 7;
static int *volatile null_pointer = 0;

static void own_handler(int sig) {
  char line[32];
  int n = snprintf(line, sizeof(line), "own handler: %d\n", sig);
  (void)!write(1, line, (size_t)n);
  _exit(3);
}

static NOINLINE void work(void) {
  uint32_t d = frame_push(&f_work);
  burn_cpu_ms(150);
  frame_pop(d);
}

// The outermost call burns 20 ms first: the ~2000 calls to the overflow
// take about a period, where an instant falls with probability ~0.6 under
// the sampler's Poisson law (and the check wants one in recurse).
static NOINLINE int recurse(int n) {
  uint32_t d = frame_push(&f_recurse);
  if (n == 1 << 30)
    burn_cpu_ms(20);
  volatile char pad[512];
  pad[0] = (char)n;
  int r = n ? recurse(n - 1) + pad[0] : 0;
  frame_pop(d);
  return r;
}

static void *overflow_thread(void *arg) {
  (void)arg;
  recurse(1 << 30);
  return 0;
}

static NOINLINE void crash(const char *how) {
  uint32_t d = frame_push(&f_crash);
  if (strcmp(how, "segv") == 0 || strcmp(how, "own") == 0) {
    *null_pointer = 1;
  } else if (strcmp(how, "bus") == 0) {
    // A mapping past the end of its file: touching it is SIGBUS.
    int fd = open("bus-file", O_RDWR | O_CREAT | O_TRUNC, 0600);
    char *p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    p[4096] = 1;
  } else if (strcmp(how, "ill") == 0) {
    __builtin_trap();
  } else if (strcmp(how, "fpe") == 0) {
    printf("%d\n", seven / zero);
  } else if (strcmp(how, "abort") == 0) {
    abort();
  } else if (strcmp(how, "raise") == 0) {
    raise(SIGSEGV);
  } else if (strcmp(how, "overflow") == 0) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 20);
    pthread_t t;
    pthread_create(&t, &attr, overflow_thread, 0);
    pthread_join(t, 0);
  }
  frame_pop(d);
}

int main(int argc, char **argv) {
  uint32_t d = frame_push(&f_main);
  const char *how = argc > 1 ? argv[1] : "segv";
  if (strcmp(how, "own") == 0)
    signal(SIGSEGV, own_handler);
  if (strcmp(how, "bigalt") == 0 || strcmp(how, "smallalt") == 0) {
    size_t size = how[0] == 'b' ? 1 << 20 : 8192;
    stack_t alt = {malloc(size), 0, size};
    sigaltstack(&alt, 0);
    how = "segv";
  }
  printf("before the crash\n");
  fflush(stdout);
  printf("never flushed\n");
  work();
  crash(how);
  frame_pop(d);
  printf("survived %s\n", how);
  return 0;
}
