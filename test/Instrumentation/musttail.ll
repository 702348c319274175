; Nothing may separate a musttail call from its ret: the restore goes before
; the call. Other returns in the same function restore as usual.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | %opt -passes=verify -disable-output

declare i32 @target(i32)

define i32 @forwards(i32 %x) {
; CHECK-LABEL: define i32 @forwards(i32 %x)
; CHECK:         [[LOADED1:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED1]], 4097
; CHECK-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED1]], i32 4097
; CHECK:         br i1 %c, label %tail, label %plain
; CHECK:       tail:
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %r = musttail call i32 @target(i32 %x)
; CHECK-NEXT:    ret i32 %r
; CHECK:       plain:
; CHECK-NEXT:    %s = call i32 @target(i32 %x)
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    ret i32 %s
  %c = icmp eq i32 %x, 0
  br i1 %c, label %tail, label %plain
tail:
  %r = musttail call i32 @target(i32 %x)
  ret i32 %r
plain:
  %s = call i32 @target(i32 %x)
  ret i32 %s
}

define ptr @forwards_ptr(ptr %p) {
; CHECK-LABEL: define ptr @forwards_ptr(ptr %p)
; CHECK:         [[LOADED2:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED2]], 4097
; CHECK-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED2]], i32 4097
; CHECK:         store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %r = musttail call ptr @forwards_ptr(ptr %p)
; CHECK-NEXT:    ret ptr %r
  %r = musttail call ptr @forwards_ptr(ptr %p)
  ret ptr %r
}
