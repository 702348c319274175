; A pop whose depth store the next marker's replaces is dropped: the next
; thing that touches the depth, on the one path from the pop, within two
; of the program's instructions (an unconditional branch counts), is a pop,
; a re-push, or a push that stands on another frame (no load). Kept: a pop
; before any other call, before a push that loads, before a conditional
; branch or a return, or with three instructions in between
; (SupersededPops.h). The same for a push's depth store, where the push
; right above it stores one (at the end).
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S %s | FileCheck %s

@desc = private constant i8 0
@desc2 = private constant i8 0

declare i32 @__spinelprof_marker_push(ptr)
declare void @__spinelprof_marker_pop(i32)
declare void @__spinelprof_marker_repush(ptr, i32)
declare void @work()

; `return inner(x) + 1`: the inner frame's pop, two instructions, the
; outer's pop.
define i32 @two_between(i32 %x) {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %b)
  %y = add i32 %x, 1
  %z = mul i32 %y, 3
  call void @__spinelprof_marker_pop(i32 %a)
  ret i32 %z
}
; CHECK-LABEL: define i32 @two_between(
; CHECK:         call void @work()
; CHECK-NEXT:    %y = add i32 %x, 1
; CHECK-NEXT:    %z = mul i32 %y, 3
; CHECK-NEXT:    store volatile i32 %a, ptr
; CHECK-NEXT:    ret i32 %z

; Three: the popped frame would be charged for its caller's work.
define i32 @three_between(i32 %x) {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %b)
  %y = add i32 %x, 1
  %z = mul i32 %y, 3
  %w = sub i32 %z, %x
  call void @__spinelprof_marker_pop(i32 %a)
  ret i32 %w
}
; CHECK-LABEL: define i32 @three_between(
; CHECK:         call void @work()
; CHECK-NEXT:    [[B:%.*]] = add i32 %a, 1
; CHECK-NEXT:    store volatile i32 [[B]], ptr
; CHECK-NEXT:    %y = add i32 %x, 1
; CHECK:         %w = sub i32 %z, %x
; CHECK-NEXT:    store volatile i32 %a, ptr

; `a.x + a.y`: the first sibling's pop, the second's push in its place.
define void @siblings() {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %b)
  %c = call i32 @__spinelprof_marker_push(ptr @desc2)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %c)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @siblings(
; CHECK:         call void @work()
; CHECK-NOT:     store volatile i32
; CHECK:         store volatile ptr @desc2, ptr
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    [[B:%.*]] = add i32 %a, 1
; CHECK-NEXT:    store volatile i32 [[B]], ptr
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 %a, ptr

; Through an unconditional branch (it counts as one), not a conditional.
define void @branches(i1 %c) {
entry:
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %b)
  br label %next
next:
  %d = call i32 @__spinelprof_marker_push(ptr @desc2)
  call void @__spinelprof_marker_pop(i32 %d)
  br i1 %c, label %left, label %right
left:
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
right:
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @branches(
; CHECK:       entry:
; CHECK-NOT:     store volatile i32 %a
; CHECK:         br label %next
; CHECK:       next:
; CHECK-NOT:     store
; CHECK:         store volatile ptr @desc2, ptr
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr
; CHECK-NEXT:    [[B:%.*]] = add i32 %a, 1
; CHECK-NEXT:    store volatile i32 [[B]], ptr
; CHECK-NEXT:    br i1 %c
; CHECK:       left:
; CHECK-NEXT:    store volatile i32 %a, ptr
; CHECK:       right:
; CHECK-NEXT:    store volatile i32 %a, ptr

; A call between: the callee loads the depth (and may be sampled).
define void @call_between() {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %b)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @call_between(
; CHECK:         store volatile <2 x i64> %spinelprof.pair, ptr %spinelprof.slot,
; CHECK-NEXT:    [[NEXTB:%.*]] = add i32 %a, 2
; CHECK-NEXT:    store volatile i32 [[NEXTB]], ptr
; CHECK-NEXT:    [[B:%.*]] = add i32 %a, 1
; CHECK-NEXT:    store volatile i32 [[B]], ptr
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 %a, ptr

; A push that loads the depth (after a pop of a depth the markers do not
; tell: a phi of something else than pushes) must load the popped one.
define void @loading_push(i1 %c, i32 %x) {
entry:
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  br i1 %c, label %l, label %r
l:
  br label %j
r:
  br label %j
j:
  %p = phi i32 [ %a, %l ], [ %x, %r ]
  call void @__spinelprof_marker_pop(i32 %p)
  %e = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %e)
  ret void
}
; CHECK-LABEL: define void @loading_push(
; CHECK:       j:
; CHECK:         store volatile i32 %p, ptr
; CHECK-NEXT:    [[LOADED1:%spinelprof.loaded[0-9]*]] = load i32, ptr
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED1]], 4097
; CHECK-NEXT:    %e = select i1 {{%.*}}, i32 [[LOADED1]], i32 4097

; A re-push stores its slot, then the depth: in its frame's slot after a pop
; one level up, a sample between would see the re-pushed frame under the
; popped one. Kept.
define void @before_repush() {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %b)
  call void @__spinelprof_marker_repush(ptr @desc, i32 %a)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @before_repush(
; CHECK:         call void @work()
; CHECK-NEXT:    [[B:%.*]] = add i32 %a, 1
; CHECK-NEXT:    store volatile i32 [[B]], ptr
; CHECK-NEXT:    store volatile ptr @desc, ptr
; CHECK-NEXT:    store volatile i32 %spinelprof.next, ptr
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 %a, ptr

; Pops in a row, then a push (`Node.new`: sp_gc_alloc_nogc's pop,
; sp_gc_alloc's, then Node#initialize's push in sp_gc_alloc's slot). The
; inner pop cannot go: the push's slot store would come while the depth
; still shows the inner frame, a stack of sp_gc_alloc_nogc on
; Node#initialize. The outer pop goes: the push stores in its slot.
define void @pops_then_push() {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  %c = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %c)
  call void @__spinelprof_marker_pop(i32 %b)
  %e = call i32 @__spinelprof_marker_push(ptr @desc2)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %e)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @pops_then_push(
; CHECK:         call void @work()
; CHECK-NEXT:    [[C:%.*]] = add i32 %a, 2
; CHECK-NEXT:    store volatile i32 [[C]], ptr
; CHECK-NEXT:    %spinelprof.slot5 = getelementptr inbounds ptr, ptr %spinelprof.slot, i32 1
; CHECK-NEXT:    %spinelprof.next6 = add i32 %a, 2
; CHECK-NEXT:    store volatile ptr @desc2, ptr %spinelprof.slot5
; CHECK-NEXT:    store volatile i32 %spinelprof.next6, ptr
; CHECK-NEXT:    call void @work()

; Pops in a row, then a pop that stays (`return Node.new(...)`): every
; store before the last is one of a higher depth; all but the last go.
define void @pops_then_pop() {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  %c = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %c)
  call void @__spinelprof_marker_pop(i32 %b)
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @pops_then_pop(
; CHECK:         call void @work()
; CHECK-NEXT:    store volatile i32 %a, ptr
; CHECK-NEXT:    ret void

; A push's depth store goes where the push right above it, nested in its
; frame, follows within two of the program's instructions (counted to the
; depth store that stays): that push's depth publishes both slots, and a
; sample between sees neither frame, a stack some path has (`Node.new`'s
; frame, then sp_gc_alloc's around its call).
define void @push_then_push(i32 %x) {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %y = add i32 %x, 1
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  %z = mul i32 %y, 3
  %c = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %c)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %b)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @push_then_push(
; CHECK:         [[LOADED2:%spinelprof.loaded[0-9]*]] = load i32, ptr
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED2]], 4097
; CHECK-NEXT:    %a = select i1 {{%.*}}, i32 [[LOADED2]], i32 4097
; CHECK-NOT:     store volatile i32
; CHECK:         store volatile <2 x i64> %spinelprof.pair, ptr %spinelprof.slot,
; CHECK-NOT:     store volatile
; CHECK:         store volatile ptr @desc, ptr %spinelprof.slot3,
; CHECK-NEXT:    store volatile i32 %spinelprof.next4, ptr
; CHECK-NEXT:    call void @work()

; Kept: three instructions to the push above (a frame would be missing
; from the stack for the program's own work), or a call between.
define void @push_then_push_kept(i32 %x, i1 %c) {
entry:
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %y = add i32 %x, 1
  %z = mul i32 %y, 3
  %w = sub i32 %z, %x
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  %d = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %d)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %b)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @push_then_push_kept(
; CHECK:         store volatile ptr @desc, ptr %spinelprof.slot,
; CHECK-NEXT:    store volatile i32 %spinelprof.next, ptr
; CHECK:         store volatile ptr @desc, ptr %spinelprof.slot1,
; CHECK-NEXT:    store volatile i32 %spinelprof.next2, ptr
; CHECK-NEXT:    call void @work()
; CHECK:         store volatile ptr @desc, ptr %spinelprof.slot3,
; CHECK-NEXT:    store volatile i32 %spinelprof.next4, ptr
; CHECK-NEXT:    call void @work()

; A two-step chain counts the work of both steps: 1 + 2 is too much for
; the first push, the second's 2 is not.
define void @push_chain_budget(i32 %x) {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  %y = add i32 %x, 1
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  %z = mul i32 %y, 3
  %w = sub i32 %z, %x
  %c = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %c)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %b)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @push_chain_budget(
; CHECK:         store volatile <2 x i64> %spinelprof.pair, ptr %spinelprof.slot,
; CHECK-NEXT:    store volatile i32 %spinelprof.next, ptr
; CHECK-NOT:     store volatile
; CHECK:         store volatile ptr @desc, ptr %spinelprof.slot3,
; CHECK-NEXT:    store volatile i32 %spinelprof.next4, ptr

; `b = rs.vdot(d); c = rs.vdot(rs)` inlined: the first frame's pop goes
; (the second pushes in its slot), and the second, the same descriptor in
; the same slot, stores nothing: the slot and the depth are as the first
; left them (SupersededPops.h, repeatedPushes).
define void @repeated(i32 %x) {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  %b = call i32 @__spinelprof_marker_push(ptr @desc2)
  %y = add i32 %x, 1
  call void @__spinelprof_marker_pop(i32 %b)
  %c = call i32 @__spinelprof_marker_push(ptr @desc2)
  %z = mul i32 %y, 3
  call void @__spinelprof_marker_pop(i32 %c)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @repeated(
; CHECK:         call void @work()
; CHECK-NEXT:    [[SLOT:%.*]] = getelementptr inbounds ptr, ptr %spinelprof.slot, i32 1
; CHECK-NEXT:    [[NEXT:%.*]] = add i32 %a, 2
; CHECK-NEXT:    store volatile ptr @desc2, ptr [[SLOT]]
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr
; CHECK-NEXT:    %y = add i32 %x, 1
; CHECK-NEXT:    %z = mul i32 %y, 3
; CHECK-NEXT:    [[B:%.*]] = add i32 %a, 1
; CHECK-NEXT:    store volatile i32 [[B]], ptr
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 %a, ptr
; CHECK-NEXT:    ret void

; Stored again where the first frame's pop stays (a call between) or
; where another path reaches the push (the slot may hold anything there).
define void @repeated_kept(i1 %p) {
entry:
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  %b = call i32 @__spinelprof_marker_push(ptr @desc2)
  call void @__spinelprof_marker_pop(i32 %b)
  call void @work()
  %c = call i32 @__spinelprof_marker_push(ptr @desc2)
  call void @__spinelprof_marker_pop(i32 %c)
  call void @work()
  br i1 %p, label %left, label %join
left:
  %d = call i32 @__spinelprof_marker_push(ptr @desc2)
  call void @__spinelprof_marker_pop(i32 %d)
  br label %join
join:
  %e = call i32 @__spinelprof_marker_push(ptr @desc2)
  call void @__spinelprof_marker_pop(i32 %e)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @repeated_kept(
; CHECK:         call void @work()
; CHECK:         store volatile ptr @desc2, ptr
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr
; CHECK:         store volatile i32 {{%.*}}, ptr
; CHECK-NEXT:    call void @work()
; CHECK:         store volatile ptr @desc2, ptr
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr
; CHECK:       left:
; CHECK:         store volatile ptr @desc2, ptr
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr
; CHECK:       join:
; CHECK:         store volatile ptr @desc2, ptr
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr
