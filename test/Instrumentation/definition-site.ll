; Where a function is defined decides user method versus runtime helper:
; the compile unit's main file (or a .rb file named by #line) is the
; program's own, a header is the runtime. File and line come from the
; DISubprogram; without one, the module's source file and line 0.
; Kinds: 0 user, 2 runtime, 3 gc.
; The helper here is tiny and would get no frame under the default policy
; (policy-*.ll test that); naming is tested with every frame kept.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-frames=all -S %s | FileCheck %s

source_filename = "/src/app.c"

; A top-level method of the program.
; CHECK: @[[TREE:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [17 x i8] c"Object#make_tree\00"
; CHECK: @[[TREEC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [13 x i8] c"sp_make_tree\00"
; CHECK: @[[APPC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"app.c\00"
; CHECK: @__spinelprof_desc.sp_make_tree = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 12, i32 0, ptr @[[TREE]], ptr @[[TREEC]], ptr @[[APPC]] }
define void @sp_make_tree() !dbg !10 {
  ret void
}

; The same shape of name from the runtime header is a runtime helper: kind
; runtime, shown as the Ruby core method (plugin/RuntimeNames.tsv), C name kept.
; CHECK: @[[SUBRB:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"String#[]\00"
; CHECK: @[[SUB:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [17 x i8] c"sp_str_sub_range\00"
; CHECK: @[[HDR:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [17 x i8] c"lib/sp_runtime.h\00"
; CHECK: @__spinelprof_desc.sp_str_sub_range = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 2, i32 340, i32 0, ptr @[[SUBRB]], ptr @[[SUB]], ptr @[[HDR]] }
define internal void @sp_str_sub_range() !dbg !11 {
  ret void
}

; #line directives put the program's methods in the .rb file.
; CHECK: @[[VEC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [15 x i8] c"Geo::Vec#zero?\00"
; CHECK: @[[VECC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [18 x i8] c"sp_Geo_Vec_zero_p\00"
; CHECK: @[[APPRB:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"app.rb\00"
; CHECK: @__spinelprof_desc.sp_Geo_Vec_zero_p = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 7, i32 0, ptr @[[VEC]], ptr @[[VECC]], ptr @[[APPRB]] }
define internal void @sp_Geo_Vec_zero_p() !dbg !12 {
  ret void
}

; The GC is the GC wherever it is defined.
; CHECK: @[[GC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [14 x i8] c"sp_gc_collect\00"
; CHECK: @__spinelprof_desc.sp_gc_collect = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 3, i32 90, i32 0, ptr @[[GC]], ptr @[[GC]], ptr @[[HDR]] }
define internal void @sp_gc_collect() !dbg !13 {
  ret void
}

; A file called app.c in another directory is not the main file.
; CHECK: @[[OTHER:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [12 x i8] c"sp_Foo_hash\00"
; CHECK: @__spinelprof_desc.sp_Foo_hash = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 2, i32 3, i32 0, ptr @[[OTHER]], ptr @[[OTHER]], ptr @[[APPC]] }
define internal void @sp_Foo_hash() !dbg !14 {
  ret void
}

; clang records a main file given by absolute path as (name, directory) in
; the compile unit but (absolute name, "") in its functions: still the same.
; CHECK: @[[ABS:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"Object#abs\00"
; CHECK: @[[SRC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"/src/app.c\00"
; CHECK: @__spinelprof_desc.sp_abs = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 5, i32 0, ptr @[[ABS]], ptr {{@[^,]*}}, ptr @[[SRC]] }
define void @sp_abs() !dbg !15 {
  ret void
}

; No debug info: the program's own, the module's file, line 0.
; CHECK: @[[BARE:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [12 x i8] c"Object#bare\00"
; CHECK: @[[BAREC:__spinelprof_str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"sp_bare\00"
; CHECK: @__spinelprof_desc.sp_bare = private constant { i32, i32, i32, i32, ptr, ptr, ptr } { i32 1, i32 0, i32 0, i32 0, ptr @[[BARE]], ptr @[[BAREC]], ptr @[[SRC]] }
define void @sp_bare() {
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "app.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DIFile(filename: "lib/sp_runtime.h", directory: "/src")
!5 = !DIFile(filename: "app.rb", directory: "/src")
!6 = !DISubroutineType(types: !{})
!7 = !DIFile(filename: "app.c", directory: "/elsewhere")
!8 = !DIFile(filename: "/src/app.c", directory: "")
!10 = distinct !DISubprogram(name: "sp_make_tree", scope: !1, file: !1, line: 12, type: !6, scopeLine: 12, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DISubprogram(name: "sp_str_sub_range", scope: !4, file: !4, line: 340, type: !6, scopeLine: 340, spFlags: DISPFlagDefinition, unit: !0)
!12 = distinct !DISubprogram(name: "sp_Geo_Vec_zero_p", scope: !5, file: !5, line: 7, type: !6, scopeLine: 7, spFlags: DISPFlagDefinition, unit: !0)
!13 = distinct !DISubprogram(name: "sp_gc_collect", scope: !4, file: !4, line: 90, type: !6, scopeLine: 90, spFlags: DISPFlagDefinition, unit: !0)
!14 = distinct !DISubprogram(name: "sp_Foo_hash", scope: !7, file: !7, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!15 = distinct !DISubprogram(name: "sp_abs", scope: !8, file: !8, line: 5, type: !6, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !0)
