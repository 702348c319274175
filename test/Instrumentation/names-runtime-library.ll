; Spinel's runtime library (libspinel_rt.a: bigint, regexp) compiled with
; the plugin and SPINEL_PROFILE_RUNTIME=1: nothing in it is a Ruby method,
; so Ruby-shaped names keep their C names with kind 2 (runtime); the GC is
; still kind 3. (Each function calls out, so the frame policy keeps it
; either way.) Without the variable the same code reads as a program.
; RUN: env SPINEL_PROFILE_RUNTIME=1 %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=LIB
; RUN: env SPINEL_PROFILE_RUNTIME=0 %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=PROG

source_filename = "lib/bigint.c"

; LIB: c"sp_bigint_mul\00"
; LIB: @__spinelprof_desc.sp_bigint_mul = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 2,
; PROG: c"Object#bigint_mul\00"
; PROG: @__spinelprof_desc.sp_bigint_mul = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0,
define i64 @sp_bigint_mul(i64 %a, i64 %b) {
  %r = call i64 @sp_gc_bigint_scan(i64 %a)
  %m = mul i64 %r, %b
  ret i64 %m
}

; LIB: @__spinelprof_desc.sp_gc_bigint_scan = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 3,
; PROG: @__spinelprof_desc.sp_gc_bigint_scan = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 3,
define i64 @sp_gc_bigint_scan(i64 %a) {
  %r = call i64 @re_compile(i64 %a)
  ret i64 %r
}

; LIB: @__spinelprof_desc.re_compile = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 2,
; PROG: @__spinelprof_desc.re_compile = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0,
define i64 @re_compile(i64 %a) {
  %r = call i64 @re_alloc(i64 %a)
  ret i64 %r
}
declare i64 @re_alloc(i64)
