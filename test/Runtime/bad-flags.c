// A bad flag value: one line on stderr naming the variable, the value and
// the range, then the default; the program runs on and is profiled.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/a.folded SPINEL_PROFILE_HZ=abc SPINEL_PROFILE_QUIET=maybe %t/app > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=BAD --match-full-lines --implicit-check-not=spinelprof < %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: %python %inputs/check_sprof.py %t/a.folded | FileCheck %s --check-prefix=HZ100
//
// BAD: spinelprof: SPINEL_PROFILE_HZ='abc' is not a number from 1 to 100000; using 100
// BAD-NEXT: spinelprof: SPINEL_PROFILE_QUIET='maybe' is not 0 or 1; using 0
// BAD-NEXT: spinelprof: {{[0-9]+}} samples (100 Hz requested, {{[0-9]+}} Hz achieved), 0 dropped, {{.*}} s, wrote {{.*}}a.folded
// OUT: still running
// HZ100: field: requested_hz 100
//
// Unset (lit sets 1 kHz for the other tests): the default, 100 Hz.
// RUN: env -u SPINEL_PROFILE_HZ SPINEL_PROFILE=%t/d.folded %t/app > %t/out 2> %t/err
// RUN: %python %inputs/check_sprof.py %t/d.folded | FileCheck %s --check-prefix=HZ100
//
// Out of range: 0, too large, negative, trailing junk.
// RUN: env SPINEL_PROFILE=%t/b.folded SPINEL_PROFILE_HZ=0 %t/app 2>&1 >/dev/null | FileCheck %s --check-prefix=ZERO
// RUN: env SPINEL_PROFILE=%t/b.folded SPINEL_PROFILE_HZ=100001 %t/app 2>&1 >/dev/null | FileCheck %s --check-prefix=BIG
// RUN: env SPINEL_PROFILE=%t/b.folded SPINEL_PROFILE_HZ=-5 %t/app 2>&1 >/dev/null | FileCheck %s --check-prefix=NEG
// RUN: env SPINEL_PROFILE=%t/b.folded SPINEL_PROFILE_HZ=100x %t/app 2>&1 >/dev/null | FileCheck %s --check-prefix=JUNK
// ZERO: spinelprof: SPINEL_PROFILE_HZ='0' is not a number from 1 to 100000; using 100
// ZERO-NEXT: spinelprof: {{.*}}(100 Hz requested
// BIG: spinelprof: SPINEL_PROFILE_HZ='100001' is not a number
// NEG: spinelprof: SPINEL_PROFILE_HZ='-5' is not a number
// JUNK: spinelprof: SPINEL_PROFILE_HZ='100x' is not a number
//
// Good values are taken as given.
// RUN: env SPINEL_PROFILE=%t/c.folded SPINEL_PROFILE_HZ=250 SPINEL_PROFILE_QUIET=0 %t/app 2>&1 >/dev/null | FileCheck %s --check-prefix=GOOD --implicit-check-not=SPINEL_PROFILE
// GOOD: spinelprof: {{[0-9]+}} samples (250 Hz requested
#include "manual_frames.h"
#include <stdio.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

int main(void) {
  uint32_t d = frame_push(&f_main);
  burn_cpu_ms(30);
  frame_pop(d);
  puts("still running");
  return 0;
}
