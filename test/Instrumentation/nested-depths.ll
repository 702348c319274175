; A push nested inside another frame of the same function (an inlined
; callee's) stores at that frame's slot + its level and sets the depth to
; that frame's depth + level + 1: no load of the depth, no clamp. Where the
; paths to a push disagree on the frames open above the function's (a join
; of different states, a second return from setjmp, a landing pad), or the
; level reaches SPINELPROF_STACK_SINK_SLOTS - 1 (15: a root's depth
; saturates at the first sink slot), the push loads the depth.
; In a function of more than 64 pushes (StaticDepths.h) a push stands only
; on a frame pushed or popped in its own block, and a pop counts down.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S %s | FileCheck %s
; RUN: %python %S/Inputs/nested_pushes.py 64 \
; RUN:   | %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S \
; RUN:   | FileCheck %s --check-prefix=AT64
; RUN: %python %S/Inputs/nested_pushes.py 65 \
; RUN:   | %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S \
; RUN:   | FileCheck %s --check-prefix=OVER64
; RUN: %python %S/Inputs/nested_pushes.py 64 siblings \
; RUN:   | %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S \
; RUN:   | FileCheck %s --check-prefix=SIB64
; RUN: %python %S/Inputs/nested_pushes.py 65 siblings \
; RUN:   | %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S \
; RUN:   | FileCheck %s --check-prefix=SIB65
; 64 nested pushes: levels 0, 15, 30, 45 and 60 load.
; AT64-COUNT-5: load i32
; AT64-NOT:     load i32
; 65 in one block: the pushes at levels 0, 15, 30, 45 and 60 load, and
; each of the 65 pops.
; OVER64-COUNT-70: load i32
; OVER64-NOT:      load i32
; 64 frames one after another, in blocks of their own: each stands in the
; first one's place.
; SIB64-COUNT-1: load i32
; SIB64-NOT:     load i32
; 65: each push loads, and each pop counts down.
; SIB65:      b1:
; SIB65-NEXT:   [[LOADED1:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%spinelprof.stack]], align 4
; SIB65-NEXT:    {{%.*}} = icmp ult i32 [[LOADED1]], 4097
; SIB65-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED1]], i32 4097
; SIB65:        store volatile i32 {{%.*}}, ptr [[STACK]]
; SIB65-NEXT:   call void @work()
; SIB65-NEXT:   [[E:%.*]] = load i32, ptr [[STACK]], align 4
; SIB65-NEXT:   [[F:%.*]] = sub i32 [[E]], 1
; SIB65-NEXT:   store volatile i32 [[F]], ptr [[STACK]]
; SIB65-NEXT:   br label %b2

@desc = private constant i8 0
@desc2 = private constant i8 0

declare i32 @__spinelprof_marker_push(ptr)
declare void @__spinelprof_marker_pop(i32)
declare void @__spinelprof_marker_repush(ptr, i32)
declare i32 @setjmp(ptr) returns_twice
declare void @work()
declare i32 @__gxx_personality_v0(...)

; Three frames, each inside the one before (each calls before the next
; is pushed: a push right above another stores the depth for both,
; superseded-pops.ll).
define void @nested() {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  %c = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %c)
  call void @__spinelprof_marker_pop(i32 %b)
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @nested()
; CHECK:         [[LOADED3:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED3]], 4097
; CHECK-NEXT:    [[A:%.*]] = select i1 {{%.*}}, i32 [[LOADED3]], i32 4097
; CHECK:         [[SLOT:%.*]] = getelementptr inbounds {{.*}}, ptr [[STACK]], i64 0, i32 2, i64
; CHECK:         [[B:%.*]] = add i32 [[A]], 1
; CHECK:         store volatile ptr @desc, ptr [[SLOT]]
; CHECK-NEXT:    store volatile i32 [[B]], ptr [[STACK]]
; CHECK-NOT:     load
; CHECK:         [[SLOTB:%.*]] = getelementptr inbounds ptr, ptr [[SLOT]], i32 1
; CHECK-NEXT:    [[NEXTB:%.*]] = add i32 [[A]], 2
; CHECK-NEXT:    store volatile ptr @desc, ptr [[SLOTB]]
; CHECK-NEXT:    store volatile i32 [[NEXTB]], ptr [[STACK]]
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    [[SLOTC:%.*]] = getelementptr inbounds ptr, ptr [[SLOT]], i32 2
; CHECK-NEXT:    [[NEXTC:%.*]] = add i32 [[A]], 3
; CHECK-NEXT:    store volatile ptr @desc, ptr [[SLOTC]]
; CHECK-NEXT:    store volatile i32 [[NEXTC]], ptr [[STACK]]
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 [[A]], ptr [[STACK]]
; CHECK-NEXT:    ret void

; A nested frame's pop adds its level to the root's depth where it stands,
; after the call: a depth computed at the push and kept for the pop would
; hold a callee-saved register across the calls between (bm_gcbench's
; make_tree: `Node.new`'s frame around sp_gc_alloc's).
define void @pop_after_call() {
  %a = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  %b = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  %c = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %c)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %b)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %a)
  ret void
}
; CHECK-LABEL: define void @pop_after_call()
; CHECK:         [[LOADED4:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED4]], 4097
; CHECK-NEXT:    [[A:%.*]] = select i1 {{%.*}}, i32 [[LOADED4]], i32 4097
; CHECK-NOT:     add i32 [[A]], 2
; CHECK:         [[NEXTB:%.*]] = add i32 [[A]], 2
; CHECK-NEXT:    store volatile ptr @desc
; CHECK-NEXT:    store volatile i32 [[NEXTB]], ptr [[STACK]]
; CHECK-NEXT:    call void @work()
; CHECK-NOT:     add i32 [[A]], 2
; CHECK:         call void @work()
; CHECK-NEXT:    [[POPC:%.*]] = add i32 [[A]], 2
; CHECK-NEXT:    store volatile i32 [[POPC]], ptr [[STACK]]
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    [[POPB:%.*]] = add i32 [[A]], 1
; CHECK-NEXT:    store volatile i32 [[POPB]], ptr [[STACK]]
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 [[A]], ptr [[STACK]]
; CHECK-NEXT:    ret void

; No frame of its own: the second inlined callee takes the first's slot
; (and the first's pop, whose store the second's push replaces, is dropped:
; superseded-pops.ll).
define void @siblings() {
  %x = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %x)
  %y = call i32 @__spinelprof_marker_push(ptr @desc2)
  call void @__spinelprof_marker_pop(i32 %y)
  ret void
}
; CHECK-LABEL: define void @siblings()
; CHECK:         [[LOADED5:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED5]], 4097
; CHECK-NEXT:    [[X:%.*]] = select i1 {{%.*}}, i32 [[LOADED5]], i32 4097
; CHECK:         [[SLOT:%.*]] = getelementptr inbounds
; CHECK:         store volatile ptr @desc, ptr [[SLOT]]
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr [[STACK]]
; CHECK-NOT:     load
; CHECK:         store volatile ptr @desc2, ptr [[SLOT]]
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr [[STACK]]
; CHECK-NEXT:    store volatile i32 [[X]], ptr [[STACK]]
; CHECK-NEXT:    ret void

; One path leaves a frame open at the join: the push after it loads.
define void @join(i1 %c) {
entry:
  %r = call i32 @__spinelprof_marker_push(ptr @desc)
  br i1 %c, label %open, label %join
open:
  %o = call i32 @__spinelprof_marker_push(ptr @desc)
  br label %join
join:
  %j = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %j)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @join(
; CHECK:       open:
; CHECK-NOT:     load
; CHECK:       join:
; CHECK-NEXT:    [[LOADED6:%spinelprof.loaded[0-9]*]] = load i32, ptr
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED6]], 4097
; CHECK-NEXT:    [[J:%.*]] = select i1 {{%.*}}, i32 [[LOADED6]], i32 4097
; CHECK:         store volatile i32 [[J]], ptr

; The optimizer duplicated an inlined callee's push onto both paths to a
; join (jump threading, tail duplication; bm_ao_render's Vec#vnormalize):
; its pop takes a phi of the copies, which stand at one place, so the pop
; stores the root's depth + 1 and the push after it stands on the root
; too (no load; the phi goes).
define void @duplicated(i1 %c) {
entry:
  %r = call i32 @__spinelprof_marker_push(ptr @desc)
  br i1 %c, label %l, label %m
l:
  %x = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  br label %j
m:
  %y = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  br label %j
j:
  %p = phi i32 [ %x, %l ], [ %y, %m ]
  call void @work()
  call void @__spinelprof_marker_pop(i32 %p)
  call void @work()
  %n = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %n)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @duplicated(
; CHECK:         [[LOADED7:%spinelprof.loaded[0-9]*]] = load i32, ptr
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED7]], 4097
; CHECK-NEXT:    [[R:%r]] = select i1 {{%.*}}, i32 [[LOADED7]], i32 4097
; CHECK:         [[SLOT:%spinelprof.slot]] = getelementptr inbounds {{.*}} i32 2, i64
; CHECK-NOT:     load i32
; CHECK-NOT:     phi
; CHECK:       j:
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    [[POP:%.*]] = add i32 [[R]], 1
; CHECK-NEXT:    store volatile i32 [[POP]], ptr
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    [[NSLOT:%.*]] = getelementptr inbounds ptr, ptr [[SLOT]], i32 1
; CHECK-NEXT:    [[NNEXT:%.*]] = add i32 [[R]], 2
; CHECK-NEXT:    store volatile ptr @desc, ptr [[NSLOT]]
; CHECK-NEXT:    store volatile i32 [[NNEXT]], ptr
; CHECK-NOT:     load i32
; CHECK:         ret void

; The same two levels up: the copies' depths (root + 2) were used by the
; phi alone; the phi goes, then they do (the plugin once deleted them
; with the phi and then again: a crash).
define void @duplicated_level2(i1 %c) {
entry:
  %r = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  %o = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  br i1 %c, label %l, label %m
l:
  %x = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  br label %j
m:
  %y = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  br label %j
j:
  %p = phi i32 [ %x, %l ], [ %y, %m ]
  call void @work()
  call void @__spinelprof_marker_pop(i32 %p)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %o)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @duplicated_level2(
; CHECK-NOT:     phi
; CHECK:       l:
; CHECK-NOT:     add i32 %r, 2
; CHECK:         br label %j
; CHECK:       m:
; CHECK-NOT:     add i32 %r, 2
; CHECK:         br label %j
; CHECK:       j:
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    [[POP:%.*]] = add i32 %r, 2
; CHECK-NEXT:    store volatile i32 [[POP]], ptr
; CHECK-NOT:     add i32 %r, 2
; CHECK:         ret void

; Pushes that stand at different places (levels 1 and 2): the pop stores
; the phi, and the push after it loads.
define void @duplicated_apart(i1 %c) {
entry:
  %r = call i32 @__spinelprof_marker_push(ptr @desc)
  br i1 %c, label %l, label %m
l:
  %x = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  br label %j
m:
  %o = call i32 @__spinelprof_marker_push(ptr @desc)
  %y = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  br label %j
j:
  %p = phi i32 [ %x, %l ], [ %y, %m ]
  call void @work()
  call void @__spinelprof_marker_pop(i32 %p)
  %n = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %n)
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @duplicated_apart(
; CHECK:       j:
; CHECK-NEXT:    %p = phi i32
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 %p, ptr
; CHECK-NEXT:    [[LOADED8:%spinelprof.loaded[0-9]*]] = load i32, ptr
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED8]], 4097
; CHECK-NEXT:    %n = select i1 {{%.*}}, i32 [[LOADED8]], i32 4097

; After setjmp the depth is what a longjmp left, until the re-push sets it:
; a push after the re-push stands on the frame; one after a bare
; returns_twice call loads.
define void @rescue(ptr %buf) {
  %r = call i32 @__spinelprof_marker_push(ptr @desc)
  %s = call i32 @setjmp(ptr %buf)
  call void @__spinelprof_marker_repush(ptr @desc, i32 %r)
  %x = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %x)
  %t = call i32 @setjmp(ptr %buf)
  %y = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %y)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
}
; CHECK-LABEL: define void @rescue(
; CHECK:         [[LOADED9:%spinelprof.loaded[0-9]*]] = load i32, ptr
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED9]], 4097
; CHECK-NEXT:    [[R:%.*]] = select i1 {{%.*}}, i32 [[LOADED9]], i32 4097
; CHECK:         call i32 @setjmp(
; CHECK-NOT:     load
; CHECK:         call i32 @setjmp(
; CHECK-NEXT:    [[LOADED10:%spinelprof.loaded[0-9]*]] = load i32, ptr
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED10]], 4097
; CHECK-NEXT:    [[Y:%.*]] = select i1 {{%.*}}, i32 [[LOADED10]], i32 4097
; CHECK:         store volatile i32 [[Y]], ptr
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 [[R]], ptr

; An exception's landing pad comes with the depth the callees left.
define void @unwind() personality ptr @__gxx_personality_v0 {
entry:
  %r = call i32 @__spinelprof_marker_push(ptr @desc)
  invoke void @work() to label %done unwind label %pad
done:
  call void @__spinelprof_marker_pop(i32 %r)
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  %p = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %p)
  call void @__spinelprof_marker_pop(i32 %r)
  resume { ptr, i32 } %lp
}
; CHECK-LABEL: define void @unwind(
; CHECK:       pad:
; CHECK-NEXT:    landingpad
; CHECK-NEXT:    cleanup
; CHECK-NEXT:    [[LOADED11:%spinelprof.loaded[0-9]*]] = load i32, ptr
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED11]], 4097
; CHECK-NEXT:    [[P:%.*]] = select i1 {{%.*}}, i32 [[LOADED11]], i32 4097

; Levels 1 to 14 stand on the root (each pair of slots one store: 12
; and 13 the last, 14 alone); level 15 would pass the sink slots after a
; root in the first sink slot (its depth saturates there), so the 16th
; frame loads and the 17th and 18th stand on it.
define void @deep() {
  %d0 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d1 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d2 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d3 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d4 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d5 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d6 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d7 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d8 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d9 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d10 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d11 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d12 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d13 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d14 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d15 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d16 = call i32 @__spinelprof_marker_push(ptr @desc)
  %d17 = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %d17)
  call void @__spinelprof_marker_pop(i32 %d16)
  call void @__spinelprof_marker_pop(i32 %d15)
  call void @__spinelprof_marker_pop(i32 %d14)
  call void @__spinelprof_marker_pop(i32 %d13)
  call void @__spinelprof_marker_pop(i32 %d12)
  call void @__spinelprof_marker_pop(i32 %d11)
  call void @__spinelprof_marker_pop(i32 %d10)
  call void @__spinelprof_marker_pop(i32 %d9)
  call void @__spinelprof_marker_pop(i32 %d8)
  call void @__spinelprof_marker_pop(i32 %d7)
  call void @__spinelprof_marker_pop(i32 %d6)
  call void @__spinelprof_marker_pop(i32 %d5)
  call void @__spinelprof_marker_pop(i32 %d4)
  call void @__spinelprof_marker_pop(i32 %d3)
  call void @__spinelprof_marker_pop(i32 %d2)
  call void @__spinelprof_marker_pop(i32 %d1)
  call void @__spinelprof_marker_pop(i32 %d0)
  ret void
}
; CHECK-LABEL: define void @deep()
; CHECK:         %d0 = select
; CHECK-NOT:     load i32
; CHECK:         [[SLOT14:%.*]] = getelementptr inbounds ptr, ptr [[SLOT:%.*]], i32 14
; CHECK-NEXT:    add i32 %d0, 15
; CHECK-NEXT:    store volatile ptr @desc, ptr [[SLOT14]]
; CHECK-NOT:     load i32
; CHECK:         load i32
; CHECK-NEXT:    icmp
; CHECK-NEXT:    %d15 = select
; CHECK-NOT:     load i32
; CHECK:         add i32 %d15, 3
; CHECK-NOT:     load i32
; CHECK:         ret void
