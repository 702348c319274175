; One private constant descriptor per instrumented function: ABI version,
; kind, line, flags, display name, C name, file; in the descriptor section,
; in the function's comdat, kept by llvm.compiler.used. The shadow stack is
; an external initial-exec TLS global.
; (-spinelprof-leaf-max-size=0: these tiny leaves would be PC-named by default, see
; policy-pc-named-leaf.ll; here they stand for any pushed frame.)
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -S %s | FileCheck %s

source_filename = "app.c"

$sp_Foo_bar = comdat any

; CHECK: @[[NAME:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"<main>\00", align 1
; CHECK: @[[CNAME:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"main\00", align 1
; CHECK: @[[FILE:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"app.c\00", align 1
; CHECK: @__spinelprof_desc.main = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[NAME]], ptr @[[CNAME]], ptr @[[FILE]] }, section "spinelprof_frames", align 8
; CHECK: @[[FOONAME:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"Foo#bar\00", align 1
; CHECK: @[[FOOCNAME:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"sp_Foo_bar\00", align 1
; The file string is shared, and the descriptor goes in the function's comdat.
; CHECK: @__spinelprof_desc.sp_Foo_bar = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[FOONAME]], ptr @[[FOOCNAME]], ptr @[[FILE]] }, section "spinelprof_frames", comdat($sp_Foo_bar), align 8
; CHECK: @llvm.compiler.used = appending global [3 x ptr] [ptr @existing, ptr @__spinelprof_desc.main, ptr @__spinelprof_desc.sp_Foo_bar], section "llvm.metadata"
; The lowering declares the stack after the descriptors.
; CHECK: @__spinelprof_stack = external thread_local(localexec) global { i32, i32, [4112 x ptr] }, align 8

@existing = internal global i32 0
@llvm.compiler.used = appending global [1 x ptr] [ptr @existing], section "llvm.metadata"

define i32 @main() {
  ret i32 0
}

define linkonce_odr void @sp_Foo_bar() comdat {
  ret void
}

; CHECK: attributes #0 = { "spinelprof-instrumented" }
