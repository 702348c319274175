/* callbench.c N: N calls of a small noinline method (and its return).
 * Built plain, with spinel-prof cc, with -finstrument-functions and the
 * out-of-line hooks, and with -DMODEL=k: a hand-written C model of other
 * push/pop sequences, to measure levers the plugin does not offer:
 *   1  spinelprof's sequence (store of the saved depth), initial-exec TLS
 *   2  the same with the pop as a decrement (load, subtract, store)
 *   3  spinelprof's sequence, local-exec TLS
 *   4  spinelprof's sequence through a TLS pointer to the current stack
 *      (what per-fiber stacks need: one more load per push)
 *   5  model 1 plus a generation counter bumped by each push (a separate
 *      32-bit word next to the depth, as abi.h now has)
 *   6  depth and generation in one 64-bit word: the push loads it and
 *      stores it + (1 << 32) + 1, the pop stores the 32-bit depth (the next
 *      push's 64-bit load then cannot take its value from the pop's store)
 *   7  as 6, but the pop also stores 64 bits: it loads the word and stores
 *      the saved depth with the generation it finds
 * The models' TLS lives in model_tls.c, another translation unit, so the
 * compiler cannot pick a cheaper TLS model than the one asked for. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef MODEL
#define MODEL 0
#endif

#if MODEL
#define CAP 4096
struct model_stack {
  uint32_t depth, gen;
  const void *frames[CAP + 1];
};
#if MODEL == 3
extern __thread struct model_stack model_stack __attribute__((tls_model("local-exec")));
#else
extern __thread struct model_stack model_stack __attribute__((tls_model("initial-exec")));
#endif
extern __thread struct model_stack *model_current __attribute__((tls_model("initial-exec")));
static const char model_desc[64] = "sp_step";
#if MODEL == 4
#define ST (*model_current)
#else
#define ST model_stack
#endif
#if MODEL == 6 || MODEL == 7
#define PUSH                                                                   \
  struct model_stack *s_ = &ST;                                                \
  uint64_t w_ = *(uint64_t *)s_;                                               \
  uint32_t d_ = (uint32_t)w_;                                                  \
  ((const void *volatile *)s_->frames)[d_ < CAP ? d_ : CAP] = model_desc;      \
  __atomic_store_n((volatile uint64_t *)s_, w_ + (1ull << 32) + 1,             \
                   __ATOMIC_RELEASE);
#else
#define PUSH                                                                   \
  struct model_stack *s_ = &ST;                                                \
  uint32_t d_ = s_->depth;                                                     \
  GEN                                                                          \
  ((const void *volatile *)s_->frames)[d_ < CAP ? d_ : CAP] = model_desc;      \
  __atomic_store_n((volatile uint32_t *)&s_->depth, d_ + 1, __ATOMIC_RELEASE);
#endif
#if MODEL == 5
#define GEN                                                                    \
  __atomic_store_n((volatile uint32_t *)&s_->gen, s_->gen + 1,                 \
                   __ATOMIC_RELAXED);                                          \
  __atomic_signal_fence(__ATOMIC_RELEASE);
#else
#define GEN
#endif
#if MODEL == 7
#define POP                                                                    \
  __atomic_store_n((volatile uint64_t *)s_,                                    \
                   (*(volatile uint64_t *)s_ & ~0xffffffffull) | d_,           \
                   __ATOMIC_RELEASE);
#elif MODEL == 2
#define POP                                                                    \
  __atomic_store_n((volatile uint32_t *)&s_->depth,                            \
                   *(volatile uint32_t *)&s_->depth - 1, __ATOMIC_RELEASE);
#else
#define POP __atomic_store_n((volatile uint32_t *)&s_->depth, d_, __ATOMIC_RELEASE);
#endif
#else
#define PUSH
#define POP
#endif

__attribute__((noinline)) static int64_t sp_step(int64_t lv_x) {
  PUSH
  int64_t r = (lv_x * 3 + 1) ^ (lv_x >> 7);
  POP
  return r;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 100000000;
  int64_t acc = argc;
  for (int64_t i = 0; i < n; i++)
    acc = sp_step(acc + i);
  printf("%lld\n", (long long)acc);
  return 0;
}
