// Instrumented code in a shared library (compiled -fPIC, so it reaches the
// executable's shadow stack initial-exec) and in the executable (PIE, so
// local-exec: plugin/RuntimeThreadLocals.h) push onto one stack: the
// library's methods show under the executable's caller, in order. Built
// local-exec, the library would not link.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O2 -fPIC -shared -DLIBRARY %s -o %t/libwork.so
// RUN: %clang_prof -O2 -fPIE -pie %s %rtlib %t/libwork.so -Wl,-rpath,%t -o %t/app
// RUN: env SPINEL_PROFILE=%t/lib.folded %t/app | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/lib.folded --rules %s
// Without -fPIC clang compiles the library's code PIE: `spinel-prof cc
// -shared` tells the plugin initial-exec, so its TLS still links.
// RUN: mkdir %t/pie && %spinel-prof cc -O2 -shared -DLIBRARY %s -o %t/pie/libwork.so
// RUN: %clang_prof -O2 %s %rtlib %t/pie/libwork.so -Wl,-rpath,%t/pie -o %t/pie/app
// RUN: env SPINEL_PROFILE=%t/pie/lib.folded %t/pie/app | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/pie/lib.folded --rules %s
// A bad choice is the compiler's error, naming the variable.
// RUN: not env SPINEL_PROFILE_TLS=global-dynamic %clang_prof -O2 -c %s -o %t/bad.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: spinelprof: bad TLS model 'global-dynamic' in SPINEL_PROFILE_TLS: want auto or initial-exec
//
// OUT: result 2
// STACKS-ROOT: <main>
// STACKS: <main> -> app_outer
// STACKS: app_outer -> lib_work
// STACKS: lib_work -> lib_spin
// STACKS: lib_spin -> lib_clock_ns
// STACKS-PATH: <main>;app_outer;lib_work;lib_spin;lib_clock_ns >= 80%
#include <time.h>

#ifdef LIBRARY
// Static, as everything in the library but its entry: PIE code (the second
// build) reaches no global symbol from a shared object, TLS aside.
__attribute__((noinline)) static unsigned long long lib_clock_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (unsigned long long)t.tv_sec * 1000000000u + t.tv_nsec;
}

// Each calls something, so neither is a PC-named leaf: both are pushed.
__attribute__((noinline)) static int lib_spin(int ms) {
  unsigned long long end = lib_clock_ns() + ms * 1000000ull;
  volatile int x = 0;
  while (lib_clock_ns() < end)
    ++x;
  return 1;
}

__attribute__((noinline)) int lib_work(int ms) { return lib_spin(ms) + 1; }
#else
#include <stdio.h>

int lib_work(int ms);

__attribute__((noinline)) static int app_outer(int ms) { return lib_work(ms); }

int main(void) {
  printf("result %d\n", app_outer(300));
  return 0;
}
#endif
