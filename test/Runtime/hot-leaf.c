// The frame that burns the CPU is the leaf of most samples, each sample's
// weight is the thread's CPU time since its previous sample, and the .sprof
// is valid and self-consistent (check_sprof.py checks every key of
// docs/formats.md and that the folded file and the .sprof agree).
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// so samples land there, not where the program was; this test asserts
// where they land.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/hot.folded %t/app arg1 'arg "two"'
// RUN: %python %inputs/check_stacks.py %t/hot.folded --leaf 'Object#hot >= 75%%' --root '<main>' --min-samples 20
// RUN: %python %inputs/check_sprof.py %t/hot.folded | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOLDED < %t/hot.folded
// The weights add up to about the CPU time of the burning (0.30 s).
// RUN: %python %inputs/sprof_facts.py weight-total %t/hot.sprof 0.6 | FileCheck %s --check-prefix=WEIGHT
//
// (5 frames: a sample at exit, after main's last pop, is "[unknown]".)
// CHECK: ok: {{[0-9]+}} samples, {{[0-9]+}} stacks, {{[3-5]}} frames, 1 threads
// CHECK: command: ["{{.*}}app", "arg1", "arg \"two\""]
// CHECK: thread: [[TID:[0-9]+]] main
// CHECK: frame: user <main>|main|manual.c|
// CHECK: sample: [[TID]] {{[0-9]+}} <main>;Object#work;Object#hot
// CHECK: field: mode cpu
// CHECK: field: timer thread timer, CLOCK_MONOTONIC, random intervals, thread CPU clock
// CHECK: field: requested_hz 1000
// CHECK: field: dropped 0
// FOLDED: {{^}}<main>;Object#work;Object#hot {{[0-9]+}}
// WEIGHT: sample weights ok
#include "manual_frames.h"

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_work, "Object#work", "sp_Object_work", SPINELPROF_KIND_USER);
FRAME(f_hot, "Object#hot", "sp_Object_hot", SPINELPROF_KIND_USER);
FRAME(f_cold, "Object#cold", "sp_Object_cold", SPINELPROF_KIND_USER);

static NOINLINE void hot(void) {
  uint32_t d = frame_push(&f_hot);
  burn_cpu_ms(270);
  frame_pop(d);
}

static NOINLINE void cold(void) {
  uint32_t d = frame_push(&f_cold);
  burn_cpu_ms(30);
  frame_pop(d);
}

static NOINLINE void work(void) {
  uint32_t d = frame_push(&f_work);
  hot();
  cold();
  frame_pop(d);
}

int main(void) {
  uint32_t d = frame_push(&f_main);
  work();
  frame_pop(d);
  return 0;
}
