; Procs, lambdas and fiber bodies are named after the function that creates
; them, the one that passes their address to the runtime (kind 1, block):
; sp_proc_new(_sp_proc_fn_1, ...) in sp_make_adder is "block in
; Object#make_adder", sp_lam_proc(_lam_0, 1) in main "lambda in <main>",
; sp_Fiber_new(_fiber_body_0) in main "fiber in <main>". Calling a block is
; not creating it. A block made inside a block names the chain; one with
; several creators names them all, sorted; one with no creator keeps
; "proc N". A symbol map's name wins, and names a creator too. The scanner
; of a proc's captures, _proc_cap_scan_N, is GC (kind 3).
; (-spinelprof-leaf-max-size=0: these tiny leaves would be PC-named by default, see
; policy-pc-named-leaf.ll; here they stand for any pushed frame.)
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -S %s | FileCheck %s --check-prefixes=CHECK,RULES
; RUN: rm -rf %t && mkdir -p %t
; RUN: echo '{"sp_Outer_Tree_cls_build": "Outer::Tree.plant", "_lam_4": "lambda in Custom#name"}' > %t/map.json
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -spinelprof-symbols=%t/map.json -S %s | FileCheck %s --check-prefixes=CHECK,MAP

source_filename = "app.c"

declare ptr @sp_proc_new(ptr, ptr, ptr)
declare ptr @sp_lam_proc(ptr, i64)
declare ptr @sp_Fiber_new(ptr)
declare ptr @sp_gc_alloc(i64, ptr, ptr)

; CHECK: c"_proc_cap_scan_1\00"
; CHECK: @__spinelprof_desc._proc_cap_scan_1 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 3,
define internal void @_proc_cap_scan_1(ptr %p) {
  ret void
}

; CHECK: c"block in Object#make_adder\00"
; CHECK: @__spinelprof_desc._sp_proc_fn_1 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1,
define internal i64 @_sp_proc_fn_1(ptr %cap, ptr %args) {
  ret i64 0
}

; CHECK: c"lambda in <main>\00"
; CHECK: @__spinelprof_desc._lam_0 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1,
define internal ptr @_lam_0(ptr %self, ptr %arg) {
  ret ptr null
}

; CHECK: c"fiber in <main>\00"
; CHECK: @__spinelprof_desc._fiber_body_0 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1,
define internal void @_fiber_body_0(ptr %fb) {
  ret void
}

; A lambda made inside a proc made in a singleton method.
; RULES: c"lambda in block in Outer::Tree.build\00"
; MAP: c"lambda in block in Outer::Tree.plant\00"
; CHECK: @__spinelprof_desc._lam_1 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1,
define internal ptr @_lam_1(ptr %self, ptr %arg) {
  ret ptr null
}

; RULES: c"block in Outer::Tree.build\00"
; MAP: c"block in Outer::Tree.plant\00"
; CHECK: @__spinelprof_desc._sp_proc_fn_2 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1,
define internal i64 @_sp_proc_fn_2(ptr %cap, ptr %args) {
  %l = call ptr @sp_lam_proc(ptr @_lam_1, i64 1)
  ret i64 0
}

; Two creators (after some inlining by hand, or a shared handler table).
; CHECK: c"fiber in <main> or Object#make_adder\00"
; CHECK: @__spinelprof_desc._fiber_body_3 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1,
define internal void @_fiber_body_3(ptr %fb) {
  ret void
}

; Referenced only by a call: no creator, the plain name stays.
; CHECK: c"proc 7\00"
; CHECK: @__spinelprof_desc._sp_proc_fn_7 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1,
define internal i64 @_sp_proc_fn_7(ptr %cap, ptr %args) {
  ret i64 0
}

; Only in a global table: no function creates it, the plain name stays.
; RULES: c"lambda 4\00"
; MAP: c"lambda in Custom#name\00"
; CHECK: @__spinelprof_desc._lam_4 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1,
define internal ptr @_lam_4(ptr %self, ptr %arg) {
  ret ptr null
}
@handlers = internal constant [1 x ptr] [ptr @_lam_4]

define i64 @sp_table_user() {
  %h = getelementptr [1 x ptr], ptr @handlers, i64 0, i64 0
  %f = load ptr, ptr %h
  %l = call ptr @sp_lam_proc(ptr %f, i64 1)
  %r = call i64 @_sp_proc_fn_7(ptr null, ptr null)
  ret i64 %r
}

; RULES: c"Outer::Tree.build\00"
; MAP: c"Outer::Tree.plant\00"
define ptr @sp_Outer_Tree_cls_build() {
  %p = call ptr @sp_proc_new(ptr @_sp_proc_fn_2, ptr null, ptr null)
  ret ptr %p
}

define ptr @sp_make_adder(i64 %n) {
  %cap = call ptr @sp_gc_alloc(i64 8, ptr null, ptr @_proc_cap_scan_1)
  %p = call ptr @sp_proc_new(ptr @_sp_proc_fn_1, ptr %cap, ptr @_proc_cap_scan_1)
  %f = call ptr @sp_Fiber_new(ptr @_fiber_body_3)
  ret ptr %p
}

define i32 @main(i32 %argc, ptr %argv) {
  %l = call ptr @sp_lam_proc(ptr @_lam_0, i64 1)
  %f = call ptr @sp_Fiber_new(ptr @_fiber_body_0)
  %g = call ptr @sp_Fiber_new(ptr @_fiber_body_3)
  ret i32 0
}
