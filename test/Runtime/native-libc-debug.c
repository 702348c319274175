// libc named from its debug file: a program that spends its time in
// malloc/free churn (blocks above the tcache's limit, so glibc's internal
// _int_malloc and _int_free do the work) and in strtol (whose work is the
// internal ____strtol_l_internal). None of those internals is in libc's
// .dynsym, and libc ships without .symtab, so the runtime cannot name them:
// its folded file says "[native] libc.so.6", and its .sprof carries each
// address. spinel-prof names them from libc6-dbg's debug file.
//
// REQUIRES: libc6-dbg
// UNSUPPORTED: sanitized
// (A sanitizer replaces malloc and free, so glibc's allocator never runs.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_prof -O2 %s %rtlib -o %t/churn
// RUN: env SPINEL_PROFILE=%t/app.folded SPINEL_PROFILE_QUIET=1 %t/churn
// RUN: %python %inputs/check_sprof.py %t/app.folded
// The program's own folded file: one unnamed leaf per object.
// RUN: FileCheck %s --check-prefix=RAW < %t/app.folded
// RUN: %spinel-prof report %t/app.folded --top 0 | FileCheck %s --check-prefix=REPORT
// RUN: %spinel-prof convert %t/app.sprof --to folded -o %t/named.folded
// RUN: %python %inputs/check_unnamed_native.py %t/named.folded --object libc.so.6 --max 2 --min-native 100
// RUN: %spinel-prof report %t/app.sprof --fold-runtime --top 0 | FileCheck %s --check-prefix=FOLD
//
// RAW: [native] libc.so.6
// RAW-NOT: _int_malloc
// REPORT-DAG: runtime [native] _int_malloc libc.so.6
// REPORT-DAG: runtime [native] _int_free libc.so.6
// REPORT-DAG: runtime [native] ____strtol_l_internal libc.so.6
// FOLD: rank self% self total% total kind name location
// FOLD-NOT: [native]
// FOLD: user churn
// FOLD-NOT: [native]
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { Slots = 4096 };

static double seconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

__attribute__((noinline)) long churn(void **Blocks, unsigned *Seed) {
  long Sum = 0;
  for (int I = 0; I < Slots; I++) {
    *Seed = *Seed * 1103515245u + 12345u;
    unsigned K = (*Seed >> 8) % Slots;
    free(Blocks[K]);
    Blocks[K] = malloc(1100 + (*Seed >> 4) % 3000);
    *(char *)Blocks[K] = (char)I;
    Sum += *(char *)Blocks[K];
  }
  return Sum;
}

__attribute__((noinline)) long parse(const char *const *Numbers) {
  long Sum = 0;
  for (int I = 0; I < 8000; I++)
    Sum += strtol(Numbers[I % 4], NULL, 10);
  return Sum;
}

int main(void) {
  static void *Blocks[Slots];
  static const char *const Numbers[] = {"123456789", "-42", "  987654321012", "7"};
  unsigned Seed = 1;
  long Sum = 0;
  double End = seconds() + 0.5; // CPU seconds
  while (seconds() < End) {
    Sum += churn(Blocks, &Seed);
    Sum += parse(Numbers);
  }
  for (int I = 0; I < Slots; I++)
    free(Blocks[I]);
  printf("%d\n", Sum != 0);
  return 0;
}
