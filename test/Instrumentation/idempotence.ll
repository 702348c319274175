; Running the pass twice changes nothing the second time: in one pipeline,
; and on the pass's own output read back (as `opt` after `clang -emit-llvm`).
; UNSUPPORTED: sanitized
; (Sanitizer passes add functions, module constructors, after the plugin
; ran, which a second run then instruments.)
;
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S < %s > %t.once.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof,spinelprof -S < %s > %t.twice.ll
; RUN: diff %t.once.ll %t.twice.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S < %t.once.ll > %t.again.ll
; RUN: diff %t.once.ll %t.again.ll
; RUN: FileCheck %s < %t.once.ll

; CHECK-COUNT-1: @__spinelprof_desc.f =
; CHECK-NOT: @__spinelprof_desc.f.
; CHECK: @llvm.compiler.used = appending global [1 x ptr] [ptr @__spinelprof_desc.f]
; CHECK-COUNT-1: @__spinelprof_stack = external
; CHECK-NOT: @__spinelprof_stack =
; CHECK-LABEL: define i32 @f(ptr %buf)
; CHECK-COUNT-2: store volatile ptr @__spinelprof_desc.f
; CHECK-NOT: store volatile ptr @__spinelprof_desc.f

declare i32 @setjmp(ptr) returns_twice

define i32 @f(ptr %buf) {
  %r = call i32 @setjmp(ptr %buf)
  ret i32 %r
}

; And on what clang -fpass-plugin produced.
; RUN: %clang_prof -O0 -S -emit-llvm %S/Inputs/pipeline.c -o %t.clang.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %t.clang.ll -o %t.clang.again.ll
; RUN: grep -v '^; ModuleID' %t.clang.ll > %t.clang.body
; RUN: grep -v '^; ModuleID' %t.clang.again.ll > %t.clang.again.body
; RUN: diff %t.clang.body %t.clang.again.body
