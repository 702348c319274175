; The instrumentation's output before lowering (spinelprof-markers): a call
; of the push marker at entry returning the depth, a pop marker with that
; depth before every ret, a re-push after a returns_twice call; the markers'
; declarations say they touch only inaccessible memory, return, and are not
; merged. (-spinelprof-leaf-max-size=0: these tiny leaves would be PC-named
; by default; here they stand for any pushed frame.)
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-markers -spinelprof-leaf-max-size=0 -S %s -o %t.markers.ll
; RUN: FileCheck %s --check-prefix=MARKERS --input-file=%t.markers.ll
;
; A plain -O2 pipeline (opt without the plugin) keeps every marker, once on
; each path and in order: a method inlined into a loop still pushes and
; pops in every iteration, yet the program's loads move out of the loop
; past them; the two inlined copies in the two arms of a branch stay two;
; the re-push stays right after setjmp.
; RUN: %opt -passes='default<O2>' -S %t.markers.ll -o %t.o2.ll
; RUN: FileCheck %s --check-prefix=O2 --input-file=%t.o2.ll
;
; Lowered after it: the shadow-stack code, one stack address per function,
; computed out of the loop; no marker is left, not even declared.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S %t.o2.ll | FileCheck %s --check-prefix=LOWERED
;
; A marker that reaches code generation is an error there, not an
; undefined symbol for the linker.
; RUN: not llc -o /dev/null %t.markers.ll 2>&1 | FileCheck %s --check-prefix=LLC
; LLC: error: call to __spinelprof_marker_push marked "dontcall-error": spinelprof: frame marker not lowered

declare i32 @setjmp(ptr) returns_twice
declare void @work()

define internal i64 @sp_Foo_x(ptr %self) {
  %v = load i64, ptr %self
  ret i64 %v
}
; MARKERS-LABEL: define internal i64 @sp_Foo_x(ptr %self)
; MARKERS-NEXT:    [[D:%.*]] = call i32 @__spinelprof_marker_push(ptr @__spinelprof_desc.sp_Foo_x)
; MARKERS-NEXT:    %v = load i64, ptr %self
; MARKERS-NEXT:    call void @__spinelprof_marker_pop(i32 [[D]])
; MARKERS-NEXT:    ret i64 %v

define i64 @sp_sum(ptr %self, ptr %q, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s1, %loop ]
  %x = call i64 @sp_Foo_x(ptr %self)
  %k = load i64, ptr %q
  %t = add i64 %x, %k
  %s1 = add i64 %s, %t
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret i64 %s1
}
; O2-LABEL: define i64 @sp_sum(
; O2:         [[D:%.*]] = tail call i32 @__spinelprof_marker_push(ptr nonnull @__spinelprof_desc.sp_sum)
; O2-DAG:     load i64, ptr %self
; O2-DAG:     load i64, ptr %q
; O2:       loop:
; O2-NOT:     load
; O2:         [[DX:%.*]] = tail call i32 @__spinelprof_marker_push(ptr nonnull @__spinelprof_desc.sp_Foo_x)
; O2-NEXT:    tail call void @__spinelprof_marker_pop(i32 [[DX]])
; O2-NOT:     __spinelprof_marker
; O2:         br i1 {{.*}}, label %loop, label %done
; O2:       done:
; O2-NEXT:    tail call void @__spinelprof_marker_pop(i32 [[D]])
; O2-NEXT:    ret i64
; LOWERED-LABEL: define i64 @sp_sum(
; LOWERED:         [[STACK:%.*]] = {{.*}}call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_stack)
; LOWERED:         [[LOADED1:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK]], align 4
; LOWERED-NEXT:    {{%.*}} = icmp ult i32 [[LOADED1]], 4097
; LOWERED-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED1]], i32 4097
; LOWERED:         [[SLOT:%.*]] = getelementptr inbounds {{.*}}, ptr [[STACK]], i64 0, i32 2, i64
; LOWERED:         [[DX:%.*]] = add i32 [[D]], 1
; LOWERED:         store volatile ptr @__spinelprof_desc.sp_sum, ptr [[SLOT]]
; LOWERED-NEXT:    store volatile i32 [[DX]], ptr [[STACK]]
; The inlined frame stands one above sp_sum's own: no load of the depth.
; LOWERED:       loop:
; LOWERED-NOT:     threadlocal.address
; LOWERED-NOT:     load i32
; LOWERED:         [[SLOTX:%.*]] = getelementptr inbounds ptr, ptr [[SLOT]], i32 1
; LOWERED-NEXT:    [[NEXTX:%.*]] = add i32 [[D]], 2
; LOWERED-NEXT:    store volatile ptr @__spinelprof_desc.sp_Foo_x, ptr [[SLOTX]]
; LOWERED-NEXT:    store volatile i32 [[NEXTX]], ptr [[STACK]], align 4
; Its pop adds its level to sp_sum's depth where it stands (nested-depths.ll).
; LOWERED-NEXT:    [[POPX:%.*]] = add i32 [[D]], 1
; LOWERED-NEXT:    store volatile i32 [[POPX]], ptr [[STACK]], align 4
; LOWERED:       done:
; LOWERED-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4
; LOWERED-NEXT:    ret i64

define i64 @sp_pick(ptr %a, ptr %b, i1 %c) {
entry:
  br i1 %c, label %left, label %right
left:
  %x = call i64 @sp_Foo_x(ptr %a)
  br label %join
right:
  %y = call i64 @sp_Foo_x(ptr %b)
  br label %join
join:
  %r = phi i64 [ %x, %left ], [ %y, %right ]
  ret i64 %r
}
; O2-LABEL: define i64 @sp_pick(
; O2:         [[D:%.*]] = tail call i32 @__spinelprof_marker_push(ptr nonnull @__spinelprof_desc.sp_pick)
; O2-NEXT:    br i1 %c, label %left, label %right
; O2:       left:
; O2-NEXT:    [[DL:%.*]] = tail call i32 @__spinelprof_marker_push(ptr nonnull @__spinelprof_desc.sp_Foo_x)
; O2-NEXT:    tail call void @__spinelprof_marker_pop(i32 [[DL]])
; O2:       right:
; O2-NEXT:    [[DR:%.*]] = tail call i32 @__spinelprof_marker_push(ptr nonnull @__spinelprof_desc.sp_Foo_x)
; O2-NEXT:    tail call void @__spinelprof_marker_pop(i32 [[DR]])
; O2:       join:
; O2-NOT:     __spinelprof_marker_push
; O2:         tail call void @__spinelprof_marker_pop(i32 [[D]])
; O2-NEXT:    ret i64

define i32 @sp_rescue(ptr %buf) {
entry:
  %r = call i32 @setjmp(ptr %buf)
  %c = icmp eq i32 %r, 0
  br i1 %c, label %body, label %handler
body:
  call void @work()
  ret i32 0
handler:
  ret i32 1
}
; MARKERS-LABEL: define i32 @sp_rescue(ptr %buf)
; MARKERS-NEXT:  entry:
; MARKERS-NEXT:    [[D:%.*]] = call i32 @__spinelprof_marker_push(ptr @__spinelprof_desc.sp_rescue)
; MARKERS-NEXT:    %r = call i32 @setjmp(ptr %buf)
; MARKERS-NEXT:    call void @__spinelprof_marker_repush(ptr @__spinelprof_desc.sp_rescue, i32 [[D]])
; MARKERS:       body:
; MARKERS-NEXT:    call void @work()
; MARKERS-NEXT:    call void @__spinelprof_marker_pop(i32 [[D]])
; MARKERS-NEXT:    ret i32 0
; MARKERS:       handler:
; MARKERS-NEXT:    call void @__spinelprof_marker_pop(i32 [[D]])
; MARKERS-NEXT:    ret i32 1
; O2-LABEL: define {{.*}}i32 @sp_rescue(
; O2:         [[D:%.*]] = call i32 @__spinelprof_marker_push(ptr nonnull @__spinelprof_desc.sp_rescue)
; O2-NEXT:    %r = call i32 @setjmp(ptr %buf)
; O2-NEXT:    call void @__spinelprof_marker_repush(ptr nonnull @__spinelprof_desc.sp_rescue, i32 [[D]])
; O2:       body:
; O2-NEXT:    call void @work()
; O2-NEXT:    call void @__spinelprof_marker_pop(i32 [[D]])
; O2:       handler:
; O2-NEXT:    call void @__spinelprof_marker_pop(i32 [[D]])
; LOWERED-LABEL: define {{.*}}i32 @sp_rescue(
; LOWERED:         %r = call i32 @setjmp(ptr %buf)
; LOWERED-NEXT:    store volatile ptr @__spinelprof_desc.sp_rescue, ptr
; LOWERED-NEXT:    store volatile i32

; MARKERS: declare i32 @__spinelprof_marker_push(ptr) #[[ATTRS:[0-9]+]]
; MARKERS: declare void @__spinelprof_marker_pop(i32) #[[ATTRS]]
; MARKERS: declare void @__spinelprof_marker_repush(ptr, i32) #[[ATTRS]]
; MARKERS: attributes #[[ATTRS]] = { nocallback nofree nomerge nosync nounwind willreturn memory(inaccessiblemem: readwrite) "call-inline-cost"="0" "dontcall-error"="spinelprof: frame marker not lowered (the plugin's lowering pass did not run)" }
; LOWERED-NOT: __spinelprof_marker
