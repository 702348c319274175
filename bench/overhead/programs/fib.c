/* fib.rb: def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2); puts fib(N).
 * In the shape of Spinel's C (see bench/overhead/README.md). */
#include "sp_bench_rt.h"

static mrb_int sp_fib(mrb_int lv_n) {
  if (lv_n < 2)
    return lv_n;
  return sp_fib(lv_n - 1) + sp_fib(lv_n - 2);
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 32;
  sp_puts_int(sp_fib(lv_n));
  return 0;
}
