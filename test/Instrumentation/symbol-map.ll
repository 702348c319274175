; A Spinel symbol map wins over the naming rules, in each accepted shape,
; from -spinelprof-symbols or SPINEL_PROFILE_SYMBOLS. Entries for symbols
; this module does not define are ignored. Mapped frames are user methods,
; except the GC (by C name) and "block in"/"lambda in"/"fiber in" names.
; (-spinelprof-leaf-max-size=0: these tiny leaves would be PC-named by default, see
; policy-pc-named-leaf.ll; here they stand for any pushed frame.)
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -spinelprof-symbols=%S/Inputs/map-strings.json -S %s | FileCheck %s --check-prefixes=CHECK,NOFILE
; RUN: env SPINEL_PROFILE_SYMBOLS=%S/Inputs/map-strings.json %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -S %s | FileCheck %s --check-prefixes=CHECK,NOFILE
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -spinelprof-symbols=%S/Inputs/map-objects.json -S %s | FileCheck %s --check-prefixes=CHECK,FILE
; RUN: env SPINEL_PROFILE_SYMBOLS=%S/Inputs/map-records.json %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -S %s | FileCheck %s --check-prefixes=CHECK,FILE
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -spinelprof-symbols=%S/Inputs/map-wrapped.json -S %s | FileCheck %s --check-prefixes=CHECK,FILE
; The command-line option wins over the environment.
; RUN: env SPINEL_PROFILE_SYMBOLS=%S/Inputs/map-syntax.json %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -spinelprof-symbols=%S/Inputs/map-strings.json -S %s | FileCheck %s --check-prefixes=CHECK,NOFILE

; CHECK-NOT: Nowhere
source_filename = "app.c"

; CHECK: @[[PPU:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [28 x i8] c"Optcarrot::PPU#render_pixel\00"
; CHECK: @[[PPUC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [20 x i8] c"sp_PPU_render_pixel\00"
; NOFILE: @[[APPC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"app.c\00"
; NOFILE: @__spinelprof_desc.sp_PPU_render_pixel = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[PPU]], ptr @[[PPUC]], ptr @[[APPC]] }
; FILE: @[[PPURB:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"ppu.rb\00"
; FILE: @__spinelprof_desc.sp_PPU_render_pixel = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 42, i32 0, ptr @[[PPU]], ptr @[[PPUC]], ptr @[[PPURB]] }
define void @sp_PPU_render_pixel() {
  ret void
}

; CHECK: @[[GC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [9 x i8] c"GC.start\00"
; CHECK: @__spinelprof_desc.sp_gc_collect = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 3, i32 0, i32 0, ptr @[[GC]],
define void @sp_gc_collect() {
  ret void
}

; CHECK: @[[BLOCK:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [28 x i8] c"block in Optcarrot::PPU#run\00"
; NOFILE: @__spinelprof_desc._sp_proc_fn_1 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1, i32 0, i32 0, ptr @[[BLOCK]],
; FILE: @__spinelprof_desc._sp_proc_fn_1 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1, i32 7, i32 0, ptr @[[BLOCK]],
define void @_sp_proc_fn_1() {
  ret void
}

; CHECK: @[[LAM:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [22 x i8] c"lambda in Object#main\00"
; CHECK: @__spinelprof_desc._lam_2 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1, i32 0, i32 0, ptr @[[LAM]],
define void @_lam_2() {
  ret void
}

; CHECK: @[[FIB:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [21 x i8] c"fiber in Object#main\00"
; CHECK: @__spinelprof_desc._fiber_body_3 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1, i32 0, i32 0, ptr @[[FIB]],
define void @_fiber_body_3() {
  ret void
}

; Not in the map: the naming rules apply.
; CHECK: c"PPU#step\00"
; CHECK: @__spinelprof_desc.sp_PPU_step =
define void @sp_PPU_step() {
  ret void
}
; CHECK-NOT: Nowhere
