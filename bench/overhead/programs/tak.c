/* tak.rb: the Takeuchi function, run N times. Spinel-shaped C. */
#include "sp_bench_rt.h"

static mrb_int sp_tak(mrb_int lv_x, mrb_int lv_y, mrb_int lv_z) {
  if (lv_y < lv_x)
    return sp_tak(sp_tak(lv_x - 1, lv_y, lv_z), sp_tak(lv_y - 1, lv_z, lv_x),
                  sp_tak(lv_z - 1, lv_x, lv_y));
  return lv_z;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 10;
  mrb_int lv_sum = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_sum += sp_tak(22 + (lv_i & 1), 16, 8);
  sp_puts_int(lv_sum);
  return 0;
}
