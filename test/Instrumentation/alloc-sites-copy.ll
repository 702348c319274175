; A marked call to an allocator defined in this module goes to a copy of the
; allocator, ALLOCATOR.spinelprof_site, that takes the "alloc TYPE"
; descriptor as one more argument and counts its size argument down at its
; entry, before its own frame's push: so the countdown's blocks are compiled
; once per allocator, not once per (inlined) call. One copy per allocator;
; an external allocator stays as it was, an internal one whose calls all
; moved is dropped. Call attributes, calling convention and tail kind are
; kept. Idempotent.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc-markers,spinelprof-markers,spinelprof-lower-alloc,spinelprof-lower-markers -S < %s > %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=GONE < %t.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc -S < %t.ll > %t.again.ll
; RUN: %opt -S < %t.ll > %t.reread.ll
; RUN: diff %t.reread.ll %t.again.ll
;
; The fallback: a marker whose size is not the call's size argument (the
; marking pass never makes one; a transformation could) is lowered in place.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-alloc -S < %S/Inputs/alloc-size-mismatch.ll | FileCheck %s --check-prefix=MISMATCH
; MISMATCH-LABEL: define ptr @sp_Foo_new(
; MISMATCH: sub i64 %{{.*}}, %n
; MISMATCH: call void @__spinelprof_alloc_sample(i64 %n, ptr @T)
; MISMATCH: call ptr @sp_gc_alloc(i64 %m, ptr null, ptr null), !spinelprof.alloc
; MISMATCH-NOT: spinelprof_site

declare ptr @calloc(i64, i64)
declare ptr @malloc(i64)

define internal void @sp_Foo_gc_scan(ptr %p) {
  ret void
}

; CHECK-LABEL: define ptr @sp_gc_alloc(i64 %size, ptr %fin, ptr %scan)
; CHECK-NOT: __spinelprof_alloc_countdown
; CHECK: call ptr @calloc(i64 1, i64 %size){{$}}
; CHECK: ret ptr
define ptr @sp_gc_alloc(i64 %size, ptr %fin, ptr %scan) {
  %p = call ptr @calloc(i64 1, i64 %size)
  ret ptr %p
}

; GONE-NOT: @sp_str_alloc(
define internal fastcc ptr @sp_str_alloc(i64 %len) noinline {
  %p = call ptr @malloc(i64 %len)
  ret ptr %p
}

; CHECK-LABEL: define ptr @sp_Foo_new(
; CHECK-NOT: __spinelprof_alloc_countdown
; CHECK: %p = call noalias ptr @sp_gc_alloc.spinelprof_site(i64 16, ptr null, ptr @sp_Foo_gc_scan, ptr @__spinelprof_alloc_type.Foo), !spinelprof.alloc
; CHECK-NOT: __spinelprof_alloc_countdown
; CHECK: ret ptr %p
define ptr @sp_Foo_new() {
  %p = call noalias ptr @sp_gc_alloc(i64 16, ptr null, ptr @sp_Foo_gc_scan)
  ret ptr %p
}

; CHECK-LABEL: define ptr @sp_pair_and_name(
; CHECK: call ptr @sp_gc_alloc.spinelprof_site(i64 32, ptr null, ptr null, ptr @"__spinelprof_alloc_type.[object]")
; CHECK: %s = tail call fastcc ptr @sp_str_alloc.spinelprof_site(i64 %n, ptr @__spinelprof_alloc_type.String)
; CHECK-NOT: __spinelprof_alloc_countdown
; CHECK: ret ptr %s
define ptr @sp_pair_and_name(i64 %n) {
  %p = call ptr @sp_gc_alloc(i64 32, ptr null, ptr null)
  %s = tail call fastcc ptr @sp_str_alloc(i64 %n)
  ret ptr %s
}

; The copy: the countdown first, then the allocator's own frame and body;
; its own calloc is part of the allocation and stays unmarked.
; CHECK-LABEL: define internal ptr @sp_gc_alloc.spinelprof_site(i64 %size, ptr %fin, ptr %scan, ptr %spinelprof.type)
; CHECK-NEXT: [[A:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_alloc_countdown)
; CHECK-NEXT: [[C:%.*]] = load i64, ptr [[A]], align 8
; CHECK-NEXT: [[L:%.*]] = sub i64 [[C]], %size
; CHECK-NEXT: store i64 [[L]], ptr [[A]], align 8
; CHECK-NEXT: [[S:%.*]] = icmp slt i64 [[L]], 0
; CHECK-NEXT: br i1 [[S]], label %[[SAMPLE:.*]], label %[[BODY:.*]], !prof
; CHECK: [[SAMPLE]]:
; CHECK-NEXT: call void @__spinelprof_alloc_sample(i64 %size, ptr %spinelprof.type) [[COLD:#[0-9]+]]
; CHECK-NEXT: br label %[[BODY]]
; CHECK: [[BODY]]:
; CHECK: store volatile ptr @__spinelprof_desc.sp_gc_alloc,
; CHECK: call ptr @calloc(i64 1, i64 %size){{$}}
; CHECK-NOT: __spinelprof_alloc_sample
; CHECK: ret ptr

; CHECK-LABEL: define internal fastcc ptr @sp_str_alloc.spinelprof_site(i64 %len, ptr %spinelprof.type)
; CHECK: call void @__spinelprof_alloc_sample(i64 %len, ptr %spinelprof.type)
; CHECK: call ptr @malloc(i64 %len){{$}}

; CHECK-NOT: spinelprof_site(
; CHECK: attributes [[COLD]] = { cold }
