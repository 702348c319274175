// Frame names with ; % newline and carriage return are escaped in the
// folded file (%3B %25 %0A %0D; spaces kept), and written as proper JSON in
// the .sprof: quotes, backslashes and control characters escaped, valid
// UTF-8 kept, each maximal invalid UTF-8 sequence replaced by U+FFFD.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/n.folded SPINEL_PROFILE_QUIET=1 %t/app > %t/names
// RUN: %python %inputs/check_names.py %t/names %t/n.folded | FileCheck %s --check-prefix=NAMES
// RUN: FileCheck %s --check-prefix=FOLDED < %t/n.folded
// RUN: FileCheck %s --check-prefix=JSON < %t/n.sprof
// RUN: %python %inputs/check_sprof.py %t/n.folded | FileCheck %s --check-prefix=SPROF
//
// NAMES: names ok
// FOLDED: {{^}}<main>;Foo#a%3Bb;50%25 done;two%0Alines;cr%0Dx;
// JSON: "name": "Foo#a;b"
// JSON: "name": "two\nlines"
// JSON: "name": "cr\rx"
// JSON: "name": "\"q\" \\x"
// JSON: "name": "ctl\u0001\ttab"
// JSON: "name": "Größe#été 🙂"
// JSON: "name": "bad �� over �� surrogate ��� cut �|"
// (A sample can land outside every frame, before main or in exit, and shows
// as an extra [unknown] stack and frame; one can land while the frames are
// being pushed, a shorter stack of the same frames: seen under TSan, whose
// first pushes are slow. The stack count is therefore not fixed.)
// SPROF: ok: {{[0-9]+}} samples, {{[0-9]+}} stacks, {{9|10}} frames
#include "manual_frames.h"
#include <stdio.h>
#include <string.h>

static const char *const Names[] = {
    "<main>",      "Foo#a;b",          "50% done",
    "two\nlines",  "cr\rx",            "\"q\" \\x",
    "ctl\x01\ttab", "Größe#été 🙂",
    "bad \xff\xfe over \xc0\xaf surrogate \xed\xa0\x80 cut \xe2\x82|"};
enum { N = sizeof(Names) / sizeof(Names[0]) };
static struct spinelprof_frame_descriptor Frames[N];

static NOINLINE void nest(int i) {
  uint32_t d = frame_push(&Frames[i]);
  if (i + 1 < N)
    nest(i + 1);
  else
    burn_cpu_ms(60);
  frame_pop(d);
}

int main(void) {
  for (int i = 0; i < N; ++i) {
    Frames[i] = (struct spinelprof_frame_descriptor){
        SPINELPROF_ABI_VERSION, SPINELPROF_KIND_USER, 1, 0, Names[i], "c",
        "manual.c"};
  }
  nest(0);
  for (int i = 0; i < N; ++i) {
    for (const unsigned char *p = (const unsigned char *)Names[i]; *p; ++p)
      printf("%02x", *p);
    printf("\n");
  }
  return 0;
}
