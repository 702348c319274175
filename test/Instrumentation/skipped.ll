; Functions that never get a frame: declarations, available_externally
; bodies (the real definition is elsewhere), naked functions (no prologue),
; spinelprof's own __spinelprof* functions, and functions already
; instrumented.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s

; CHECK-NOT: @__spinelprof_desc.external_decl
; CHECK-NOT: @__spinelprof_desc.inline_elsewhere
; CHECK-NOT: @__spinelprof_desc.naked_fn
; CHECK-NOT: @__spinelprof_desc.__spinelprof_flush
; CHECK-NOT: @__spinelprof_desc.marked
; CHECK: @__spinelprof_desc.kept =
; CHECK: @llvm.compiler.used = appending global [1 x ptr] [ptr @__spinelprof_desc.kept]

declare void @external_decl()

define available_externally void @inline_elsewhere() {
; CHECK-LABEL: define available_externally void @inline_elsewhere() {
; CHECK-NEXT:    call void @external_decl()
; CHECK-NEXT:    ret void
  call void @external_decl()
  ret void
}

define void @naked_fn() naked {
; CHECK-LABEL: define void @naked_fn()
; CHECK-SAME:    #[[NAKED:[0-9]+]] {
; CHECK-NEXT:    call void asm sideeffect "ret", ""()
; CHECK-NEXT:    unreachable
  call void asm sideeffect "ret", ""()
  unreachable
}

define void @__spinelprof_flush() {
; CHECK-LABEL: define void @__spinelprof_flush() {
; CHECK-NEXT:    call void @external_decl()
; CHECK-NEXT:    ret void
  call void @external_decl()
  ret void
}

define void @marked() "spinelprof-instrumented" {
; CHECK-LABEL: define void @marked()
; CHECK-SAME:    #[[MARK:[0-9]+]] {
; CHECK-NEXT:    call void @external_decl()
; CHECK-NEXT:    ret void
  call void @external_decl()
  ret void
}

define void @kept() {
; CHECK-LABEL: define void @kept()
; CHECK-SAME:    #[[MARK]] {
; CHECK:         store volatile ptr @__spinelprof_desc.kept
  call void @external_decl()
  ret void
}

; CHECK-DAG: attributes #[[NAKED]] = { naked }
; CHECK-DAG: attributes #[[MARK]] = { "spinelprof-instrumented" }
