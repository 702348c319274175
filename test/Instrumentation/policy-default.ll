; The default frame policy (plugin/FramePolicy.h, docs/performance.md):
; every function of the program's own file keeps its frame, however small;
; of the functions defined in a header (Spinel's runtime), GC functions keep
; theirs unless they are small and call nothing, other helpers only when
; they are big (-spinelprof-helper-min-size, 100 IR instructions) or are not
; `inline` (inlinehint) and call a function (intrinsics do not count).
; A helper no Ruby method stands for (RuntimeNames.tsv's "-" or absent),
; only ever called directly, does not call out by calling inline helpers
; that call nothing: they vanish into it at -O2.
; The collector's per-object callbacks (*_gc_scan, sp_gc_mark) are
; PC-named (flag 4) wherever they are defined: no push, since they run
; only under the collector's own frames.

; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=KEEP
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=DROP
; KEEP-DAG: @__spinelprof_desc.main =
; KEEP-DAG: @__spinelprof_desc.sp_Vec_x =
; KEEP-DAG: @__spinelprof_desc._sp_proc_fn_1 =
; KEEP-DAG: @__spinelprof_desc._fiber_body_2 =
; KEEP-DAG: @__spinelprof_desc.sp_Tree_gc_scan = private constant {{.*}} { i32 1, i32 3, i32 {{[0-9]+}}, i32 4,
; KEEP-DAG: @__spinelprof_desc.sp_gc_collect = private constant {{.*}} { i32 1, i32 3, i32 {{[0-9]+}}, i32 0,
; KEEP-DAG: @__spinelprof_desc.sp_gc_mark = private constant {{.*}} { i32 1, i32 3, i32 {{[0-9]+}}, i32 4,
; A callback that calls a pushed helper (which -O2 may inline into it) is
; pushed too: a sample in the helper would read the callback on top of it.
; KEEP-DAG: @__spinelprof_desc.sp_Big_gc_scan = private constant {{.*}} { i32 1, i32 3, i32 {{[0-9]+}}, i32 0,
; KEEP-DAG: @__spinelprof_desc.sp_str_alloc =
; KEEP-DAG: @__spinelprof_desc.sp_raise =
; DROP-NOT: @__spinelprof_desc.sp_gc_hdr_of =
; DROP-NOT: @__spinelprof_desc.sp_gc_root_restore =
; DROP-NOT: @__spinelprof_desc.sp_ary_get =
; DROP-NOT: @__spinelprof_desc.sp_str_len =
; DROP-NOT: @__spinelprof_desc.sp_int_add =
; DROP-NOT: @__spinelprof_desc.sp_big_leaf =
; DROP-NOT: @__spinelprof_desc.sp_utf8_byte_offset =
; DROP-NOT: @__spinelprof_desc.sp_utf8_advance =
; KEEP-DAG: @__spinelprof_desc.sp_str_length =
; KEEP-DAG: @__spinelprof_desc.sp_StrArray_scan =
; KEEP-DAG: @__spinelprof_desc.sp_utf8_decode =
; A callback has no push; the collector has one. With PC-naming off, a
; callback gets a push again.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -S %s | FileCheck %s --check-prefix=PUSHED
; PUSHED-LABEL: define internal void @sp_Tree_gc_scan(
; PUSHED: store volatile ptr @__spinelprof_desc.sp_Tree_gc_scan
; DROP-LABEL: define internal void @sp_Tree_gc_scan(
; DROP-NOT: spinelprof
; DROP: ret void
; DROP-LABEL: define internal void @sp_gc_collect(
; DROP: store volatile ptr @__spinelprof_desc.sp_gc_collect
; DROP-LABEL: define internal void @sp_gc_mark(
; DROP-NOT: spinelprof
; DROP: ret void
; A dropped function is left exactly as it was.
; DROP-LABEL: define internal i64 @sp_str_len(
; DROP-NEXT: ret i64 %n
; DROP-NEXT: }

; The size threshold: with 4, the five-instruction leaf keeps its frame.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-helper-min-size=4 -S %s | FileCheck %s --check-prefix=SMALL
; SMALL: @__spinelprof_desc.sp_big_leaf =

; Every frame, by option or by variable.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-frames=all -S %s | FileCheck %s --check-prefix=ALL
; RUN: env SPINEL_PROFILE_FRAMES=all %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=ALL
; ALL-DAG: @__spinelprof_desc.sp_gc_hdr_of =
; ALL-DAG: @__spinelprof_desc.sp_gc_root_restore =
; ALL-DAG: @__spinelprof_desc.sp_ary_get =
; ALL-DAG: @__spinelprof_desc.sp_str_len =
; ALL-DAG: @__spinelprof_desc.sp_int_add =
; ALL-DAG: @__spinelprof_desc.sp_big_leaf =
; ALL-DAG: @__spinelprof_desc.main =

; lean: the program's own `inline` functions (Spinel's <= 3-statement
; methods) lose their frame too; the rest is as by default.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-frames=lean -S %s | FileCheck %s --check-prefix=LEAN
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-frames=lean -S %s | FileCheck %s --check-prefix=DROP
; LEAN-NOT: @__spinelprof_desc.sp_Vec_x =
; LEAN-DAG: @__spinelprof_desc.main =
; LEAN-DAG: @__spinelprof_desc._sp_proc_fn_1 =
; LEAN-DAG: @__spinelprof_desc.sp_gc_collect =
; LEAN-NOT: @__spinelprof_desc.sp_Vec_x =

; "default" by name is the default; the option wins over the variable.
; RUN: env SPINEL_PROFILE_FRAMES=all %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-frames=default -S %s | FileCheck %s --check-prefix=DROP

; An include pattern selects exactly what it matches, dropped or not.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-include='sp_str_len|sp_Vec_x' -S %s | FileCheck %s --check-prefix=INC
; INC-NOT: @__spinelprof_desc.main =
; INC-DAG: @__spinelprof_desc.sp_str_len =
; INC-DAG: @__spinelprof_desc.sp_Vec_x =
; INC-NOT: @__spinelprof_desc.main =

; Exclude takes frames away from the default's choice.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-exclude='main|sp_gc_.*' -S %s | FileCheck %s --check-prefix=EXC
; EXC-NOT: @__spinelprof_desc.main =
; EXC-NOT: @__spinelprof_desc.sp_gc_
; EXC: @__spinelprof_desc.sp_Vec_x =
; EXC-NOT: @__spinelprof_desc.main =
; EXC-NOT: @__spinelprof_desc.sp_gc_

; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-frames=some -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: env SPINEL_PROFILE_FRAMES=none not %opt -load-pass-plugin %plugin -passes=spinelprof -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADENV
; BAD: invalid frame policy 'some' in -spinelprof-frames: expected 'default', 'lean' or 'all'
; BADENV: invalid frame policy 'none' in SPINEL_PROFILE_FRAMES

source_filename = "/src/app.c"

declare ptr @malloc(i64)
declare void @longjmp(ptr, i32)
declare { i64, i1 } @llvm.sadd.with.overflow.i64(i64, i64)

; ---- The program's own file: always a frame. ----

define i32 @main() !dbg !10 {
  %v = call i64 @sp_Vec_x(ptr null), !dbg !30
  ret i32 0
}

; A one-line accessor (Spinel makes it `static inline`): still a Ruby method.
define internal i64 @sp_Vec_x(ptr %self) inlinehint !dbg !11 {
  ret i64 0
}

define internal i64 @_sp_proc_fn_1(ptr %env, i64 %x) !dbg !12 {
  ret i64 %x
}

define internal void @_fiber_body_2(ptr %f) !dbg !13 {
  ret void
}

define internal void @sp_Tree_gc_scan(ptr %p) !dbg !14 {
  call void @sp_gc_mark(ptr %p), !dbg !31
  ret void
}

define internal void @sp_Big_gc_scan(ptr %p) {
  %s = call ptr @sp_str_alloc(i64 1)
  ret void
}

; ---- The runtime header. ----

; GC: kept when it calls something...
define internal void @sp_gc_collect() !dbg !20 {
  call void @sp_gc_mark(ptr null), !dbg !32
  ret void
}
define internal void @sp_gc_mark(ptr %p) !dbg !21 {
  %h = call ptr @sp_gc_hdr_of(ptr %p), !dbg !33
  ret void
}
; ...dropped when it is a small leaf.
define internal ptr @sp_gc_hdr_of(ptr %p) inlinehint !dbg !22 {
  %h = getelementptr i8, ptr %p, i64 -32
  ret ptr %h
}
define internal void @sp_gc_root_restore(ptr %saved) inlinehint !dbg !23 {
  ret void
}

; A helper that is not inline and calls out: kept.
define internal ptr @sp_str_alloc(i64 %n) !dbg !24 {
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}
define internal void @sp_raise(ptr %e) !dbg !25 {
  call void @longjmp(ptr %e, i32 1)
  unreachable
}

; An inline helper that calls out: dropped (Spinel's `inline` means tiny).
define internal ptr @sp_ary_get(ptr %a, i64 %i) inlinehint !dbg !26 {
  %p = call ptr @malloc(i64 %i)
  ret ptr %p
}

; Small leaves: dropped. An intrinsic is not a call.
define internal i64 @sp_str_len(ptr %s, i64 %n) !dbg !27 {
  ret i64 %n
}
define internal i64 @sp_int_add(i64 %a, i64 %b) !dbg !28 {
  %r = call { i64, i1 } @llvm.sadd.with.overflow.i64(i64 %a, i64 %b)
  %v = extractvalue { i64, i1 } %r, 0
  ret i64 %v
}
define internal i64 @sp_big_leaf(i64 %a) !dbg !29 {
  %b = add i64 %a, 1
  %c = mul i64 %b, 3
  %d = xor i64 %c, %a
  %e = sub i64 %d, 7
  ret i64 %e
}

; A loop over inline helpers that call nothing: dropped when no Ruby method
; stands for it (UTF-8 plumbing inside `String#[]`)...
define internal i64 @sp_utf8_byte_offset(ptr %s, i64 %n) !dbg !40 {
entry:
  br label %loop
loop:
  %p = phi ptr [ %s, %entry ], [ %q, %loop ]
  %i = phi i64 [ %n, %entry ], [ %j, %loop ]
  %step = call i64 @sp_utf8_advance(ptr %p), !dbg !45
  %q = getelementptr i8, ptr %p, i64 %step
  %j = sub i64 %i, 1
  %more = icmp sgt i64 %j, 0
  br i1 %more, label %loop, label %done
done:
  %off = ptrtoint ptr %q to i64
  ret i64 %off
}
define internal i64 @sp_utf8_advance(ptr %p) inlinehint !dbg !41 {
  %c = load i8, ptr %p
  %n = zext i8 %c to i64
  ret i64 %n
}
; ...kept when one does (`String#length`)...
define internal i64 @sp_str_length(ptr %s) !dbg !42 {
  %n = call i64 @sp_utf8_advance(ptr %s), !dbg !46
  ret i64 %n
}
; ...or when its address is taken (it runs as a function, a GC scanner)...
@scanners = internal global ptr @sp_StrArray_scan
define internal void @sp_StrArray_scan(ptr %p) !dbg !43 {
  %n = call i64 @sp_utf8_advance(ptr %p), !dbg !47
  ret void
}
; ...or when an inline helper it calls calls out.
define internal ptr @sp_utf8_decode(i64 %n) !dbg !44 {
  %p = call ptr @sp_ary_get(ptr null, i64 %n), !dbg !48
  ret ptr %p
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "app.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DIFile(filename: "lib/sp_runtime.h", directory: "/src")
!6 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DISubprogram(name: "sp_Vec_x", scope: !1, file: !1, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !0)
!12 = distinct !DISubprogram(name: "_sp_proc_fn_1", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!13 = distinct !DISubprogram(name: "_fiber_body_2", scope: !1, file: !1, line: 4, type: !6, scopeLine: 4, spFlags: DISPFlagDefinition, unit: !0)
!14 = distinct !DISubprogram(name: "sp_Tree_gc_scan", scope: !1, file: !1, line: 5, type: !6, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !0)
!20 = distinct !DISubprogram(name: "sp_gc_collect", scope: !4, file: !4, line: 20, type: !6, scopeLine: 20, spFlags: DISPFlagDefinition, unit: !0)
!21 = distinct !DISubprogram(name: "sp_gc_mark", scope: !4, file: !4, line: 21, type: !6, scopeLine: 21, spFlags: DISPFlagDefinition, unit: !0)
!22 = distinct !DISubprogram(name: "sp_gc_hdr_of", scope: !4, file: !4, line: 22, type: !6, scopeLine: 22, spFlags: DISPFlagDefinition, unit: !0)
!23 = distinct !DISubprogram(name: "sp_gc_root_restore", scope: !4, file: !4, line: 23, type: !6, scopeLine: 23, spFlags: DISPFlagDefinition, unit: !0)
!24 = distinct !DISubprogram(name: "sp_str_alloc", scope: !4, file: !4, line: 24, type: !6, scopeLine: 24, spFlags: DISPFlagDefinition, unit: !0)
!25 = distinct !DISubprogram(name: "sp_raise", scope: !4, file: !4, line: 25, type: !6, scopeLine: 25, spFlags: DISPFlagDefinition, unit: !0)
!26 = distinct !DISubprogram(name: "sp_ary_get", scope: !4, file: !4, line: 26, type: !6, scopeLine: 26, spFlags: DISPFlagDefinition, unit: !0)
!27 = distinct !DISubprogram(name: "sp_str_len", scope: !4, file: !4, line: 27, type: !6, scopeLine: 27, spFlags: DISPFlagDefinition, unit: !0)
!28 = distinct !DISubprogram(name: "sp_int_add", scope: !4, file: !4, line: 28, type: !6, scopeLine: 28, spFlags: DISPFlagDefinition, unit: !0)
!29 = distinct !DISubprogram(name: "sp_big_leaf", scope: !4, file: !4, line: 29, type: !6, scopeLine: 29, spFlags: DISPFlagDefinition, unit: !0)
!40 = distinct !DISubprogram(name: "sp_utf8_byte_offset", scope: !4, file: !4, line: 40, type: !6, scopeLine: 40, spFlags: DISPFlagDefinition, unit: !0)
!41 = distinct !DISubprogram(name: "sp_utf8_advance", scope: !4, file: !4, line: 41, type: !6, scopeLine: 41, spFlags: DISPFlagDefinition, unit: !0)
!42 = distinct !DISubprogram(name: "sp_str_length", scope: !4, file: !4, line: 42, type: !6, scopeLine: 42, spFlags: DISPFlagDefinition, unit: !0)
!43 = distinct !DISubprogram(name: "sp_StrArray_scan", scope: !4, file: !4, line: 43, type: !6, scopeLine: 43, spFlags: DISPFlagDefinition, unit: !0)
!44 = distinct !DISubprogram(name: "sp_utf8_decode", scope: !4, file: !4, line: 44, type: !6, scopeLine: 44, spFlags: DISPFlagDefinition, unit: !0)
!45 = !DILocation(line: 40, scope: !40)
!46 = !DILocation(line: 42, scope: !42)
!47 = !DILocation(line: 43, scope: !43)
!48 = !DILocation(line: 44, scope: !44)
!30 = !DILocation(line: 1, scope: !10)
!31 = !DILocation(line: 5, scope: !14)
!32 = !DILocation(line: 20, scope: !20)
!33 = !DILocation(line: 21, scope: !21)
