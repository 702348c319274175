// Native time: a Spinel-shaped program whose Ruby methods spend most of
// their time outside instrumented code, in a function of a separately
// compiled object without the plugin (as Spinel's libspinel_rt.a holds
// bigint and regexp) and in libc's memcmp. Those samples must end in a
// "[native] NAME" leaf of kind runtime on top of the calling Ruby method,
// not be charged to the method itself. (libc here has no .symtab, so its
// memcmp variant is named by the object: "[native] libc.so.6".)
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// so samples land there, not where the program was; this test asserts
// where they land.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -I%include -DNATIVE_HALF -c %s -o %t/bigint.o
// RUN: %clang_prof -O2 -I%examples -c %s -o %t/prog.o
// RUN: %clang %t/prog.o %t/bigint.o %rtlib -lm -o %t/native-leaf
// RUN: env SPINEL_PROFILE=%t/app.folded SPINEL_PROFILE_QUIET=1 %t/native-leaf 3 | FileCheck %s --check-prefix=OUT
// RUN: %python %inputs/check_stacks.py %t/app.folded --rules %s
// RUN: %python %inputs/spinel/sprof_frames.py %t/app.sprof | FileCheck %s --check-prefix=SPROF
//
// STACKS-SAMPLES: >= 40
// STACKS-PATH: <main>;Object#multiply;[native] sp_bigint_mul_slow >= 25%
// STACKS-LEAF: [native] * >= 40%
// STACKS-ANY: Object#compare_all >= 10%
// OUT: product: {{[0-9]+}}
// OUT: equal: {{[0-9]+}}
// SPROF: frame [native] sp_bigint_mul_slow | sp_bigint_mul_slow | runtime | native-leaf | 0
#ifdef NATIVE_HALF
__attribute__((noinline)) long sp_bigint_mul_slow(long a, long b) {
  unsigned long r = 0;
  for (long i = 0; i < b; i++)
    r = (r ^ (unsigned long)(a + i)) * 0x9E3779B97F4A7C15ull;
  return (long)(r >> 3);
}
#else
#include "sp_runtime.h"

long sp_bigint_mul_slow(long a, long b);

static mrb_int sp_multiply(mrb_int lv_n) {
  return sp_bigint_mul_slow(lv_n, 60000000 * lv_n);
}

static mrb_int sp_compare_all(mrb_int lv_n) {
  static char lv_a[1 << 16], lv_b[1 << 16];
  mrb_int lv_equal = 0;
  for (mrb_int lv_i = 0; lv_i < 30000 * lv_n; lv_i++) {
    lv_b[lv_i & 0xffff] = (char)(lv_i >> 20);
    lv_equal += memcmp(lv_a, lv_b, sizeof lv_a) == 0;
  }
  return lv_equal;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 1;
  printf("product: %lld\n", (long long)(sp_multiply(lv_n) & 0xffff));
  printf("equal: %lld\n", (long long)sp_compare_all(lv_n));
  return 0;
}
#endif
