/* The thread-local storage of callbench.c's push/pop models. */
#include <stdint.h>
struct model_stack {
  uint32_t depth, gen;
  const void *frames[4096 + 1];
};
__thread struct model_stack model_stack;
__thread struct model_stack *model_current = 0;
/* Points the pointer model at this thread's stack before main runs. */
__attribute__((constructor)) static void model_init(void) { model_current = &model_stack; }
