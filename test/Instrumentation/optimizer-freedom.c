// The push and pop leave the optimizer free around them: inlined into a
// loop, a one-line method keeps its frame (its push and pop stay inside the
// loop), yet nothing else is reloaded across them: `self->pos` and
// `self->len` live in registers, and the stack's address and the entry
// depth are computed once. With the depth stored by a release atomic (LLVM:
// "may touch all memory") all four are reloaded in every iteration.
//
// (-fno-sanitize=all: in a sanitized build the IR is checked without the
// sanitizers' own loads and stores between the program's.)
// RUN: %clang_prof -fno-sanitize=all -O2 -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}}i64 @sp_Parser_count(
// CHECK:         store volatile ptr @__spinelprof_desc.sp_Parser_count, ptr
// CHECK:         load i64, ptr %0
// CHECK:         store volatile ptr @__spinelprof_desc.sp_Parser_peek, ptr
// CHECK-NEXT:    store volatile i32
// CHECK-NOT:     load i{{32|64}}
// CHECK:         br i1 {{.*}}!llvm.loop
// CHECK:         ret i64

typedef struct sp_Parser {
  long pos;
  long len;
  const char *src;
} sp_Parser;

static inline long sp_Parser_peek(sp_Parser *self) {
  return self->src[self->pos];
}

long sp_Parser_count(sp_Parser *self) {
  long n = 0;
  while (self->pos < self->len) {
    n += sp_Parser_peek(self) == 'a';
    self->pos++;
  }
  return n;
}
