// A program's own signal handler that calls an interposed libc function
// (here write) for the first time takes no memory: the archive's
// definitions look their real ones up (dlsym, which allocates) when the
// program starts, not at their first call. Looked up in a handler that
// interrupted malloc, that allocation would deadlock on the heap's lock.
// The program counts its mallocs made inside the handler (it defines
// malloc and friends over glibc's __libc_* ones), with profiling on and
// off.
//
// UNSUPPORTED: sanitized
// (A sanitizer's runtime defines malloc itself.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_prof -O1 %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/on.folded SPINEL_PROFILE_QUIET=1 %t/app | FileCheck %s
// RUN: env SPINEL_PROFILE=0 %t/app | FileCheck %s
//
// CHECK: handled
// CHECK-NEXT: mallocs in the handler: 0
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void __libc_free(void *);

static volatile sig_atomic_t in_handler, mallocs_in_handler;

void *malloc(size_t n) {
  mallocs_in_handler += in_handler;
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t m) {
  mallocs_in_handler += in_handler;
  return __libc_calloc(n, m);
}
void *realloc(void *p, size_t n) {
  mallocs_in_handler += in_handler;
  return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }

static void sp_on_signal(int sig) {
  (void)sig;
  in_handler = 1;
  (void)!write(1, "handled\n", 8); // The program's first write(2).
  in_handler = 0;
}

static volatile uint64_t sink;

__attribute__((noinline)) static void sp_burn(int n) {
  for (int i = 0; i < n; ++i)
    sink = sink * 6364136223846793005u + 1442695040888963407u;
}

int main(void) {
  sp_burn(1000000);
  signal(SIGUSR1, sp_on_signal);
  raise(SIGUSR1);
  printf("mallocs in the handler: %d\n", (int)mallocs_in_handler);
  return 0;
}
