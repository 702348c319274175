// A C program links the runtime with plain gcc (no C++ driver, no
// -lstdc++) and with clang; both profile.
//
// UNSUPPORTED: sanitized
// (Links with plain `cc`: a sanitized runtime archive needs the sanitizer
// runtime at link time.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: cc -O2 -I%include -I%inputs %s %rtlib -o %t/app-gcc
// RUN: %clang -O2 -I%include -I%inputs %s %rtlib -o %t/app-clang
// RUN: env SPINEL_PROFILE=%t/gcc.folded %t/app-gcc | FileCheck %s --check-prefix=OUT
// RUN: env SPINEL_PROFILE=%t/clang.folded %t/app-clang | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=FOLDED < %t/gcc.folded
// RUN: FileCheck %s --check-prefix=FOLDED < %t/clang.folded
// RUN: %python %inputs/check_sprof.py %t/gcc.folded | FileCheck %s --check-prefix=SPROF
//
// OUT: result ok
// FOLDED: {{^}}<main>;c_work [[N:[0-9]+]]{{$}}
// SPROF: ok: {{[1-9][0-9]*}} samples
// SPROF: frame: user <main>|main|manual.c|
// SPROF: frame: user c_work|c_work|manual.c|
#include "manual_frames.h"
#include <stdio.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_work, "c_work", "c_work", SPINELPROF_KIND_USER);

static NOINLINE void c_work(void) {
  uint32_t d = frame_push(&f_work);
  burn_cpu_ms(150);
  frame_pop(d);
}

int main(void) {
  uint32_t d = frame_push(&f_main);
  c_work();
  frame_pop(d);
  puts("result ok");
  return 0;
}
