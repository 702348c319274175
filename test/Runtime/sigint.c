// SIGINT or SIGTERM with the default disposition: the profile is written,
// then the signal is re-raised, so the process still dies of it (exit
// status 130 / 143 from a shell). A handler the program installed is left
// alone: the program's own handler runs and its exit status stands.
// (timeout starts the program with default dispositions, which a
// background job of a non-interactive shell would not have for SIGINT.)
//
// UNSUPPORTED: tsan
// (The signal is sent at a fixed time, before TSan's slower start-up has
// printed the first line.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/i.folded %python %inputs/exit_status.py timeout --preserve-status -s INT 0.3 %t/app > %t/int.out 2> %t/int.err
// RUN: FileCheck %s --check-prefix=INT < %t/int.out
// RUN: FileCheck %s --check-prefix=ERR < %t/int.err
// RUN: %python %inputs/check_stacks.py %t/i.folded --leaf 'forever >= 60%%' --min-samples 10
// RUN: %python %inputs/check_sprof.py %t/i.folded | FileCheck %s --check-prefix=SPROF
// No temporary file is left behind.
// RUN: ls %t | FileCheck %s --check-prefix=FILES --implicit-check-not=tmp
// RUN: env SPINEL_PROFILE=%t/t.folded %python %inputs/exit_status.py timeout --preserve-status -s TERM 0.3 %t/app > %t/term.out 2> %t/term.err
// RUN: FileCheck %s --check-prefix=TERM < %t/term.out
// RUN: %python %inputs/check_stacks.py %t/t.folded --leaf 'forever >= 60%%'
// The program's own handler: it prints, exits 3, and the profile is
// written at that exit as usual.
// RUN: env SPINEL_PROFILE=%t/h.folded %python %inputs/exit_status.py timeout --preserve-status -s INT 0.3 %t/app own > %t/own.out 2> %t/own.err
// RUN: FileCheck %s --check-prefix=OWN < %t/own.out
// RUN: FileCheck %s --check-prefix=ERR < %t/own.err
//
// The program's CPU time, not the time of the copy of a one-thread
// program that writes the profile for the signal (writeInCopy).
// SPROF: field: cpu_time_ns {{[1-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*$}}
// FILES: i.folded
// INT: started
// INT-NEXT: exit status: 130
// ERR: spinelprof: {{[0-9]+}} samples
// TERM: started
// TERM-NEXT: exit status: 143
// OWN: started
// OWN-NEXT: own handler
// OWN-NEXT: exit status: 3
#include "manual_frames.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_forever, "forever", "forever", SPINELPROF_KIND_USER);

static volatile sig_atomic_t stop;
static void own_handler(int sig) {
  (void)sig;
  stop = 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "own") == 0)
    signal(SIGINT, own_handler);
  uint32_t d = frame_push(&f_main);
  printf("started\n");
  fflush(stdout);
  uint32_t e = frame_push(&f_forever);
  // Up to 10 s of CPU; the signal comes after 0.3 s.
  for (int i = 0; i < 1000 && !stop; ++i)
    burn_cpu_ms(10);
  frame_pop(e);
  frame_pop(d);
  if (stop) {
    printf("own handler\n");
    return 3;
  }
  printf("not interrupted\n");
  return 0;
}
