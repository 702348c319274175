/* A tiny Spinel-shaped program for the install test. */
#include <stdio.h>

/* Unsigned: the sum wraps, which signed arithmetic may not (UBSan). */
__attribute__((noinline)) static unsigned long sp_spin(long n) {
  volatile unsigned long acc = 0;
  for (long i = 0; i < n; i++) acc += i ^ (acc >> 3);
  return acc;
}

int main(int argc, char **argv) {
  unsigned long lv_sum = 0;
  for (int i = 0; i < 40; i++) lv_sum += sp_spin(2000000);
  printf("sum %lu\n", lv_sum);
  return 0;
}
