// spinel-prof cc with the real clang, plugin and runtime: build, run, report.
// The hot leaf must be the top frame by self, under the caller that calls it.
//
// UNSUPPORTED: sanitized
// (Asserts time shares of code whose cost the sanitizers change
// unevenly; that is not a property of the profiler.)
//
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c && cd %t
//
// One step, with the flags Spinel passes under --cc (gc-sections must not
// lose the frame descriptors).
// RUN: %spinel-prof cc -O2 -Wno-all -ffunction-sections -fdata-sections prog.c -lm \
// RUN:     -Wl,--gc-sections -o prog
// RUN: env SPINEL_PROFILE=%t/prog.folded SPINEL_PROFILE_QUIET=1 %t/prog > %t/out.txt
// RUN: FileCheck %s --check-prefix=OUT < %t/out.txt
// RUN: %spinel-prof report %t/prog.folded 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: %spinel-prof report %t/prog.sprof --by total | FileCheck %s --check-prefix=TOTAL
//
// Compile and link as separate steps.
// RUN: %spinel-prof cc -O2 -c prog.c -o prog.o
// RUN: %spinel-prof cc prog.o -o prog2
// RUN: env SPINEL_PROFILE=%t/prog2.folded SPINEL_PROFILE_QUIET=1 %t/prog2 | FileCheck %s --check-prefix=OUT
// RUN: %spinel-prof report %t/prog2.sprof | FileCheck %s --check-prefix=REPORT
//
// Profiling off: the same output.
// RUN: env SPINEL_PROFILE=0 %t/prog | diff - %t/out.txt
//
// C that clang 16+ rejects by default and gcc only warns about (Spinel's
// output can contain it) still builds, with the warning kept.
// RUN: printf 'int *p = 1;\nint main(void) { char *q = p; return q == 0; }\n' > lax.c
// RUN: %spinel-prof cc -O2 lax.c -o lax 2> lax.err
// RUN: FileCheck %s --check-prefix=LAX < lax.err
// RUN: env SPINEL_PROFILE=0 %t/lax
// LAX: warning: incompatible integer to pointer conversion

// OUT: result 599999700000000

// REPORT-NOT:  warning
// REPORT:      Command: {{.*}}prog
// REPORT:      Mode: cpu
// REPORT:      Samples: {{[1-9][0-9]*}}
// REPORT:      rank self% self total% total kind name location
// REPORT-NEXT: 1 {{[0-9.]+}}% {{[0-9]+}} {{[0-9.]+}}% {{[0-9]+}} user {{.*}}burn prog.c:{{[0-9]+}}
// REPORT-NOT:  warning

// TOTAL:      rank self% self total% total kind name location
// (<main>: all but a sample now and then at start-up before its push or
// at exit after its pop, stdio's flush of the output among them: roots
// of their own, [unknown] or [blocked write].)
// TOTAL-DAG:  {{100\.00|99\.[5-9][0-9]}}% {{[0-9]+}} user <main> prog.c:{{[0-9]+}}
// (work: at least 90%, not all: a sample may land in main's printf, or,
// when the sampler was held up under load, its owed samples go to the
// stack of the moment.)
// TOTAL-DAG:  {{100\.00|9[0-9]\.[0-9][0-9]}}% {{[0-9]+}} user {{.*}}work prog.c:{{[0-9]+}}

#include <stdio.h>

__attribute__((noinline)) static long sp_burn(long n) {
  volatile long x = 0;
  for (long i = 0; i < n; i++)
    x += i;
  return x;
}

__attribute__((noinline)) static long sp_work(int k) {
  long s = 0;
  for (int i = 0; i < k; i++)
    s += sp_burn(2000000);
  return s;
}

int main(void) {
  printf("result %ld\n", sp_work(300));
  return 0;
}
