; Allocation sites: before each call to an allocator, a marker with the
; size and the "alloc TYPE" descriptor (lowered to the countdown abi.h
; specifies: alloc-lowering.ll). The type comes from the enclosing
; constructor, else the scan callback; strings are String; libc allocators
; name themselves. Calls inside the allocators and the GC are not marked
; (only the outermost allocation counts). Marking and lowering are
; idempotent; off with SPINEL_PROFILE_ALLOC_SITES=0.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc-markers -S < %s | FileCheck %s
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc -S < %s > %t.once.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc,spinelprof-alloc -S < %s > %t.twice.ll
; RUN: diff %t.once.ll %t.twice.ll
; Read back, the predecessor comments come in use-list order: compare with
; the first output read back too.
; RUN: %opt -S < %t.once.ll > %t.reread.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc -S < %t.once.ll > %t.again.ll
; RUN: diff %t.reread.ll %t.again.ll
; RUN: env SPINEL_PROFILE_ALLOC_SITES=0 %opt -load-pass-plugin %plugin -passes=spinelprof-alloc -S < %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc -spinelprof-alloc-sites=0 -S < %s | FileCheck %s --check-prefix=OFF
; OFF-NOT: spinelprof

; CHECK: @[[EMPTY:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [1 x i8] zeroinitializer
; CHECK: @[[FOO_NAME:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"alloc Foo\00"
; CHECK: @[[FOO:__spinelprof_alloc_type.Foo]] = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 4, i32 0, i32 2, ptr @[[FOO_NAME]], ptr @[[EMPTY]], ptr @[[EMPTY]] }, align 8
; CHECK-NOT: section "spinelprof_frames"
; CHECK: c"alloc Geo::Pair\00"
; CHECK: c"alloc [object]\00"
; CHECK: c"alloc String\00"
; CHECK: c"alloc [malloc]\00"
; CHECK: c"alloc [calloc]\00"
; CHECK: c"alloc [realloc]\00"

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare ptr @sp_str_alloc_raw(i64)
; A runtime whose sp_str_alloc takes a C string: not an allocator itself.
declare ptr @sp_str_alloc(ptr)

define internal void @sp_Foo_gc_scan(ptr %p) {
  ret void
}

define internal void @sp_Geo_Pair_gc_scan(ptr %p) {
  ret void
}

declare ptr @sp_gc_alloc(i64, ptr, ptr)

; The allocator's own calloc is part of the allocation that called it.
; CHECK-LABEL: define internal ptr @sp_gc_alloc_nogc(
; CHECK-NEXT: %p = call ptr @calloc(i64 1, i64 %size){{$}}
; CHECK-NEXT: ret ptr %p
define internal ptr @sp_gc_alloc_nogc(i64 %size, ptr %fin, ptr %scan) {
  %p = call ptr @calloc(i64 1, i64 %size)
  ret ptr %p
}

; The GC's own bookkeeping is no Ruby allocation.
; CHECK-LABEL: define internal void @sp_gc_collect(
; CHECK-NEXT: %p = call ptr @malloc(i64 64){{$}}
define internal void @sp_gc_collect() {
  %p = call ptr @malloc(i64 64)
  ret void
}

; CHECK-LABEL: define ptr @sp_Foo_new(
; CHECK-NEXT: call void @__spinelprof_marker_alloc(i64 16, ptr @[[FOO]])
; CHECK-NEXT: %p = call ptr @sp_gc_alloc(i64 16, ptr null, ptr @sp_Foo_gc_scan), !spinelprof.alloc
define ptr @sp_Foo_new() {
  %p = call ptr @sp_gc_alloc(i64 16, ptr null, ptr @sp_Foo_gc_scan)
  ret ptr %p
}

; CHECK-LABEL: define ptr @sp_make_pair(
; CHECK: call void @__spinelprof_marker_alloc(i64 32, ptr @"__spinelprof_alloc_type.Geo::Pair")
define ptr @sp_make_pair() {
  %p = call ptr @sp_gc_alloc(i64 32, ptr null, ptr @sp_Geo_Pair_gc_scan)
  ret ptr %p
}

; CHECK-LABEL: define ptr @sp_cell(
; CHECK: call void @__spinelprof_marker_alloc(i64 8, ptr @"__spinelprof_alloc_type.[object]")
define ptr @sp_cell() {
  %p = call ptr @sp_gc_alloc(i64 8, ptr null, ptr null)
  ret ptr %p
}

; CHECK-LABEL: define ptr @sp_greet(
; CHECK: call void @__spinelprof_marker_alloc(i64 %n, ptr @__spinelprof_alloc_type.String)
; CHECK-NOT: __spinelprof_marker_alloc
; CHECK: call ptr @sp_str_alloc(ptr %c){{$}}
define ptr @sp_greet(i64 %n, ptr %c) {
  %s = call ptr @sp_str_alloc_raw(i64 %n)
  %t = call ptr @sp_str_alloc(ptr %c)
  ret ptr %s
}

; calloc counts n * size; realloc its new size.
; CHECK-LABEL: define ptr @sp_buffers(
; CHECK: call void @__spinelprof_marker_alloc(i64 100, ptr @"__spinelprof_alloc_type.[malloc]")
; CHECK: [[SIZE:%.*]] = mul i64 %n, 8
; CHECK: call void @__spinelprof_marker_alloc(i64 [[SIZE]], ptr @"__spinelprof_alloc_type.[calloc]")
; CHECK: call void @__spinelprof_marker_alloc(i64 %w, ptr @"__spinelprof_alloc_type.[realloc]")
; CHECK: %c = call ptr @realloc(ptr %old, i64 %w), !spinelprof.alloc
define ptr @sp_buffers(i64 %n, ptr %old, i32 %k) {
  %a = call ptr @malloc(i64 100)
  %b = call ptr @calloc(i64 %n, i64 8)
  %w = zext i32 %k to i64
  %c = call ptr @realloc(ptr %old, i64 %w)
  ret ptr %c
}

; The constructor names the type of everything it allocates.
; CHECK-LABEL: define ptr @sp_Geo_Vec_new(
; CHECK: call void @__spinelprof_marker_alloc(i64 24, ptr @"__spinelprof_alloc_type.Geo::Vec")
; CHECK: call void @__spinelprof_marker_alloc(i64 64, ptr @"__spinelprof_alloc_type.Geo::Vec")
define ptr @sp_Geo_Vec_new() {
  %p = call ptr @sp_gc_alloc(i64 24, ptr null, ptr null)
  %q = call ptr @malloc(i64 64)
  ret ptr %p
}

; CHECK: declare void @__spinelprof_marker_alloc(i64, ptr)
