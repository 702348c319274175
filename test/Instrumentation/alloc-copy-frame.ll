; A caller with at most 8 pushes calls a copy of the allocator that
; leaves its own frame to its callers (LowerAllocSites.cpp):
; ALLOCATOR.spinelprof_site_frameless, without the allocator's push and
; pops; each such call gets the same descriptor's push before it and pop
; after it (frame markers, which spinelprof-lower-markers then stores
; nested in the caller's frame), and around the runtime's call that copy
; takes the frame off the stack and puts it back. A caller with more
; pushes calls ALLOCATOR.spinelprof_site, with the frame. Only the latter
; where the allocator's first marker pushes another function's frame (it
; has none of its own) or a re-push uses its depth (a setjmp in it).
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-alloc -S %s | FileCheck %s

%desc = type { i32, i32, i32, i32, ptr, ptr, ptr }
@name.gc = private constant [12 x i8] c"sp_gc_alloc\00"
@name.nogc = private constant [17 x i8] c"sp_gc_alloc_nogc\00"
@name.inner = private constant [9 x i8] c"sp_inner\00"
@desc.gc = private constant %desc { i32 1, i32 3, i32 0, i32 0, ptr @name.gc, ptr @name.gc, ptr @name.gc }
@desc.nogc = private constant %desc { i32 1, i32 3, i32 0, i32 0, ptr @name.nogc, ptr @name.nogc, ptr @name.nogc }
@desc.inner = private constant %desc { i32 1, i32 3, i32 0, i32 0, ptr @name.inner, ptr @name.inner, ptr @name.inner }
@T = private constant %desc zeroinitializer

declare i32 @__spinelprof_marker_push(ptr)
declare void @__spinelprof_marker_pop(i32)
declare void @__spinelprof_marker_repush(ptr, i32)
declare void @__spinelprof_marker_alloc(i64, ptr)
declare ptr @calloc(i64, i64)
declare i32 @setjmp(ptr) returns_twice

; CHECK-LABEL: define ptr @sp_Foo_new(
; CHECK-NEXT: %spinelprof.depth = call i32 @__spinelprof_marker_push(ptr @desc.gc)
; CHECK-NEXT: %p = call ptr @sp_gc_alloc.spinelprof_site_frameless(i64 16, ptr null, ptr null, ptr @T)
; CHECK-NEXT: call void @__spinelprof_marker_pop(i32 %spinelprof.depth)
; CHECK-NEXT: ret ptr %p
define ptr @sp_Foo_new() {
  call void @__spinelprof_marker_alloc(i64 16, ptr @T)
  %p = call ptr @sp_gc_alloc(i64 16, ptr null, ptr null), !spinelprof.alloc !0
  ret ptr %p
}

; CHECK-LABEL: define ptr @sp_Bar_new(
; CHECK-NOT: __spinelprof_marker_push
; CHECK: %p = call ptr @sp_gc_alloc_nogc.spinelprof_site(i64 8, ptr null, ptr null, ptr @T)
; CHECK-NEXT: %q = call ptr @sp_str_alloc.spinelprof_site(i64 8, ptr @T)
; CHECK-NEXT: ret ptr %q
define ptr @sp_Bar_new() {
  call void @__spinelprof_marker_alloc(i64 8, ptr @T)
  %p = call ptr @sp_gc_alloc_nogc(i64 8, ptr null, ptr null), !spinelprof.alloc !0
  call void @__spinelprof_marker_alloc(i64 8, ptr @T)
  %q = call ptr @sp_str_alloc(i64 8), !spinelprof.alloc !0
  ret ptr %q
}

; Nine pushes: the copy with the frame.
; CHECK-LABEL: define ptr @sp_large(
; CHECK-NOT: @desc.gc
; CHECK: %p = call ptr @sp_gc_alloc.spinelprof_site(i64 16, ptr null, ptr null, ptr @T)
; CHECK-NOT: @desc.gc
; CHECK: ret ptr %p
define ptr @sp_large() {
  %d1 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %d2 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %d3 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %d4 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %d5 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %d6 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %d7 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %d8 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %d9 = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  call void @__spinelprof_marker_alloc(i64 16, ptr @T)
  %p = call ptr @sp_gc_alloc(i64 16, ptr null, ptr null), !spinelprof.alloc !0
  call void @__spinelprof_marker_pop(i32 %d1)
  ret ptr %p
}

define ptr @sp_gc_alloc(i64 %size, ptr %fin, ptr %scan) {
  %d = call i32 @__spinelprof_marker_push(ptr @desc.gc)
  %p = call ptr @calloc(i64 1, i64 %size)
  call void @__spinelprof_marker_pop(i32 %d)
  ret ptr %p
}

define ptr @sp_gc_alloc_nogc(i64 %size, ptr %fin, ptr %scan) {
  %d = call i32 @__spinelprof_marker_push(ptr @desc.nogc)
  %j = call i32 @setjmp(ptr null)
  call void @__spinelprof_marker_repush(ptr @desc.nogc, i32 %d)
  %p = call ptr @calloc(i64 1, i64 %size)
  call void @__spinelprof_marker_pop(i32 %d)
  ret ptr %p
}

define ptr @sp_str_alloc(i64 %len) {
  %d = call i32 @__spinelprof_marker_push(ptr @desc.inner)
  %p = call ptr @calloc(i64 1, i64 %len)
  call void @__spinelprof_marker_pop(i32 %d)
  ret ptr %p
}

; The copy without its frame; the runtime's call outside its caller's push.
; CHECK-LABEL: define internal ptr @sp_gc_alloc.spinelprof_site_frameless(
; CHECK-NOT: __spinelprof_marker
; CHECK: [[STACK:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_stack)
; CHECK-NEXT: [[D:%.*]] = load volatile i32, ptr [[STACK]], align 4
; CHECK-NEXT: [[OFF:%.*]] = sub i32 [[D]], 1
; CHECK-NEXT: store volatile i32 [[OFF]], ptr [[STACK]], align 4
; CHECK-NEXT: call void @__spinelprof_alloc_sample(
; CHECK-NEXT: store volatile i32 [[D]], ptr [[STACK]], align 4
; CHECK-NOT: __spinelprof_marker
; CHECK: ret ptr %p

; The copies that keep their markers, and call the runtime with them.
; CHECK-LABEL: define internal ptr @sp_gc_alloc_nogc.spinelprof_site(
; CHECK-NOT: __spinelprof_stack
; CHECK: call void @__spinelprof_alloc_sample(
; CHECK-NOT: __spinelprof_stack
; CHECK: %d = call i32 @__spinelprof_marker_push(ptr @desc.nogc)
; CHECK: call void @__spinelprof_marker_repush(ptr @desc.nogc, i32 %d)
; CHECK: call void @__spinelprof_marker_pop(i32 %d)
; CHECK-LABEL: define internal ptr @sp_str_alloc.spinelprof_site(
; CHECK-NOT: __spinelprof_stack
; CHECK: %d = call i32 @__spinelprof_marker_push(ptr @desc.inner)
; CHECK: call void @__spinelprof_marker_pop(i32 %d)
; CHECK-LABEL: define internal ptr @sp_gc_alloc.spinelprof_site(
; CHECK-NOT: __spinelprof_stack
; CHECK: call void @__spinelprof_alloc_sample(
; CHECK-NOT: __spinelprof_stack
; CHECK: %d = call i32 @__spinelprof_marker_push(ptr @desc.gc)
; CHECK: call void @__spinelprof_marker_pop(i32 %d)
; CHECK-NOT: spinelprof_site

!0 = !{}
