; Spinel's C names become Ruby names (docs/spinel.md, "Names"); the GC and
; blocks get their kinds (0 user, 1 block, 3 gc). No debug info here, so
; every function counts as the program's own.
; (-spinelprof-leaf-max-size=0: these tiny leaves would be PC-named by default, see
; policy-pc-named-leaf.ll; here they stand for any pushed frame.)
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -S %s | FileCheck %s

source_filename = "app.c"

; A predicate in a nested class.
; CHECK: @[[N0:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [15 x i8] c"Geo::Vec#zero?\00"
; CHECK: @__spinelprof_desc.sp_Geo_Vec_zero_p = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N0]], ptr
; Three levels of nesting.
; CHECK: @[[N1:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [24 x i8] c"Outer::Mid::Inner#hello\00"
; CHECK: @__spinelprof_desc.sp_Outer_Mid_Inner_hello = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N1]], ptr
; A mixin method copied into the class.
; CHECK: @[[N2:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [13 x i8] c"Person#greet\00"
; CHECK: @__spinelprof_desc.sp_Person_greet = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N2]], ptr
; Singleton methods.
; CHECK: @[[N3:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Foo.x\00"
; CHECK: @__spinelprof_desc.sp_Foo_cls_x = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N3]], ptr
; CHECK: @[[N4:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"Foo.valid?\00"
; CHECK: @__spinelprof_desc.sp_Foo_cls_valid_p = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N4]], ptr
; Suffixes.
; CHECK: @[[N5:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"Foo#save!\00"
; CHECK: @__spinelprof_desc.sp_Foo_save_bang = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N5]], ptr
; CHECK: @[[N6:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"Foo#name=\00"
; CHECK: @__spinelprof_desc.sp_Foo_name_eq = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N6]], ptr
; CHECK: @[[N7:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [9 x i8] c"Foo#to_s\00"
; CHECK: @__spinelprof_desc.sp_Foo_to_s = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N7]], ptr
; A one-token method keeps its name.
; CHECK: @[[N8:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Foo#p\00"
; CHECK: @__spinelprof_desc.sp_Foo_p = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N8]], ptr
; Constructors.
; CHECK: @[[N9:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"Foo.new\00"
; CHECK: @__spinelprof_desc.sp_Foo_new = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N9]], ptr
; CHECK: @[[N10:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [15 x i8] c"Foo#initialize\00"
; CHECK: @__spinelprof_desc.sp_Foo_initialize = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N10]], ptr
; Top-level methods.
; CHECK: @[[N11:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [17 x i8] c"Object#make_tree\00"
; CHECK: @__spinelprof_desc.sp_make_tree = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N11]], ptr
; CHECK: @[[N12:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"Object#fib\00"
; CHECK: @__spinelprof_desc.sp_fib = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N12]], ptr
; CHECK: @[[N13:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [14 x i8] c"Object#empty?\00"
; CHECK: @__spinelprof_desc.sp_empty_p = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N13]], ptr
; Operators, after a doubled underscore.
; CHECK: @[[N14:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"Geo::Vec#+\00"
; CHECK: @__spinelprof_desc.sp_Geo_Vec__plus = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N14]], ptr
; CHECK: @[[N15:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"Foo#==\00"
; CHECK: @__spinelprof_desc.sp_Foo__eq_eq = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N15]], ptr
; CHECK: @[[N16:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"Foo#[]=\00"
; CHECK: @__spinelprof_desc.sp_Foo__aset = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N16]], ptr
; Every operator.
; CHECK: @[[N17:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#+\00"
; CHECK: @__spinelprof_desc.sp_Op__plus = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N17]], ptr
; CHECK: @[[N18:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#-\00"
; CHECK: @__spinelprof_desc.sp_Op__minus = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N18]], ptr
; CHECK: @[[N19:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#*\00"
; CHECK: @__spinelprof_desc.sp_Op__mul = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N19]], ptr
; CHECK: @[[N20:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#/\00"
; CHECK: @__spinelprof_desc.sp_Op__div = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N20]], ptr
; CHECK: @[[N21:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#%\00"
; CHECK: @__spinelprof_desc.sp_Op__mod = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N21]], ptr
; CHECK: @[[N22:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#**\00"
; CHECK: @__spinelprof_desc.sp_Op__pow = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N22]], ptr
; CHECK: @[[N23:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#==\00"
; CHECK: @__spinelprof_desc.sp_Op__eq_eq = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N23]], ptr
; CHECK: @[[N24:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#!=\00"
; CHECK: @__spinelprof_desc.sp_Op__neq = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N24]], ptr
; CHECK: @[[N25:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"Op#<=>\00"
; CHECK: @__spinelprof_desc.sp_Op__cmp = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N25]], ptr
; CHECK: @[[N26:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#<\00"
; CHECK: @__spinelprof_desc.sp_Op__lt = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N26]], ptr
; CHECK: @[[N27:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#>\00"
; CHECK: @__spinelprof_desc.sp_Op__gt = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N27]], ptr
; CHECK: @[[N28:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#<=\00"
; CHECK: @__spinelprof_desc.sp_Op__le = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N28]], ptr
; CHECK: @[[N29:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#>=\00"
; CHECK: @__spinelprof_desc.sp_Op__ge = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N29]], ptr
; CHECK: @[[N30:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#<<\00"
; CHECK: @__spinelprof_desc.sp_Op__lshift = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N30]], ptr
; CHECK: @[[N31:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#>>\00"
; CHECK: @__spinelprof_desc.sp_Op__rshift = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N31]], ptr
; CHECK: @[[N32:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#[]\00"
; CHECK: @__spinelprof_desc.sp_Op__aref = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N32]], ptr
; CHECK: @[[N33:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"Op#[]=\00"
; CHECK: @__spinelprof_desc.sp_Op__aset = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N33]], ptr
; CHECK: @[[N34:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#&\00"
; CHECK: @__spinelprof_desc.sp_Op__and = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N34]], ptr
; CHECK: @[[N35:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#|\00"
; CHECK: @__spinelprof_desc.sp_Op__or = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N35]], ptr
; CHECK: @[[N36:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#^\00"
; CHECK: @__spinelprof_desc.sp_Op__xor = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N36]], ptr
; CHECK: @[[N37:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#-@\00"
; CHECK: @__spinelprof_desc.sp_Op__uminus = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N37]], ptr
; CHECK: @[[N38:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#+@\00"
; CHECK: @__spinelprof_desc.sp_Op__uplus = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N38]], ptr
; CHECK: @[[N39:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"Op#!\00"
; CHECK: @__spinelprof_desc.sp_Op__not = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N39]], ptr
; CHECK: @[[N40:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"Op#=~\00"
; CHECK: @__spinelprof_desc.sp_Op__match = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N40]], ptr
; Not a Spinel name: the C name stays.
; CHECK: @[[N41:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [16 x i8] c"sp_Foo__unknown\00"
; CHECK: @__spinelprof_desc.sp_Foo__unknown = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N41]], ptr
; CHECK: @[[N42:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"sp_Foo\00"
; CHECK: @__spinelprof_desc.sp_Foo = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N42]], ptr
; The top-level script.
; CHECK: @[[N43:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"<main>\00"
; CHECK: @__spinelprof_desc.main = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N43]], ptr
; Blocks, lambdas and fiber bodies.
; CHECK: @[[N44:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"proc 3\00"
; CHECK: @__spinelprof_desc._sp_proc_fn_3 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1, i32 0, i32 0, ptr @[[N44]], ptr
; CHECK: @[[N45:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"lambda 12\00"
; CHECK: @__spinelprof_desc._lam_12 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1, i32 0, i32 0, ptr @[[N45]], ptr
; CHECK: @[[N46:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"fiber 1\00"
; CHECK: @__spinelprof_desc._fiber_body_1 = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 1, i32 0, i32 0, ptr @[[N46]], ptr
; CHECK: @[[N47:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"_lam_x\00"
; CHECK: @__spinelprof_desc._lam_x = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N47]], ptr
; The GC, by name.
; CHECK: @[[N48:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [14 x i8] c"sp_gc_collect\00"
; CHECK: @__spinelprof_desc.sp_gc_collect = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 3, i32 0, i32 0, ptr @[[N48]], ptr
; CHECK: @[[N49:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [15 x i8] c"sp_Foo_gc_scan\00"
; CHECK: @__spinelprof_desc.sp_Foo_gc_scan = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 3, i32 0, i32 0, ptr @[[N49]], ptr
; CHECK: @[[N50:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [13 x i8] c"sp_str_sweep\00"
; CHECK: @__spinelprof_desc.sp_str_sweep = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 3, i32 0, i32 0, ptr @[[N50]], ptr
; Plain C of the program.
; CHECK: @[[N51:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [9 x i8] c"helper_c\00"
; CHECK: @__spinelprof_desc.helper_c = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[N51]], ptr

define void @sp_Geo_Vec_zero_p() {
  ret void
}
define void @sp_Outer_Mid_Inner_hello() {
  ret void
}
define void @sp_Person_greet() {
  ret void
}
define void @sp_Foo_cls_x() {
  ret void
}
define void @sp_Foo_cls_valid_p() {
  ret void
}
define void @sp_Foo_save_bang() {
  ret void
}
define void @sp_Foo_name_eq() {
  ret void
}
define void @sp_Foo_to_s() {
  ret void
}
define void @sp_Foo_p() {
  ret void
}
define void @sp_Foo_new() {
  ret void
}
define void @sp_Foo_initialize() {
  ret void
}
define void @sp_make_tree() {
  ret void
}
define void @sp_fib() {
  ret void
}
define void @sp_empty_p() {
  ret void
}
define void @sp_Geo_Vec__plus() {
  ret void
}
define void @sp_Foo__eq_eq() {
  ret void
}
define void @sp_Foo__aset() {
  ret void
}
define void @sp_Op__plus() {
  ret void
}
define void @sp_Op__minus() {
  ret void
}
define void @sp_Op__mul() {
  ret void
}
define void @sp_Op__div() {
  ret void
}
define void @sp_Op__mod() {
  ret void
}
define void @sp_Op__pow() {
  ret void
}
define void @sp_Op__eq_eq() {
  ret void
}
define void @sp_Op__neq() {
  ret void
}
define void @sp_Op__cmp() {
  ret void
}
define void @sp_Op__lt() {
  ret void
}
define void @sp_Op__gt() {
  ret void
}
define void @sp_Op__le() {
  ret void
}
define void @sp_Op__ge() {
  ret void
}
define void @sp_Op__lshift() {
  ret void
}
define void @sp_Op__rshift() {
  ret void
}
define void @sp_Op__aref() {
  ret void
}
define void @sp_Op__aset() {
  ret void
}
define void @sp_Op__and() {
  ret void
}
define void @sp_Op__or() {
  ret void
}
define void @sp_Op__xor() {
  ret void
}
define void @sp_Op__uminus() {
  ret void
}
define void @sp_Op__uplus() {
  ret void
}
define void @sp_Op__not() {
  ret void
}
define void @sp_Op__match() {
  ret void
}
define void @sp_Foo__unknown() {
  ret void
}
define void @sp_Foo() {
  ret void
}
define i32 @main() {
  ret i32 0
}
define void @_sp_proc_fn_3() {
  ret void
}
define void @_lam_12() {
  ret void
}
define void @_fiber_body_1() {
  ret void
}
define void @_lam_x() {
  ret void
}
define void @sp_gc_collect() {
  ret void
}
define void @sp_Foo_gc_scan() {
  ret void
}
define void @sp_str_sweep() {
  ret void
}
define void @helper_c() {
  ret void
}
