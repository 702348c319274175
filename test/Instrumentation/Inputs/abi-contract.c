/* Checks from C that what the plugin emits is what abi.h declares: the
 * top frame inside an instrumented function is that function's descriptor,
 * with the right fields; the depth comes back after a return and after a
 * longjmp; the descriptors are found between __start_/__stop_ of the
 * section. Defines the shadow stack itself so it links without the runtime.
 * Prints "abi-contract: ok" or the first mismatch. */
#include "spinelprof/abi.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

__thread struct spinelprof_shadow_stack __spinelprof_stack;
__thread intptr_t __spinelprof_stack_offset;

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
static volatile int sink;

static const unsigned zero_p_line = __LINE__ + 1;
__attribute__((noinline)) static int sp_Geo_Vec_zero_p(int x) {
  seen_top = top_frame();
  seen_depth = __spinelprof_stack.depth;
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

  if (!failures)
    printf("abi-contract: ok\n");
  return failures != 0;
}
