/* Spinel-shaped recursion for self-tail-call.ll: fib's second call is an
 * accumulator tail call, ack's calls are tail calls. */
long sp_fib(long lv_n) {
  if (lv_n < 2)
    return lv_n;
  return sp_fib(lv_n - 1) + sp_fib(lv_n - 2);
}

long sp_ack(long lv_m, long lv_n) {
  if (lv_m == 0)
    return lv_n + 1;
  if (lv_n == 0)
    return sp_ack(lv_m - 1, 1);
  return sp_ack(lv_m - 1, sp_ack(lv_m, lv_n - 1));
}
