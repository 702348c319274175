/*===- ucontext_fibers.h - Fibers the way Spinel makes them -----*- C -*-===*
 *
 * Spinel's fibers run on ucontext: getcontext and makecontext create one
 * with its own 64 KiB mmap'd C stack, swapcontext switches (docs/spinel.md,
 * "Fibers"). SPINEL_UCONTEXT_FIBERS(YIELD) defines the struct sp_Fiber,
 * sp_fiber_current, sp_fiber_trampoline, sp_Fiber_new(f, body),
 * sp_Fiber_resume(f) and YIELD() (sp_Fiber_yield, or sp_Fiber_cls_yield:
 * named Fiber.yield), for Runtime/fibers.c, fibers-nested.c and
 * Stress/fibers.c. A body that returns sets f->done and goes back to its
 * last resumer.
 *
 * A macro that the test expands in its own file: the plugin names a
 * function by where it is defined, and the tests' rules name these as the
 * program's own (Fiber#resume), not as header helpers.
 *===----------------------------------------------------------------------===*/
#ifndef SPINELPROF_TEST_UCONTEXT_FIBERS_H
#define SPINELPROF_TEST_UCONTEXT_FIBERS_H

#include <stddef.h>
#include <sys/mman.h>
#include <ucontext.h>

#define SPINEL_UCONTEXT_FIBERS(YIELD)                                          \
  typedef struct sp_Fiber {                                                    \
    ucontext_t ctx;                                                            \
    ucontext_t caller;                                                         \
    void (*body)(void);                                                        \
    int done;                                                                  \
  } sp_Fiber;                                                                  \
                                                                               \
  static sp_Fiber *sp_fiber_current;                                           \
                                                                               \
  static void sp_fiber_trampoline(void) {                                      \
    sp_fiber_current->body();                                                  \
    sp_fiber_current->done = 1;                                                \
  }                                                                            \
                                                                               \
  static void sp_Fiber_new(sp_Fiber *f, void (*body)(void)) {                  \
    getcontext(&f->ctx);                                                       \
    f->ctx.uc_stack.ss_sp = mmap(NULL, 65536, PROT_READ | PROT_WRITE,          \
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);          \
    f->ctx.uc_stack.ss_size = 65536;                                           \
    f->ctx.uc_link = &f->caller;                                               \
    f->body = body;                                                            \
    f->done = 0;                                                               \
    makecontext(&f->ctx, sp_fiber_trampoline, 0);                              \
  }                                                                            \
                                                                               \
  __attribute__((noinline)) static void sp_Fiber_resume(sp_Fiber *f) {         \
    sp_Fiber *prev = sp_fiber_current;                                         \
    sp_fiber_current = f;                                                      \
    swapcontext(&f->caller, &f->ctx);                                          \
    sp_fiber_current = prev;                                                   \
  }                                                                            \
                                                                               \
  __attribute__((noinline)) static void YIELD(void) {                          \
    sp_Fiber *f = sp_fiber_current;                                            \
    swapcontext(&f->ctx, &f->caller);                                          \
  }

/* SPINEL_UCONTEXT_RESUME_DEEP(SINK) defines sp_resume_deep(f, n): resumes
 * f from n frames deeper, each a frame of its own (adding n to the
 * volatile SINK after the call keeps it from being a tail call). */
#define SPINEL_UCONTEXT_RESUME_DEEP(SINK)                                      \
  __attribute__((noinline)) static void sp_resume_deep(sp_Fiber *f, int n) {   \
    if (n == 0)                                                                \
      sp_Fiber_resume(f);                                                      \
    else                                                                       \
      sp_resume_deep(f, n - 1);                                                \
    SINK += n;                                                                 \
  }

#endif /* SPINELPROF_TEST_UCONTEXT_FIBERS_H */
