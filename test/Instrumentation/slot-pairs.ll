; A push whose next marker is a push standing right above it (no call and
; at most two instructions between, on the only path from it) stores both
; slots at once: one 16-byte store of a constant pair of descriptors
; (`Node.new`'s frame, then `sp_gc_alloc`'s: SupersededPops.h). The upper
; slot is written early, but above the depth until the upper push
; publishes it; the upper push stores only the depth. Not paired: an upper
; push reached through a join (another path comes in without the lower's
; store), or after a call.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S %s | FileCheck %s

@a = private constant i8 0
@b = private constant i8 0
@c = private constant i8 0

declare i32 @__spinelprof_marker_push(ptr)
declare void @__spinelprof_marker_pop(i32)
declare void @work()

; CHECK: @__spinelprof_slot_pair = private unnamed_addr constant [2 x ptr] [ptr @a, ptr @b], align 16
; CHECK-NOT: @__spinelprof_slot_pair

define void @adjacent(i32 %x) {
  %r = call i32 @__spinelprof_marker_push(ptr @a)
  %y = add i32 %x, 1
  %u = call i32 @__spinelprof_marker_push(ptr @b)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %u)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @adjacent(
; CHECK:         [[LOADED1:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%spinelprof.stack]]
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED1]], 4097
; CHECK-NEXT:    %r = select i1 {{%.*}}, i32 [[LOADED1]], i32 4097
; CHECK:         [[SLOT:%spinelprof.slot]] = getelementptr inbounds
; CHECK-NEXT:    %spinelprof.pair = load <2 x i64>, ptr @__spinelprof_slot_pair, align 16
; CHECK-NEXT:    store volatile <2 x i64> %spinelprof.pair, ptr [[SLOT]], align 8, !tbaa
; CHECK-NEXT:    %y = add i32 %x, 1
; CHECK-NEXT:    [[NEXT:%.*]] = add i32 %r, 2
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]]
; CHECK-NEXT:    call void @work()

; The same pair again: the same constant.
define void @again() {
  %r = call i32 @__spinelprof_marker_push(ptr @a)
  %u = call i32 @__spinelprof_marker_push(ptr @b)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %u)
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @again(
; CHECK:         load <2 x i64>, ptr @__spinelprof_slot_pair, align 16

; Both paths reach the join with the same frames open, so @c stands on
; the root at level 2, right above either @b; but the join has two
; predecessors: each @b stores its own slot and @c its own.
define void @join(i1 %c) {
entry:
  %r = call i32 @__spinelprof_marker_push(ptr @a)
  call void @work()
  br i1 %c, label %p, label %q
p:
  %x = call i32 @__spinelprof_marker_push(ptr @b)
  br label %j
q:
  %y = call i32 @__spinelprof_marker_push(ptr @b)
  br label %j
j:
  %v = phi i32 [ %x, %p ], [ %y, %q ]
  %z = call i32 @__spinelprof_marker_push(ptr @c)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %z)
  call void @__spinelprof_marker_pop(i32 %v)
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @join(
; CHECK-NOT:   <2 x i64>
; CHECK:       p:
; CHECK:         store volatile ptr @b
; CHECK:       q:
; CHECK:         store volatile ptr @b
; CHECK:       j:
; CHECK-NOT:     load i32
; CHECK:         store volatile ptr @c
; CHECK:         ret void

; A call between: the callee may be sampled with only the lower frame open.
define void @call_between() {
  %r = call i32 @__spinelprof_marker_push(ptr @a)
  call void @work()
  %u = call i32 @__spinelprof_marker_push(ptr @b)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %u)
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @call_between(
; CHECK-NOT:   <2 x i64>
; CHECK:         store volatile ptr @a
; CHECK:         call void @work()
; CHECK:         store volatile ptr @b
; CHECK:         ret void
