/* Checks from C that what the plugin emits is what abi.h declares: the
 * top frame inside an instrumented function is that function's descriptor,
 * with the right fields; the depth comes back after a return and after a
 * longjmp; pushes store nothing but the slot and the depth (reserved stays
 * 0); the descriptors are found between __start_/__stop_ of the
 * section; a marked allocation counts its size down in the allocation
 * countdown and calls the sample function with an "alloc TYPE" descriptor
 * when it goes below zero. Defines the shadow stack, the countdown and the
 * sample function itself so it links without the runtime.
 * Prints "abi-contract: ok" or the first mismatch. */
#include "spinelprof/abi.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread struct spinelprof_shadow_stack __spinelprof_stack;
__thread int64_t __spinelprof_alloc_countdown;

static int alloc_samples;
static uint64_t alloc_size;
static const struct spinelprof_frame_descriptor *alloc_type;
void __spinelprof_alloc_sample(uint64_t size,
                               const struct spinelprof_frame_descriptor *type) {
  ++alloc_samples;
  alloc_size = size;
  alloc_type = type;
  __spinelprof_alloc_countdown = 1000;
}

extern const struct spinelprof_frame_descriptor
    __start_spinelprof_frames[] __attribute__((weak, visibility("hidden")));
extern const struct spinelprof_frame_descriptor
    __stop_spinelprof_frames[] __attribute__((weak, visibility("hidden")));

static int failures;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("abi-contract: FAIL line %d: %s\n", __LINE__, #cond);             \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* A macro, not a function: a function would be instrumented and find
 * itself on top. */
#define top_frame()                                                            \
  (__spinelprof_stack.depth == 0                                               \
       ? 0                                                                     \
       : __spinelprof_stack.frames[__spinelprof_stack.depth - 1 <              \
                                           SPINELPROF_STACK_CAPACITY           \
                                       ? __spinelprof_stack.depth - 1          \
                                       : SPINELPROF_STACK_CAPACITY])

#include "abi-contract-runtime.h"

static const struct spinelprof_frame_descriptor *seen_top;
static unsigned seen_depth;
static unsigned seen_reserved = 1;
static volatile int sink;

static const unsigned zero_p_line = __LINE__ + 1;
__attribute__((noinline)) static int sp_Geo_Vec_zero_p(int x) {
  seen_top = top_frame();
  seen_depth = __spinelprof_stack.depth;
  seen_reserved = __spinelprof_stack.reserved;
  return x == 0;
}

__attribute__((noinline)) void sp_gc_mark(int n) { sink = n; }

/* raise/rescue, Spinel style: a longjmp from deep callees. */
static jmp_buf handler;
__attribute__((noinline)) static void sp_raise_deep(int n) {
  if (n == 0)
    longjmp(handler, 1);
  sp_raise_deep(n - 1);
  sink = n;
}

typedef struct sp_Foo {
  long iv_a, iv_b, iv_c;
} sp_Foo;
static void *volatile kept;
__attribute__((noinline)) static sp_Foo *sp_Foo_new(void) {
  return (sp_Foo *)malloc(sizeof(sp_Foo));
}
__attribute__((noinline)) static void *sp_table(size_t n) {
  return calloc(n, 8);
}

static int walk_finds(const char *c_name) {
  for (const struct spinelprof_frame_descriptor *d = __start_spinelprof_frames;
       d < __stop_spinelprof_frames; ++d)
    if (d->abi_version == SPINELPROF_ABI_VERSION && !strcmp(d->c_name, c_name))
      return 1;
  return 0;
}

static const unsigned main_line = __LINE__ + 1;
int main(void) {
  const struct spinelprof_frame_descriptor *self = top_frame();
  unsigned depth = __spinelprof_stack.depth;

  EXPECT(depth == 1);
  EXPECT(self && !strcmp(self->name, "<main>") && !strcmp(self->c_name, "main"));
  EXPECT(self && self->line == main_line && self->kind == SPINELPROF_KIND_USER);

  sink = sp_Geo_Vec_zero_p(sink);
  EXPECT(seen_reserved == 0);
  EXPECT(__spinelprof_stack.depth == depth);
  EXPECT(top_frame() == self);
  EXPECT(seen_depth == depth + 1);
  EXPECT(seen_top && seen_top->abi_version == SPINELPROF_ABI_VERSION);
  EXPECT(seen_top && seen_top->kind == SPINELPROF_KIND_USER);
  EXPECT(seen_top && seen_top->flags == 0);
  EXPECT(seen_top && !strcmp(seen_top->name, "Geo::Vec#zero?"));
  EXPECT(seen_top && !strcmp(seen_top->c_name, "sp_Geo_Vec_zero_p"));
  EXPECT(seen_top && strstr(seen_top->file, "abi-contract.c"));
  EXPECT(seen_top && seen_top->line == zero_p_line);

  sink = sp_str_helper(sink);
  EXPECT(__spinelprof_stack.depth == depth);
  EXPECT(sp_helper_top && sp_helper_top->kind == SPINELPROF_KIND_RUNTIME);
  EXPECT(sp_helper_top && !strcmp(sp_helper_top->name, "sp_str_helper"));
  EXPECT(sp_helper_top && strstr(sp_helper_top->file, "abi-contract-runtime.h"));
  EXPECT(sp_helper_top && sp_helper_top->line == sp_helper_line);

  /* After the longjmp skips 21 frames' exits, setjmp's second return puts
   * main back on top. */
  if (setjmp(handler) == 0) {
    sp_raise_deep(20);
    EXPECT(!"not reached");
  }
  EXPECT(__spinelprof_stack.reserved == 0);
  EXPECT(__spinelprof_stack.depth == depth);
  EXPECT(top_frame() == self);

  sp_gc_mark(1);
  EXPECT(__start_spinelprof_frames && __stop_spinelprof_frames);
  EXPECT(walk_finds("main"));
  EXPECT(walk_finds("sp_Geo_Vec_zero_p"));
  EXPECT(walk_finds("sp_str_helper"));
  EXPECT(walk_finds("sp_gc_mark"));
  for (const struct spinelprof_frame_descriptor *d = __start_spinelprof_frames;
       d < __stop_spinelprof_frames; ++d)
    if (!strcmp(d->c_name, "sp_gc_mark"))
      EXPECT(d->kind == SPINELPROF_KIND_GC && !strcmp(d->name, "sp_gc_mark"));

  /* Allocations: 24 bytes each, from a countdown of 50. */
  __spinelprof_alloc_countdown = 50;
  kept = sp_Foo_new();
  free(kept);
  EXPECT(__spinelprof_alloc_countdown == 26 && alloc_samples == 0);
  kept = sp_Foo_new();
  free(kept);
  EXPECT(__spinelprof_alloc_countdown == 2 && alloc_samples == 0);
  kept = sp_Foo_new();
  free(kept);
  EXPECT(alloc_samples == 1 && alloc_size == 24);
  EXPECT(__spinelprof_alloc_countdown == 1000);
  EXPECT(alloc_type && alloc_type->abi_version == SPINELPROF_ABI_VERSION);
  EXPECT(alloc_type && alloc_type->kind == SPINELPROF_KIND_SYNTHETIC);
  EXPECT(alloc_type && alloc_type->flags == SPINELPROF_FLAG_ALLOC);
  EXPECT(alloc_type && !strcmp(alloc_type->name, "alloc Foo"));
  EXPECT(alloc_type && !strcmp(alloc_type->c_name, "") &&
         !strcmp(alloc_type->file, "") && alloc_type->line == 0);
  __spinelprof_alloc_countdown = 100;
  kept = sp_table(13); /* calloc(13, 8): 104 bytes */
  free(kept);
  EXPECT(alloc_samples == 2 && alloc_size == 104);
  EXPECT(alloc_type && !strcmp(alloc_type->name, "alloc [calloc]"));
  /* The type descriptors are no functions: not in the section. */
  EXPECT(!walk_finds(""));

  if (!failures)
    printf("abi-contract: ok\n");
  return failures != 0;
}
