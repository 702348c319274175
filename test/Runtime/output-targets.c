// The profile goes where SPINEL_PROFILE's path finally leads (docs/formats.md,
// "Output paths"): a FIFO is written in place and never replaced, a symlink
// stays a symlink and its target gets the profile, a socket gets nothing.
// The program's stdout and exit status never change, and no file is made
// beside a FIFO. (test/Runtime/output-device.test: a character device.)
//
// RUN: rm -rf %t && mkdir -p %t/fifo %t/links/real %t/sock
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: mkfifo %t/fifo/p
//
// A FIFO with a reader receives the folded stacks. It stays a FIFO, and
// nothing appears beside it: no .sprof, probe or temporary file, and no
// fork child's file (the child writes nothing).
// RUN: %python %inputs/fifo_reader.py %t/fifo/p %t/got -- env SPINEL_PROFILE=%t/fifo/p %python %inputs/exit_status.py %t/app 3 fork > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefixes=OUT,STATUS < %t/out
// RUN: FileCheck %s --check-prefix=GOT --implicit-check-not=child_work < %t/got
// RUN: FileCheck %s --check-prefix=WROTE -DPATH=%t/fifo/p --match-full-lines < %t/err
// RUN: count 1 < %t/err
// RUN: test -p %t/fifo/p
// RUN: ls %t/fifo | count 1
// OUT: working
// STATUS-NEXT: exit status: 3
// GOT: {{^}}<main>;work {{[0-9]+$}}
// WROTE: spinelprof: {{[0-9]+}} samples {{.*}}, wrote [[PATH]]
//
// The allocation profile would be a file beside the FIFO: it is off, in
// one line.
// RUN: %python %inputs/fifo_reader.py %t/fifo/p %t/got -- env SPINEL_PROFILE=%t/fifo/p SPINEL_PROFILE_ALLOC=1 SPINEL_PROFILE_QUIET=1 %t/app 0 > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=GOT < %t/got
// RUN: FileCheck %s --check-prefix=ALLOC -DPATH=%t/fifo/p --match-full-lines < %t/err
// RUN: count 1 < %t/err
// RUN: ls %t/fifo | count 1
// ALLOC: spinelprof: '[[PATH]]' is a FIFO, which takes the folded stacks alone; allocation profiling is off
//
// A periodic flush leaves a FIFO alone: its reader gets one profile, at exit.
// RUN: %python %inputs/fifo_reader.py %t/fifo/p %t/got -- env SPINEL_PROFILE=%t/fifo/p SPINEL_PROFILE_FLUSH_SEC=1 SPINEL_PROFILE_QUIET=1 %t/app 0 sleep 2> %t/err
// RUN: FileCheck %s --check-prefix=ONCE < %t/got
// RUN: count 0 < %t/err
// ONCE: <main>;work
// ONCE-NOT: <main>;work
//
// No reader: one line, and the program runs as it does unprofiled.
// RUN: timeout 60 %python %inputs/exit_status.py --compare %t/fifo/p %t/app 3 > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefixes=OUT,STATUS,SAME < %t/out
// RUN: FileCheck %s --check-prefix=NOREADER -DPATH=%t/fifo/p --match-full-lines < %t/err
// RUN: count 1 < %t/err
// RUN: test -p %t/fifo/p
// RUN: ls %t/fifo | count 1
// SAME-NEXT: identical
// NOREADER: spinelprof: cannot write profile '[[PATH]]': the FIFO has no reader
//
// A reader that never takes it all (its buffer one page, the folded stacks
// over 64 KiB): the write gives up after 3 s, in one line; the program
// ends as it would.
// RUN: %python %inputs/fifo_reader.py --stall --timeout 20 %t/fifo/p %t/got -- env SPINEL_PROFILE=%t/fifo/p %python %inputs/exit_status.py %t/app 3 long > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefixes=OUT,STATUS < %t/out
// RUN: FileCheck %s --check-prefix=STALL -DPATH=%t/fifo/p --match-full-lines < %t/err
// RUN: count 1 < %t/err
// STALL: spinelprof: cannot write profile '[[PATH]]': the FIFO's reader did not take it all within 3 s
//
// A symlink to a file: the link stays, its target gets the folded stacks
// (renamed onto it, the temporary beside it), and the .sprof is named after
// the path given.
// RUN: echo old > %t/links/real/target.folded
// RUN: ln -s real/target.folded %t/links/p.folded
// RUN: env SPINEL_PROFILE=%t/links/p.folded SPINEL_PROFILE_QUIET=1 %t/app 0 fork > %t/out
// RUN: test -L %t/links/p.folded
// RUN: FileCheck %s --check-prefix=GOT < %t/links/real/target.folded
// RUN: %python %inputs/check_sprof.py %t/links/p.folded | FileCheck %s --check-prefix=SPROF
// SPROF: ok:
//
// A dangling symlink: its target is created; the link stays.
// RUN: ln -s real/new.folded %t/links/d.folded
// RUN: env SPINEL_PROFILE=%t/links/d.folded SPINEL_PROFILE_QUIET=1 %t/app 0 > %t/out
// RUN: test -L %t/links/d.folded
// RUN: FileCheck %s --check-prefix=GOT < %t/links/real/new.folded
//
// Nothing else anywhere: no temporary or probe file (the fork child's
// profile is named after the link, as the .sprof is).
// RUN: ls %t/links %t/links/real | FileCheck %s --check-prefix=LINKS --match-full-lines
// LINKS: {{.*}}links:
// LINKS-NEXT: d.folded
// LINKS-NEXT: d.sprof
// LINKS-NEXT: p.{{[0-9]+}}.folded
// LINKS-NEXT: p.{{[0-9]+}}.sprof
// LINKS-NEXT: p.folded
// LINKS-NEXT: p.sprof
// LINKS-NEXT: real
// LINKS-EMPTY:
// LINKS-NEXT: {{.*}}real:
// LINKS-NEXT: new.folded
// LINKS-NEXT: target.folded
// LINKS-EMPTY:
//
// An existing file is replaced whole, never written in place (exchanged
// with the new one, which is then removed: output.h's publish): another
// hard link to it keeps the old contents, and nothing is left beside it.
// RUN: mkdir -p %t/hard && echo old > %t/hard/p.folded && echo old > %t/hard/p.sprof
// RUN: ln %t/hard/p.folded %t/hard/keep
// RUN: env SPINEL_PROFILE=%t/hard/p.folded SPINEL_PROFILE_QUIET=1 %t/app 0 > %t/out
// RUN: FileCheck %s --check-prefix=GOT < %t/hard/p.folded
// RUN: %python %inputs/check_sprof.py %t/hard/p.folded | FileCheck %s --check-prefix=SPROF
// RUN: FileCheck %s --check-prefix=OLD --match-full-lines < %t/hard/keep
// RUN: ls %t/hard | FileCheck %s --check-prefix=HARD --match-full-lines
// OLD: old
// HARD: keep
// HARD-NEXT: p.folded
// HARD-NEXT: p.sprof
// HARD-EMPTY:
//
// A socket: one line at start-up, nothing written, the program unchanged.
// RUN: %python %inputs/unix_socket.py %t/sock/s
// RUN: %python %inputs/exit_status.py --compare %t/sock/s %t/app 3 > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefixes=OUT,STATUS,SAME < %t/out
// RUN: FileCheck %s --check-prefix=SOCKET -DPATH=%t/sock/s --match-full-lines < %t/err
// RUN: count 1 < %t/err
// RUN: test -S %t/sock/s
// RUN: ls %t/sock | count 1
// SOCKET: spinelprof: cannot write profile '[[PATH]]': it is a socket; a profile is written to a file, a character device or a FIFO only; profiling is off
#include "manual_frames.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_work, "work", "work", SPINELPROF_KIND_USER);
FRAME(f_child, "child_work", "child_work", SPINELPROF_KIND_USER);

/* A frame named by 64 KiB of 'x': folded stacks far bigger than a FIFO's
 * one-page buffer. */
static char long_name[1 << 16];
static const struct spinelprof_frame_descriptor f_long = {
    SPINELPROF_ABI_VERSION, SPINELPROF_KIND_USER, __LINE__, 0,
    long_name, "long", "manual.c"};

/* argv: exit status, then a mode: "fork" (a child does some work),
 * "long" (a frame with a long name), "sleep" (1.2 s asleep at the end). */
int main(int argc, char **argv) {
  const char *mode = argc > 2 ? argv[2] : "";
  uint32_t d = frame_push(&f_main);
  puts("working");
  fflush(stdout);
  if (strcmp(mode, "long") == 0) {
    memset(long_name, 'x', sizeof(long_name) - 1);
    uint32_t l = frame_push(&f_long);
    burn_cpu_ms(50);
    frame_pop(l);
  }
  uint32_t w = frame_push(&f_work);
  burn_cpu_ms(50);
  frame_pop(w);
  if (strcmp(mode, "fork") == 0) {
    pid_t child = fork();
    if (child == 0) {
      uint32_t c = frame_push(&f_child);
      burn_cpu_ms(30);
      frame_pop(c);
      exit(0);
    }
    waitpid(child, NULL, 0);
  }
  if (strcmp(mode, "sleep") == 0)
    usleep(1200 * 1000);
  frame_pop(d);
  return argc > 1 ? atoi(argv[1]) : 0;
}
