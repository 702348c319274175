/* Minimal -finstrument-functions hooks that keep a thread-local shadow
 * stack, the cheapest useful out-of-line alternative to spinelprof's
 * inline push/pop (docs/spinel.md, "What instrumenting every function
 * costs"). Compiled without -finstrument-functions. */
#include <stdint.h>

#define HOOK_CAPACITY 4096

static __thread struct {
  uint32_t depth;
  void *frames[HOOK_CAPACITY + 1];
} hook_stack __attribute__((tls_model("initial-exec")));

__attribute__((no_instrument_function)) void
__cyg_profile_func_enter(void *fn, void *site) {
  (void)site;
  uint32_t d = hook_stack.depth;
  hook_stack.frames[d < HOOK_CAPACITY ? d : HOOK_CAPACITY] = fn;
  __atomic_signal_fence(__ATOMIC_RELEASE);
  hook_stack.depth = d + 1;
}

__attribute__((no_instrument_function)) void
__cyg_profile_func_exit(void *fn, void *site) {
  (void)fn;
  (void)site;
  hook_stack.depth--;
}
