/* ackermann.rb: ack(2, n) and ack(3, k) repeatedly. Spinel-shaped C. The
 * last call is a self tail call, which clang turns into a loop. */
#include "sp_bench_rt.h"

static mrb_int sp_ack(mrb_int lv_m, mrb_int lv_n) {
  if (lv_m == 0)
    return lv_n + 1;
  if (lv_n == 0)
    return sp_ack(lv_m - 1, 1);
  return sp_ack(lv_m - 1, sp_ack(lv_m, lv_n - 1));
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 40;
  mrb_int lv_sum = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_sum += sp_ack(2 + (lv_i & 1), 9 - (lv_i & 1));
  sp_puts_int(lv_sum);
  return 0;
}
