// The frame markers cost the inliner nothing ("call-inline-cost"="0"):
// clang weighs a method with a frame exactly as without the plugin, so it
// inlines the same methods and the profile shows the program's own
// inlining. (The inline push and pop before the markers added 50 points
// of the 225 to every method; markers counted as calls would add 70.)
// (-fno-sanitize=all: the costs of the code as written, without the
// sanitizers' own instrumentation.)
//
// RUN: %clang -fno-sanitize=all -O2 -gline-tables-only -c %s -o %t.plain.o -Rpass=inline 2> %t.plain.remarks
// RUN: %clang_prof -fno-sanitize=all -O2 -c %s -o %t.prof.o -Rpass=inline 2> %t.prof.remarks
// RUN: grep -o "'sp_Vec_mix' inlined into 'sp_run' with (cost=[-0-9]*" %t.plain.remarks > %t.plain.costs
// RUN: grep -o "'sp_Vec_mix' inlined into 'sp_run' with (cost=[-0-9]*" %t.prof.remarks > %t.prof.costs
// RUN: FileCheck %s --input-file=%t.plain.costs
// RUN: diff %t.plain.costs %t.prof.costs
// And the method keeps its frame inside its caller.
// RUN: %clang_prof -fno-sanitize=all -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FRAME
//
// CHECK-COUNT-2: 'sp_Vec_mix' inlined into 'sp_run' with (cost=
// FRAME-LABEL: define {{.*}}@sp_run(
// FRAME-NOT:     call {{.*}}@sp_Vec_mix(
// FRAME:         store volatile ptr @__spinelprof_desc.sp_Vec_mix
// FRAME-NOT:     call {{.*}}@sp_Vec_mix(
// FRAME:         ret i64

// A method of some arithmetic (not a PC-named leaf), called twice.
long sp_Vec_mix(long *self, long a) {
  long x = self[0];
  x = x * 3 ^ (a >> 2);
  x = x * 4 ^ (a >> 3);
  x = x * 5 ^ (a >> 4);
  x = x * 6 ^ (a >> 5);
  x = x * 7 ^ (a >> 6);
  x = x * 8 ^ (a >> 7);
  x = x * 9 ^ (a >> 1);
  x = x * 10 ^ (a >> 2);
  x = x * 11 ^ (a >> 3);
  x = x * 12 ^ (a >> 4);
  x = x * 13 ^ (a >> 5);
  x = x * 14 ^ (a >> 6);
  x = x * 15 ^ (a >> 7);
  x = x * 16 ^ (a >> 1);
  x = x * 17 ^ (a >> 2);
  x = x * 18 ^ (a >> 3);
  x = x * 19 ^ (a >> 4);
  x = x * 20 ^ (a >> 5);
  return x;
}

long sp_run(long *v, long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += sp_Vec_mix(v, i);
  return s + sp_Vec_mix(v + 1, n);
}
