/* loops.rb: tight integer loops with few calls (a sieve, a mandelbrot
 * count, nested times loops) at top level, inline in main, as Spinel emits
 * top-level code. */
#include "sp_bench_rt.h"

static mrb_int sp_mandel(mrb_int lv_size) {
  mrb_int lv_count = 0;
  for (mrb_int lv_y = 0; lv_y < lv_size; lv_y++)
    for (mrb_int lv_x = 0; lv_x < lv_size; lv_x++) {
      mrb_float lv_cr = 2.0 * sp_int_to_f(lv_x) / sp_int_to_f(lv_size) - 1.5;
      mrb_float lv_ci = 2.0 * sp_int_to_f(lv_y) / sp_int_to_f(lv_size) - 1.0;
      mrb_float lv_zr = 0, lv_zi = 0;
      mrb_int lv_i = 0;
      while (lv_i < 50 && lv_zr * lv_zr + lv_zi * lv_zi < 4.0) {
        mrb_float lv_t = lv_zr * lv_zr - lv_zi * lv_zi + lv_cr;
        lv_zi = 2.0 * lv_zr * lv_zi + lv_ci;
        lv_zr = lv_t;
        lv_i++;
      }
      if (lv_i == 50)
        lv_count++;
    }
  return lv_count;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 3;
  mrb_int lv_total = 0;
  for (mrb_int lv_r = 0; lv_r < lv_n; lv_r++) {
    mrb_int lv_lim = 2000000;
    char *lv_sieve = (char *)calloc((size_t)lv_lim + 1, 1);
    mrb_int lv_primes = 0;
    for (mrb_int lv_i = 2; lv_i <= lv_lim; lv_i++) {
      if (lv_sieve[lv_i])
        continue;
      lv_primes++;
      for (mrb_int lv_j = lv_i * 2; lv_j <= lv_lim; lv_j += lv_i)
        lv_sieve[lv_j] = 1;
    }
    free(lv_sieve);
    mrb_int lv_acc = 0;
    for (mrb_int lv_i = 0; lv_i < 3000; lv_i++)
      for (mrb_int lv_j = 0; lv_j < 1000; lv_j++)
        lv_acc += (lv_i ^ lv_j) & 7;
    lv_total += lv_primes + lv_acc + sp_mandel(300);
  }
  sp_puts_int(lv_total);
  return 0;
}
