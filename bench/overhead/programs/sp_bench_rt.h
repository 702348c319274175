/*===- sp_bench_rt.h - More of a Spinel-shaped runtime, for benchmarks -*- C -*-===*
 *
 * Adds to examples/sp_runtime.h the kind of tiny `static inline` helpers
 * that Spinel's runtime header is full of (float arrays, numeric
 * conversions, string cursors, boxed values) and ucontext fibers. Like the
 * real header, everything here is compiled inside the program and defined
 * in a header, so the profiler counts it as runtime, not as the program's.
 * Not Spinel's code.
 *===----------------------------------------------------------------------===*/
#ifndef SP_BENCH_RT_H
#define SP_BENCH_RT_H

#include "sp_runtime.h"

#include <math.h>
#include <sys/mman.h>
#include <ucontext.h>

/* ---- Numbers --------------------------------------------------------- */

static inline mrb_float sp_int_to_f(mrb_int v) { return (mrb_float)v; }
static inline mrb_int sp_f_to_i(mrb_float v) { return (mrb_int)v; }
static inline mrb_float sp_math_sqrt(mrb_float v) { return sqrt(v); }
static inline mrb_float sp_f_max(mrb_float a, mrb_float b) { return a > b ? a : b; }
static inline mrb_float sp_f_min(mrb_float a, mrb_float b) { return a < b ? a : b; }
static inline mrb_int sp_int_mod(mrb_int a, mrb_int b) {
  mrb_int r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
static inline mrb_bool sp_f_zero_p(mrb_float v) { return v == 0.0; }

/* ---- Float arrays ------------------------------------------------------ */

typedef struct {
  mrb_int len, cap;
  mrb_float *items;
} sp_FloatArray;

static void sp_FloatArray_finalize(void *p) { free(((sp_FloatArray *)p)->items); }

static sp_FloatArray *sp_FloatArray_new(void) {
  sp_FloatArray *a = (sp_FloatArray *)sp_gc_alloc(sizeof(sp_FloatArray),
                                                  sp_FloatArray_finalize, NULL);
  return a;
}

static void sp_FloatArray_grow(sp_FloatArray *a) {
  a->cap = a->cap ? a->cap * 2 : 8;
  a->items = (mrb_float *)realloc(a->items, (size_t)a->cap * sizeof(mrb_float));
}

static inline void sp_FloatArray_push(sp_FloatArray *a, mrb_float v) {
  if (a->len == a->cap)
    sp_FloatArray_grow(a);
  a->items[a->len++] = v;
}

static inline mrb_float sp_FloatArray_get(sp_FloatArray *a, mrb_int i) {
  if (i < 0)
    i += a->len;
  return (i >= 0 && i < a->len) ? a->items[i] : 0.0;
}

static inline mrb_int sp_FloatArray_length(sp_FloatArray *a) { return a->len; }

/* ---- String cursors (what a parser leans on) ------------------------- */

static inline mrb_int sp_str_length(sp_String *s) { return s->len; }
static inline mrb_int sp_str_getbyte(sp_String *s, mrb_int i) {
  return (i >= 0 && i < s->len) ? (unsigned char)s->ptr[i] : -1;
}
static inline mrb_bool sp_byte_digit_p(mrb_int c) { return c >= '0' && c <= '9'; }
static inline mrb_bool sp_byte_space_p(mrb_int c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* ---- Fibers (ucontext, one mmap'd stack each) ------------------------ */

#define SP_FIBER_STACK (64 * 1024)

typedef struct sp_Fiber {
  ucontext_t ctx;
  ucontext_t *back;
  void (*body)(struct sp_Fiber *);
  mrb_int value;
  mrb_bool done;
} sp_Fiber;

static sp_Fiber *sp_fiber_current;
static ucontext_t sp_fiber_root_ctx;

static void sp_fiber_trampoline(void) {
  sp_Fiber *f = sp_fiber_current;
  f->body(f);
  f->done = 1;
  setcontext(f->back);
}

static sp_Fiber *sp_Fiber_new(void (*body)(sp_Fiber *)) {
  sp_Fiber *f = (sp_Fiber *)calloc(1, sizeof(sp_Fiber));
  void *stack = mmap(NULL, SP_FIBER_STACK, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  getcontext(&f->ctx);
  f->ctx.uc_stack.ss_sp = stack;
  f->ctx.uc_stack.ss_size = SP_FIBER_STACK;
  f->ctx.uc_link = NULL;
  f->body = body;
  makecontext(&f->ctx, sp_fiber_trampoline, 0);
  return f;
}

static mrb_int sp_Fiber_resume(sp_Fiber *f, mrb_int v) {
  ucontext_t back;
  sp_Fiber *prev = sp_fiber_current;
  f->back = &back;
  f->value = v;
  sp_fiber_current = f;
  swapcontext(&back, &f->ctx);
  sp_fiber_current = prev;
  return f->value;
}

static mrb_int sp_Fiber_yield(mrb_int v) {
  sp_Fiber *f = sp_fiber_current;
  f->value = v;
  swapcontext(&f->ctx, f->back);
  return f->value;
}

#endif /* SP_BENCH_RT_H */
