; The allocation-site marking's output before lowering
; (spinelprof-alloc-markers): one marker call per site, carrying the size
; and the "alloc TYPE" descriptor, before the allocator call; the marker's
; declaration says it touches only inaccessible memory, returns, is not
; merged and costs the inliner nothing. Marking twice marks nothing more.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc-markers,spinelprof-markers -spinelprof-leaf-max-size=0 -S %s -o %t.markers.ll
; RUN: FileCheck %s --check-prefix=MARKERS --input-file=%t.markers.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc-markers -S %t.markers.ll -o %t.twice.ll
; RUN: %opt -S %t.markers.ll -o %t.reread.ll
; RUN: diff %t.reread.ll %t.twice.ll
;
; A plain -O2 pipeline (opt without the plugin) keeps every marker, once on
; each path, with its type, and between the inlined constructor's push and
; pop: a constructor inlined into a loop still counts every iteration, yet
; the program's loads move out of the loop past the marker; the inlined
; copies in the two arms of a branch each keep their site (or, hoisted
; into one by LLVM 22, the one path keeps one).
; RUN: %opt -passes='default<O2>' -S %t.markers.ll -o %t.o2.ll
; RUN: FileCheck %s --check-prefix=O2 --input-file=%t.o2.ll
;
; Lowered after it: the inlined constructor's malloc goes to its counting
; wrapper (alloc-lowering.ll) with the type named before inlining, between
; the frame's push and pop; no marker is left, not even declared.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-alloc,spinelprof-lower-markers -S %t.o2.ll | FileCheck %s --check-prefix=LOWERED
;
; A marker that reaches code generation is an error there, not an
; undefined symbol for the linker.
; RUN: not llc -o /dev/null %t.markers.ll 2>&1 | FileCheck %s --check-prefix=LLC
; LLC: error: call to __spinelprof_marker_alloc marked "dontcall-error": spinelprof: allocation-site marker not lowered

declare ptr @malloc(i64)

define internal ptr @sp_Foo_new() {
  %p = call ptr @malloc(i64 24)
  ret ptr %p
}
; MARKERS-LABEL: define internal ptr @sp_Foo_new()
; MARKERS-NEXT:    [[D:%.*]] = call i32 @__spinelprof_marker_push(ptr @__spinelprof_desc.sp_Foo_new)
; MARKERS-NEXT:    call void @__spinelprof_marker_alloc(i64 24, ptr @__spinelprof_alloc_type.Foo)
; MARKERS-NEXT:    %p = call ptr @malloc(i64 24), !spinelprof.alloc
; MARKERS-NEXT:    call void @__spinelprof_marker_pop(i32 [[D]])
; MARKERS-NEXT:    ret ptr %p

define void @sp_fill(ptr %out, ptr noalias %q, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = call ptr @sp_Foo_new()
  %k = load i64, ptr %q
  store i64 %k, ptr %p
  %slot = getelementptr ptr, ptr %out, i64 %i
  store ptr %p, ptr %slot
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret void
}
; O2-LABEL: define void @sp_fill(
; O2:         load i64, ptr %q
; O2:       loop:
; O2-NOT:     load
; O2:         [[D:%.*]] = tail call i32 @__spinelprof_marker_push(ptr nonnull @__spinelprof_desc.sp_Foo_new)
; O2-NEXT:    tail call void @__spinelprof_marker_alloc(i64 24, ptr nonnull @__spinelprof_alloc_type.Foo)
; O2-NEXT:    {{.*}} = {{.*}}call {{.*}}@malloc(i64 {{.*}}24)
; O2-NEXT:    tail call void @__spinelprof_marker_pop(i32 [[D]])
; O2-NOT:     __spinelprof_marker
; O2:         br i1 {{.*}}, label %loop, label %done
; LOWERED-LABEL: define void @sp_fill(
; LOWERED:       loop:
; LOWERED:         store volatile ptr @__spinelprof_desc.sp_Foo_new, ptr
; LOWERED-NEXT:    store volatile i32
; LOWERED-NEXT:    {{.*}} = {{.*}}call {{.*}}@malloc.spinelprof_site(i64 {{.*}}24, i64 24, ptr {{(nonnull )?}}@__spinelprof_alloc_type.Foo)
; LOWERED-NEXT:    [[POP:%.*]] = add i32 {{%.*}}, 1
; LOWERED-NEXT:    store volatile i32 [[POP]]
; LOWERED:         br i1 {{.*}}, label %loop, label %done

define ptr @sp_pick(i1 %c) {
entry:
  br i1 %c, label %left, label %right
left:
  %x = call ptr @sp_Foo_new()
  br label %join
right:
  %y = call ptr @sp_Foo_new()
  br label %join
join:
  %r = phi ptr [ %x, %left ], [ %y, %right ]
  ret ptr %r
}
; LLVM 19 keeps both branches, each with its site; LLVM 22 hoists the two
; identical branches into one (the same frame and site on either path).
; O2-LABEL: define {{.*}}ptr @sp_pick(
; O2:         {{.*}} = tail call i32 @__spinelprof_marker_push(ptr nonnull @__spinelprof_desc.sp_Foo_new)
; O2-NEXT:    tail call void @__spinelprof_marker_alloc(i64 24, ptr nonnull @__spinelprof_alloc_type.Foo)
; O2-NEXT:    {{.*}}call {{.*}}@malloc(i64 24)
; O2:         ret ptr

; MARKERS: declare void @__spinelprof_marker_alloc(i64, ptr) #[[ATTRS:[0-9]+]]
; MARKERS: attributes #[[ATTRS]] = { nocallback nofree nomerge nosync nounwind willreturn memory(inaccessiblemem: readwrite) "call-inline-cost"="0" "dontcall-error"="spinelprof: allocation-site marker not lowered (the plugin's lowering pass did not run)" }
; LOWERED-LABEL: define internal {{.*}}ptr @malloc.spinelprof_site(
; LOWERED:         sub i64 {{.*}}, %spinelprof.size
; LOWERED:         call void @__spinelprof_alloc_sample(i64 %spinelprof.size, ptr %spinelprof.type) [[COLD:#[0-9]+]]
; LOWERED:         tail call {{.*}}ptr @malloc(i64 {{.*}}%0)
; LOWERED-NOT: __spinelprof_marker
; LOWERED: declare void @__spinelprof_alloc_sample(i64, ptr) local_unnamed_addr [[COLDFN:#[0-9]+]]
; LOWERED-NOT: __spinelprof_marker
; LOWERED: attributes [[COLDFN]] = { cold nounwind }
; LOWERED: attributes [[COLD]] = { cold }
