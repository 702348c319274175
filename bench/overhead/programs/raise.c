/* raise.rb: a method that raises three calls deep, rescued in a loop
 * (begin / rescue ArgumentError / retry-free), N times. Spinel-shaped C:
 * the rescue is an inline setjmp over sp_exc_stack, sp_raise_cls longjmps. */
#include "sp_bench_rt.h"

static mrb_int gv_rescued;

static mrb_int sp_validate(mrb_int lv_x) {
  if (lv_x % 3 == 0)
    sp_raise_cls("ArgumentError", "multiple of three");
  return lv_x * 2;
}

static mrb_int sp_step(mrb_int lv_x) { return sp_validate(lv_x + 1) + 1; }

static mrb_int sp_work(mrb_int lv_x) { return sp_step(lv_x) + sp_step(lv_x + 1); }

static mrb_int sp_guarded(mrb_int lv_x) {
  volatile mrb_int lv_r = 0;
  sp_exc_roots[sp_exc_top] = sp_gc_nroots;
  if (setjmp(sp_exc_stack[sp_exc_top++]) == 0) {
    lv_r = sp_work(lv_x);
    sp_exc_top--;
  } else {
    if (sp_exc_is_a("ArgumentError"))
      gv_rescued++;
    lv_r = -1;
  }
  return lv_r;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 2000000;
  mrb_int lv_sum = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++)
    lv_sum += sp_guarded(lv_i);
  printf("sum: %lld rescued: %lld\n", (long long)lv_sum, (long long)gv_rescued);
  return 0;
}
