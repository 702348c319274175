// An output path that cannot be written: one stderr line naming the path and
// the errno text, no file left behind, and the program's stdout and exit
// status unchanged. (Tests run as root, so permissions are tested with paths
// root cannot write either: a file inside a regular file, and /proc.)
//
// RUN: rm -rf %t && mkdir -p %t/run %t/adir
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: touch %t/run/file
//
// Found at start-up: the directory is missing.
// RUN: cd %t/run && env SPINEL_PROFILE=%t/run/missing/p.folded %python %inputs/exit_status.py %t/app 3 > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefixes=OUT,STATUS < %t/out
// RUN: FileCheck %s --check-prefix=MISSING -DDIR=%t/run --match-full-lines < %t/err
// RUN: count 1 < %t/err
// MISSING: spinelprof: cannot write profile '[[DIR]]/missing/p.folded': No such file or directory; profiling is off
// OUT: working
// STATUS-NEXT: exit status: 3
//
// The path is a directory.
// RUN: cd %t/run && env SPINEL_PROFILE=%t/adir not %t/app 3 > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=ISDIR -DDIR=%t --match-full-lines < %t/err
// RUN: count 1 < %t/err
// ISDIR: spinelprof: cannot write profile '[[DIR]]/adir': Is a directory; profiling is off
//
// A "directory" that is a regular file.
// RUN: cd %t/run && env SPINEL_PROFILE=%t/run/file/x.folded not %t/app 3 > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=NOTDIR -DDIR=%t/run --match-full-lines < %t/err
// RUN: count 1 < %t/err
// NOTDIR: spinelprof: cannot write profile '[[DIR]]/file/x.folded': Not a directory; profiling is off
//
// /proc: root may not create files there either.
// RUN: cd %t/run && env SPINEL_PROFILE=/proc/spinelprof-test.folded not %t/app 3 > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=PROC --match-full-lines < %t/err
// RUN: count 1 < %t/err
// PROC: spinelprof: cannot write profile '/proc/spinelprof-test.folded': {{.+}}; profiling is off
//
// Found only at exit, the authoritative check: the program removes the
// directory it was to be written to.
// RUN: mkdir %t/run/gone
// RUN: cd %t/run && env SPINEL_PROFILE=%t/run/gone/p.folded %python %inputs/exit_status.py %t/app 3 %t/run/gone > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefixes=OUT,STATUS < %t/out
// RUN: FileCheck %s --check-prefix=GONE -DDIR=%t/run --match-full-lines < %t/err
// RUN: count 1 < %t/err
// GONE: spinelprof: cannot write profile '[[DIR]]/gone/p.folded': No such file or directory
//
// Nothing was left anywhere (only the marker file the test made).
// RUN: ls %t/run | FileCheck %s --check-prefix=LS
// RUN: ls %t/run | count 1
// RUN: ls %t/adir | count 0
// LS: file
#include "manual_frames.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

int main(int argc, char **argv) {
  uint32_t d = frame_push(&f_main);
  puts("working");
  fflush(stdout);
  burn_cpu_ms(30);
  if (argc > 2 && rmdir(argv[2]) != 0)
    perror("rmdir");
  frame_pop(d);
  return argc > 1 ? atoi(argv[1]) : 0;
}
