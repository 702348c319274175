// Profiling never changes the program: stdout, stderr and the exit status
// (or terminating signal) are identical when built without the plugin, built
// with it but SPINEL_PROFILE=0, and profiled. Modes: a normal run, `exit 3`
// from a deep method, an uncaught exception (message on stderr, exit 1), and
// death by SIGTERM. The profile is still written on a nonzero exit.
// Under TSan only that it is written is checked: TSan holds an asynchronous
// signal back until the thread next enters one of its interceptors, so the
// sampler's copies wait for a late signal and land at the program's end
// (seen in CI; see docs/reliability.md on where samples land under TSan).
//
// RUN: %clang -O2 -I%examples %s -o %t.plain
// RUN: %clang_prof -O2 -I%examples %s %rtlib -o %t.prof
//
// RUN: %python %inputs/spinel/run_capture.py %t.plain ok > %t.plain.ok
// RUN: env SPINEL_PROFILE=0 %python %inputs/spinel/run_capture.py %t.prof ok > %t.off.ok
// RUN: env SPINEL_PROFILE=%t.ok.folded SPINEL_PROFILE_QUIET=1 %python %inputs/spinel/run_capture.py %t.prof ok > %t.on.ok
// RUN: env SPINEL_PROFILE=%t.ok2.folded %python %inputs/spinel/run_capture.py --drop-prefix 'spinelprof: ' %t.prof ok > %t.loud.ok
// RUN: diff %t.plain.ok %t.off.ok
// RUN: diff %t.plain.ok %t.on.ok
// RUN: diff %t.plain.ok %t.loud.ok
// RUN: FileCheck %s --check-prefix=OK --input-file=%t.plain.ok
// RUN: %if tsan %{ test -s %t.ok.folded %} %else %{ FileCheck %s --check-prefix=PROF --input-file=%t.ok.folded %}
//
// RUN: %python %inputs/spinel/run_capture.py %t.plain exit > %t.plain.exit
// RUN: env SPINEL_PROFILE=0 %python %inputs/spinel/run_capture.py %t.prof exit > %t.off.exit
// RUN: env SPINEL_PROFILE=%t.exit.folded SPINEL_PROFILE_QUIET=1 %python %inputs/spinel/run_capture.py %t.prof exit > %t.on.exit
// RUN: diff %t.plain.exit %t.off.exit
// RUN: diff %t.plain.exit %t.on.exit
// RUN: FileCheck %s --check-prefix=EXIT --input-file=%t.plain.exit
// RUN: %if tsan %{ test -s %t.exit.folded %} %else %{ FileCheck %s --check-prefix=PROF --input-file=%t.exit.folded %}
//
// RUN: %python %inputs/spinel/run_capture.py %t.plain raise > %t.plain.raise
// RUN: env SPINEL_PROFILE=0 %python %inputs/spinel/run_capture.py %t.prof raise > %t.off.raise
// RUN: env SPINEL_PROFILE=%t.raise.folded SPINEL_PROFILE_QUIET=1 %python %inputs/spinel/run_capture.py %t.prof raise > %t.on.raise
// RUN: diff %t.plain.raise %t.off.raise
// RUN: diff %t.plain.raise %t.on.raise
// RUN: FileCheck %s --check-prefix=RAISE --input-file=%t.plain.raise
// RUN: %if tsan %{ test -s %t.raise.folded %} %else %{ FileCheck %s --check-prefix=PROF --input-file=%t.raise.folded %}
//
// RUN: %python %inputs/spinel/run_capture.py %t.plain term > %t.plain.term
// RUN: env SPINEL_PROFILE=0 %python %inputs/spinel/run_capture.py %t.prof term > %t.off.term
// RUN: env SPINEL_PROFILE=%t.term.folded SPINEL_PROFILE_QUIET=1 %python %inputs/spinel/run_capture.py %t.prof term > %t.on.term
// RUN: diff %t.plain.term %t.off.term
// RUN: diff %t.plain.term %t.on.term
// RUN: FileCheck %s --check-prefix=TERM --input-file=%t.plain.term
//
// OK: line 1: 1
// OK: line 400: {{-?[0-9]+}}
// OK: total: {{-?[0-9]+}}
// OK-NEXT: --- stderr
// OK-NEXT: warning: on stderr
// OK-NEXT: --- exit 0
// EXIT: line 400:
// EXIT-NEXT: --- stderr
// EXIT-NEXT: warning: on stderr
// EXIT-NEXT: leaving with 3
// EXIT-NEXT: --- exit 3
// RAISE: line 400:
// RAISE-NEXT: --- stderr
// RAISE-NEXT: warning: on stderr
// RAISE-NEXT: bad mode (ArgumentError)
// RAISE-NEXT: --- exit 1
// TERM: line 400:
// TERM-NEXT: --- stderr
// TERM-NEXT: warning: on stderr
// TERM-NEXT: --- signal 15
// PROF: {{^}}<main>;Object#work{{(;[^ ]+)*}} {{[0-9]+$}}
#include <signal.h>
#include <unistd.h>

#include "sp_runtime.h"

__attribute__((noinline)) static mrb_int sp_mix(mrb_int lv_n) {
  uint64_t lv_x = (uint64_t)lv_n;
  for (mrb_int lv_i = 0; lv_i < 80000; lv_i++)
    lv_x = (lv_x ^ (lv_x >> 7)) * 0x9E3779B97F4A7C15ull + (uint64_t)lv_i;
  return (mrb_int)(lv_x >> 40);
}

// Prints as it goes: output interleaves with the samples.
static mrb_int sp_work(mrb_int lv_lines) {
  mrb_int lv_total = 0;
  for (mrb_int lv_i = 1; lv_i <= lv_lines; lv_i++) {
    lv_total += sp_mix(lv_i);
    printf("line %lld: %lld\n", (long long)lv_i, (long long)lv_total);
  }
  return lv_total;
}

static void sp_finish(const char *lv_mode) {
  if (strcmp(lv_mode, "exit") == 0) {
    fflush(stdout);
    fputs("leaving with 3\n", stderr);
    exit(3);
  }
  if (strcmp(lv_mode, "raise") == 0)
    sp_raise_cls("ArgumentError", "bad mode");
  if (strcmp(lv_mode, "term") == 0) {
    fflush(stdout);
    kill(getpid(), SIGTERM);
    pause();
  }
}

static void sp_deep(const char *lv_mode, mrb_int lv_n) {
  if (lv_n > 0)
    sp_deep(lv_mode, lv_n - 1);
  else
    sp_finish(lv_mode);
}

int main(int argc, char **argv) {
  const char *lv_mode = argc > 1 ? argv[1] : "ok";
  fputs("warning: on stderr\n", stderr);
  mrb_int lv_total = sp_work(400);
  sp_deep(lv_mode, 10);
  printf("total: %lld\n", (long long)lv_total);
  return 0;
}
