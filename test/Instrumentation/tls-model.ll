; The runtime's thread-locals (the shadow stack, the allocation countdown)
; are reached initial-exec from all code, an executable's (PIE or not PIC)
; or a shared library's (PIC): plugin/RuntimeThreadLocals.h says why not
; local-exec. A module that defines one (the runtime, or a test standing
; in for it) keeps its own.
; (-spinelprof-leaf-max-size=0: the tiny leaf would be PC-named by default.)
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %s | FileCheck %s --check-prefix=IE
; RUN: sed 's/^;PIE //' %s > %t.pie.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %t.pie.ll | FileCheck %s --check-prefix=IE
; RUN: sed 's/^;PIC //' %s > %t.pic.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %t.pic.ll | FileCheck %s --check-prefix=IE
; RUN: sed 's/^;OWN //' %s > %t.own.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %t.own.ll | FileCheck %s --check-prefix=OWN

; IE: @__spinelprof_stack = external thread_local(initialexec) global
; IE: @__spinelprof_alloc_countdown = external thread_local(initialexec) global i64
; OWN: @__spinelprof_stack = thread_local global { i32, i32, [4112 x ptr] } zeroinitializer
; OWN: @__spinelprof_alloc_countdown = external thread_local(initialexec) global i64

;OWN @__spinelprof_stack = thread_local global { i32, i32, [4112 x ptr] } zeroinitializer

@T = private constant { i32, i32, i32, i32, ptr, ptr, ptr } zeroinitializer

declare void @__spinelprof_marker_alloc(i64, ptr)
declare ptr @malloc(i64)

define ptr @make() {
  call void @__spinelprof_marker_alloc(i64 16, ptr @T)
  %p = call ptr @malloc(i64 16)
  ret ptr %p
}

;PIE !llvm.module.flags = !{!0, !1}
;PIE !1 = !{i32 7, !"PIE Level", i32 2}
;PIE !0 = !{i32 8, !"PIC Level", i32 2}
;PIC !llvm.module.flags = !{!0}
;PIC !0 = !{i32 8, !"PIC Level", i32 2}
