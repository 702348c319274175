/* fiber.rb: a producer fiber and the main fiber ping-pong N values
 * (Fiber.yield / resume). Spinel-shaped C: the fiber body is
 * _fiber_body_1, the switches are runtime functions over ucontext. */
#include "sp_bench_rt.h"

static mrb_int sp_produce(mrb_int lv_v) { return lv_v * 3 + 1; }

static void _fiber_body_1(sp_Fiber *lv_f) {
  mrb_int lv_v = lv_f->value;
  for (;;)
    lv_v = sp_Fiber_yield(sp_produce(lv_v));
}

static mrb_int sp_consume(mrb_int lv_acc, mrb_int lv_v) { return (lv_acc + lv_v) & 0xffffff; }

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 1000000;
  sp_Fiber *lv_f = sp_Fiber_new(_fiber_body_1);
  mrb_int lv_acc = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_acc = sp_consume(lv_acc, sp_Fiber_resume(lv_f, lv_i));
  printf("acc: %lld\n", (long long)lv_acc);
  return 0;
}
