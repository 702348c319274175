; PC-named leaves: by default a small leaf of the program's own (no loop; no
; calls but intrinsics and `inline` frameless leaves; at most
; -spinelprof-leaf-max-size IR instructions with them) gets no push or pop,
; only its descriptor, flagged SPINELPROF_FLAG_PC_NAMED (4), and the
; attribute spinelprof-pc-named (so a second run changes nothing). Without
; debug info every function counts as the program's own.
;
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof -S %s | FileCheck %s
; CHECK-DAG: @__spinelprof_desc.sp_Foo_x = private constant {{.*}} { i32 1, i32 0, i32 0, i32 4,
; CHECK-DAG: @__spinelprof_desc.sp_Foo_peek = private constant {{.*}} { i32 1, i32 0, i32 0, i32 4,
; CHECK-DAG: @__spinelprof_desc._sp_proc_fn_1 = private constant {{.*}} { i32 1, i32 1, i32 0, i32 4,
; CHECK-DAG: @__spinelprof_desc.sp_Foo_set_x = private constant {{.*}} { i32 1, i32 0, i32 0, i32 4,
; CHECK-DAG: @__spinelprof_desc.sp_Foo_set_y = private constant {{.*}} { i32 1, i32 0, i32 0, i32 0,
; CHECK-DAG: @__spinelprof_desc.sp_Foo_sum = private constant {{.*}} { i32 1, i32 0, i32 0, i32 0,
; CHECK-DAG: @__spinelprof_desc.sp_Foo_puts = private constant {{.*}} { i32 1, i32 0, i32 0, i32 0,
; CHECK-DAG: @__spinelprof_desc.sp_Foo_big = private constant {{.*}} { i32 1, i32 0, i32 0, i32 4,
; CHECK-DAG: @__spinelprof_desc.sp_Foo_get = private constant {{.*}} { i32 1, i32 0, i32 0, i32 0,
; CHECK-DAG: @__spinelprof_desc.main = private constant {{.*}} { i32 1, i32 0, i32 0, i32 0,
; CHECK-DAG: @llvm.compiler.used = {{.*}}@__spinelprof_desc.sp_Foo_x
; CHECK-NOT: @__spinelprof_desc.sp_Foo_x.
;
; A leaf: no push, no pop, the attribute.
; CHECK-LABEL: define i64 @sp_Foo_x(
; CHECK-SAME:    #[[PCNAMED:[0-9]+]] {
; CHECK-NEXT:    %v = load i64, ptr %self
; CHECK-NEXT:    ret i64 %v
; Calls a tiny local function that is not inline (Spinel's SP_GC_SAVE
; cleanup, sp_gc_cleanup), which -O2 always inlines: a leaf.
; CHECK-LABEL: define void @sp_Foo_set_x(
; CHECK-SAME:    #[[PCNAMED]] {
; The same call to a copy that is not local (it could be interposed, and
; is not sure to be inlined): a push.
; CHECK-LABEL: define void @sp_Foo_set_y(
; CHECK:         store volatile ptr @__spinelprof_desc.sp_Foo_set_y
; Calls an inline leaf only (its helper, inlined at -O2): a leaf too.
; CHECK-LABEL: define i64 @sp_Foo_peek(
; CHECK-SAME:    #[[PCNAMED]] {
; CHECK-NOT:     spinelprof
; CHECK:         ret i64
; A block (kind 1) is PC-named like a method.
; CHECK-LABEL: define i64 @_sp_proc_fn_1(
; CHECK-SAME:    #[[PCNAMED]] {
; A loop keeps the push.
; CHECK-LABEL: define i64 @sp_Foo_sum(
; CHECK:         store volatile ptr @__spinelprof_desc.sp_Foo_sum
; A call to a function that is not inline keeps the push.
; CHECK-LABEL: define void @sp_Foo_puts(
; CHECK:         store volatile ptr @__spinelprof_desc.sp_Foo_puts
; Calls an inline function that is not a leaf: a push.
; CHECK-LABEL: define i64 @sp_Foo_get(
; CHECK:         store volatile ptr @__spinelprof_desc.sp_Foo_get
; CHECK: attributes #[[PCNAMED]] = {{.*}}"spinelprof-pc-named"
;
; The threshold: 8 instructions leave sp_Foo_x (2), sp_Foo_peek (2 + 4)
; and sp_Foo_big (6) PC-named; with 3, sp_Foo_peek (with its helper) and
; sp_Foo_big are too big and get a push.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=8 -S %s | FileCheck %s --check-prefix=MAX8
; MAX8-DAG: @__spinelprof_desc.sp_Foo_big = private constant {{.*}} { i32 1, i32 0, i32 0, i32 4,
; MAX8-DAG: @__spinelprof_desc.sp_Foo_peek = private constant {{.*}} { i32 1, i32 0, i32 0, i32 4,
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=3 -S %s | FileCheck %s --check-prefix=MAX3
; MAX3-DAG: @__spinelprof_desc.sp_Foo_x = private constant {{.*}} { i32 1, i32 0, i32 0, i32 4,
; MAX3-DAG: @__spinelprof_desc.sp_Foo_peek = private constant {{.*}} { i32 1, i32 0, i32 0, i32 0,
; MAX3-DAG: @__spinelprof_desc.sp_Foo_big = private constant {{.*}} { i32 1, i32 0, i32 0, i32 0,
; MAX3-DAG: store volatile ptr @__spinelprof_desc.sp_Foo_big
;
; 0 (the option or SPINEL_PROFILE_LEAF_MAX_SIZE), --all-frames
; (SPINEL_PROFILE_FRAMES=all) and an include pattern give every leaf a push.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -S %s | FileCheck %s --check-prefix=PUSH
; RUN: env SPINEL_PROFILE_LEAF_MAX_SIZE=0 %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=PUSH
; RUN: env SPINEL_PROFILE_FRAMES=all %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=PUSH
; RUN: env SPINEL_PROFILE_INCLUDE='sp_Foo_x|sp_Foo_peek' %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=PUSH
; PUSH-NOT: i32 4,
; PUSH-NOT: spinelprof-pc-named
; PUSH-LABEL: define i64 @sp_Foo_x(
; PUSH:         store volatile ptr @__spinelprof_desc.sp_Foo_x
; PUSH-LABEL: define i64 @sp_Foo_peek(
; PUSH:         store volatile ptr @__spinelprof_desc.sp_Foo_peek
; PUSH-NOT: spinelprof-pc-named
;
; A bad value is an error naming the variable.
; RUN: env SPINEL_PROFILE_LEAF_MAX_SIZE=many not %opt -load-pass-plugin %plugin -passes=spinelprof -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
; BAD: spinelprof: invalid leaf size 'many' in SPINEL_PROFILE_LEAF_MAX_SIZE

define i64 @sp_Foo_x(ptr %self) {
  %v = load i64, ptr %self
  ret i64 %v
}

; An inline frameless helper that is a leaf (as sp_str_getbyte).
define internal i64 @sp_str_getbyte(ptr %s, i64 %i) #0 {
  %p = getelementptr i8, ptr %s, i64 %i
  %b = load i8, ptr %p
  %w = zext i8 %b to i64
  ret i64 %w
}

@sp_gc_nroots = global i32 0

define internal void @sp_gc_cleanup(ptr %p) {
  %n = load i32, ptr %p
  store i32 %n, ptr @sp_gc_nroots
  ret void
}

define void @sp_gc_cleanup_extern(ptr %p) {
  %n = load i32, ptr %p
  store i32 %n, ptr @sp_gc_nroots
  ret void
}

define void @sp_Foo_set_x(ptr %self, i64 %v) {
  %saved = alloca i32
  %n = load i32, ptr @sp_gc_nroots
  store i32 %n, ptr %saved
  store i64 %v, ptr %self
  call void @sp_gc_cleanup(ptr %saved)
  ret void
}

define void @sp_Foo_set_y(ptr %self, i64 %v) {
  %saved = alloca i32
  %n = load i32, ptr @sp_gc_nroots
  store i32 %n, ptr %saved
  store i64 %v, ptr %self
  call void @sp_gc_cleanup_extern(ptr %saved)
  ret void
}

define i64 @sp_Foo_peek(ptr %self) {
  %v = call i64 @sp_str_getbyte(ptr %self, i64 1)
  ret i64 %v
}

define i64 @_sp_proc_fn_1(i64 %x) {
  %y = mul i64 %x, 3
  ret i64 %y
}

define i64 @sp_Foo_sum(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %next
}

declare i32 @puts(ptr)

define void @sp_Foo_puts(ptr %s) {
  %r = call i32 @puts(ptr %s)
  ret void
}

define i64 @sp_Foo_big(i64 %x) {
  %a = mul i64 %x, 3
  %b = add i64 %a, 7
  %c = xor i64 %b, %x
  %d = mul i64 %c, %a
  %e = add i64 %d, %b
  ret i64 %e
}

; Inline, but it calls out: not a leaf.
define internal void @sp_str_print(ptr %s) #0 {
  %r = call i32 @puts(ptr %s)
  ret void
}

define i64 @sp_Foo_get(ptr %self) {
  call void @sp_str_print(ptr %self)
  ret i64 0
}

define i32 @main() {
  ret i32 0
}

attributes #0 = { inlinehint }
