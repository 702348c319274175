// The native-frame table, looked up directly (no sampling): a function
// compiled without the plugin gets a "[native] NAME" descriptor of kind
// runtime (2) with the object's basename as file; a clone suffix (.isra.0,
// .cold, ...) is dropped from the name; a function of libc gets libc's
// name; an instrumented function (on the shadow stack already) and an
// address outside every object get none. The vDSO's functions are named
// from its in-memory image. The native half of this file is
// compiled separately, without the plugin, as Spinel's libspinel_rt.a is.
//
// UNSUPPORTED: sanitized
// (Sanitizer runtimes define qsort and other libc functions in the
// executable (interceptors), so they are not libc's native frames.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O1 -I%include -DNATIVE_HALF -c %s -o %t/native.o
// RUN: %clang_prof -O1 -c %s -o %t/prog.o
// RUN: %clang %t/prog.o %t/native.o %rtlib -o %t/native-table
// RUN: env SPINEL_PROFILE=0 %t/native-table | FileCheck %s
//
// CHECK: instrumented: none
// CHECK-NEXT: native: [native] sp_bigint_mul_slow | 2 | native-table | sp_bigint_mul_slow
// CHECK-NEXT: native end: [native] sp_bigint_mul_slow
// CHECK-NEXT: clone: [native] re_match_here | 2 | native-table | re_match_here
// CHECK-NEXT: libc: [native] qsort | 2 | libc.so.6 | qsort
// CHECK-NEXT: outside: none
// CHECK-NEXT: same descriptor: yes
// CHECK-NEXT: vdso clock_gettime: yes
#include "spinelprof/abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#ifdef NATIVE_HALF
__attribute__((noinline)) long sp_bigint_mul_slow(long a, long b) {
  long r = 0;
  for (long i = 0; i < b; i++)
    r += a ^ i;
  return r;
}
// As gcc names a specialised clone.
__attribute__((noinline)) long re_match_here(long a) __asm__("re_match_here.isra.0");
__attribute__((noinline)) long re_match_here(long a) { return a * 3 + 1; }
#else
long sp_bigint_mul_slow(long a, long b);
long re_match_here(long a) __asm__("re_match_here.isra.0");

int __spinelprof_test_init_native_frames(void);
const struct spinelprof_frame_descriptor *
__spinelprof_test_native_frame_at(uintptr_t pc);

__attribute__((noinline)) static long sp_work(long n) {
  return sp_bigint_mul_slow(n, 3) + re_match_here(n);
}

static void show(const char *what, const void *address) {
  const struct spinelprof_frame_descriptor *d =
      __spinelprof_test_native_frame_at((uintptr_t)address);
  if (!d)
    printf("%s: none\n", what);
  else
    printf("%s: %s | %u | %s | %s\n", what, d->name, d->kind, d->file,
           d->c_name);
}

int main(void) {
  if (__spinelprof_test_init_native_frames() != 0)
    printf("init failed\n");
  show("instrumented", (const char *)sp_work + 2);
  show("native", (const char *)sp_bigint_mul_slow + 4);
  const struct spinelprof_frame_descriptor *end =
      __spinelprof_test_native_frame_at((uintptr_t)sp_bigint_mul_slow + 8);
  printf("native end: %s\n", end ? end->name : "none");
  show("clone", (const char *)re_match_here + 1);
  show("libc", (const char *)qsort + 1);
  show("outside", (const void *)(uintptr_t)16);
  printf("same descriptor: %s\n",
         __spinelprof_test_native_frame_at((uintptr_t)sp_bigint_mul_slow) ==
                 __spinelprof_test_native_frame_at((uintptr_t)sp_bigint_mul_slow + 1)
             ? "yes" : "no");
  // The vDSO has no file: its symbols are read from memory.
  uintptr_t vdso = getauxval(AT_SYSINFO_EHDR);
  int found = vdso == 0; // nothing to look at without one
  for (uintptr_t pc = vdso; vdso && pc < vdso + 0x4000 && !found; pc += 4) {
    const struct spinelprof_frame_descriptor *d = __spinelprof_test_native_frame_at(pc);
    found = d && strcmp(d->name, "[native] clock_gettime") == 0 &&
            strcmp(d->file, "[vdso]") == 0;
  }
  printf("vdso clock_gettime: %s\n", found ? "yes" : "no");
  return (int)(sp_work(5) & 0);
}
#endif
