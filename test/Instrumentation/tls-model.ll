; The runtime's thread-locals (the shadow stack, the allocation countdown)
; are reached local-exec from code compiled for an executable (PIE, or not
; PIC: the runtime is linked into every executable), and initial-exec from
; code compiled PIC without PIE (a shared library's, which reaches the
; executable's copy): plugin/RuntimeThreadLocals.h. A module that defines one
; (the runtime, or a test standing in for it) keeps its own.
; (-spinelprof-leaf-max-size=0: the tiny leaf would be PC-named by default.)
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %s | FileCheck %s --check-prefix=EXE
; RUN: sed 's/^;PIE //' %s > %t.pie.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %t.pie.ll | FileCheck %s --check-prefix=EXE
; RUN: sed 's/^;PIC //' %s > %t.pic.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %t.pic.ll | FileCheck %s --check-prefix=SHARED
; Told initial-exec (what `spinel-prof cc -shared` tells it), from any code:
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -spinelprof-tls=initial-exec -S %t.pie.ll | FileCheck %s --check-prefix=SHARED
; RUN: env SPINEL_PROFILE_TLS=auto %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %t.pie.ll | FileCheck %s --check-prefix=EXE
; RUN: sed 's/^;OWN //' %s > %t.own.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof-lower-alloc -spinelprof-leaf-max-size=0 -S %t.own.ll | FileCheck %s --check-prefix=OWN

; EXE: @__spinelprof_stack = external thread_local(localexec) global
; EXE: @__spinelprof_alloc_countdown = external thread_local(localexec) global i64
; SHARED: @__spinelprof_stack = external thread_local(initialexec) global
; SHARED: @__spinelprof_alloc_countdown = external thread_local(initialexec) global i64
; OWN: @__spinelprof_stack = thread_local global { i32, i32, [4112 x ptr] } zeroinitializer
; OWN: @__spinelprof_alloc_countdown = external thread_local(localexec) global i64

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
