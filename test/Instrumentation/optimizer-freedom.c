// The push and pop leave the optimizer free around them: inlined into a
// loop, a one-line method keeps its frame (its push and pop stay inside the
// loop, LICM does not promote the depth out of it), yet the program's own
// fields are not reloaded across the push and pop: `self->pos` lives in a
// register and the load of `self->src` is hoisted out of the loop. With
// volatile or atomic stores both loads stay in the loop.
//
// RUN: %clang_prof -O2 -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}}i64 @sp_Parser_count(
// CHECK:         load i64, ptr %0
// CHECK:         load ptr, ptr
// The loop: the inlined method's push, its pop, the caller's store of pos.
// CHECK:         store ptr @__spinelprof_desc.sp_Parser_peek, ptr
// CHECK-NEXT:    call void asm sideeffect "", "r"(ptr {{.*}}[[STACK:%[0-9]+]])
// CHECK-NEXT:    store i32 {{%[0-9]+}}, ptr [[STACK]]
// CHECK-NEXT:    call void asm sideeffect "", "r"(ptr {{.*}}[[STACK]])
// CHECK-NOT:     load i64
// CHECK-NOT:     load ptr
// CHECK:         store i32 {{%[0-9]+}}, ptr [[STACK]]
// CHECK-NEXT:    call void asm sideeffect "", "r"(ptr {{.*}}[[STACK]])
// CHECK-NOT:     load i64
// CHECK-NOT:     load ptr
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
