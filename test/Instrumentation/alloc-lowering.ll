; The allocation-site markers lowered (abi.h's countdown: the size counted
; down in the thread's countdown; below zero, the runtime called with the
; "alloc TYPE" descriptor), where the call after the marker says:
; - a marked call of an allocator defined in this module goes to a copy of
;   it that takes the descriptor as one more argument and counts its size
;   argument down at its entry. From a caller of few pushes (all here;
;   alloc-copy-frame.ll has the rest) the copy is
;   ALLOCATOR.spinelprof_site_frameless: the allocator's own frame moves
;   out of it to its calls, pushed before each (nested in the caller's
;   frame: no load) and popped after; around the runtime's call the copy
;   takes it off again, so the runtime sees the caller's frames. One such
;   copy per allocator; an external allocator stays as it was, an internal
;   one whose calls all moved is dropped;
; - a call of a declared function goes to a wrapper,
;   FUNCTION.spinelprof_site(args..., size, type), that counts down and
;   tail-calls it;
; so the countdown's blocks are compiled once per allocator, not once per
; (inlined) call. Argument and result attributes, calling convention and
; tail kind are kept. Idempotent.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc-markers,spinelprof-markers,spinelprof-lower-alloc,spinelprof-lower-markers -S < %s > %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=GONE < %t.ll
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc -S < %t.ll > %t.again.ll
; RUN: %opt -S < %t.ll > %t.reread.ll
; RUN: diff %t.reread.ll %t.again.ll
;
; Elsewhere, in place of the marker: where its size is not the defined
; allocator's size argument (the marking pass makes none; a transformation
; could), where no call follows it in its block, and where that call
; passes an argument in memory (byval, sret, ...). A wrapper keeps its
; callee's parameter and result attributes.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-alloc -S < %S/Inputs/alloc-in-place.ll | FileCheck %s --check-prefix=IN-PLACE
; IN-PLACE: @__spinelprof_alloc_countdown = external thread_local(localexec) global i64, align 8
; IN-PLACE-LABEL: define ptr @sp_Foo_new(
; IN-PLACE-NEXT: [[A:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_alloc_countdown)
; IN-PLACE-NEXT: [[C:%.*]] = load i64, ptr [[A]], align 8
; IN-PLACE-NEXT: [[L:%.*]] = sub i64 [[C]], %n
; IN-PLACE-NEXT: store i64 [[L]], ptr [[A]], align 8
; IN-PLACE-NEXT: [[S:%.*]] = icmp slt i64 [[L]], 0
; IN-PLACE-NEXT: br i1 [[S]], label %[[SAMPLE:.*]], label %[[CALL:.*]], !prof [[UNLIKELY:![0-9]+]]
; IN-PLACE: [[SAMPLE]]:
; IN-PLACE-NEXT: call void @__spinelprof_alloc_sample(i64 %n, ptr @T) [[COLD:#[0-9]+]]
; IN-PLACE-NEXT: br label %[[CALL]]
; IN-PLACE: [[CALL]]:
; IN-PLACE-NEXT: %p = call ptr @sp_gc_alloc(i64 %m, ptr null, ptr null), !spinelprof.alloc
; IN-PLACE-LABEL: define ptr @sp_branchy(
; IN-PLACE: call void @__spinelprof_alloc_sample(i64 8, ptr @T)
; IN-PLACE: call ptr @malloc(i64 8){{$}}
; IN-PLACE-LABEL: define ptr @sp_by_value(
; IN-PLACE: call void @__spinelprof_alloc_sample(i64 16, ptr @T)
; IN-PLACE: call ptr @from_struct(ptr byval(%struct.S) %s)
; IN-PLACE-LABEL: define i8 @sp_narrow(
; IN-PLACE-NEXT: %r = call zeroext i8 @narrow.spinelprof_site(i8 zeroext %b, i64 1, ptr @T)
; IN-PLACE-NOT: spinelprof_site(
; IN-PLACE: declare void @__spinelprof_alloc_sample(i64, ptr) local_unnamed_addr [[COLDFN:#[0-9]+]]
; IN-PLACE: define internal zeroext i8 @narrow.spinelprof_site(i8 zeroext %0, i64 %spinelprof.size, ptr %spinelprof.type)
; IN-PLACE: tail call zeroext i8 @narrow(i8 zeroext %0)
; IN-PLACE: attributes [[COLDFN]] = { cold nounwind }
; IN-PLACE: attributes [[COLD]] = { cold }
; IN-PLACE: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 100000}

declare ptr @calloc(i64, i64)
declare ptr @malloc(i64)
declare ptr @realloc(ptr, i64)

define internal void @sp_Foo_gc_scan(ptr %p) {
  ret void
}

; CHECK-DAG: [[NAME_PAIR:@__spinelprof_slot_pair[.0-9]*]] = private unnamed_addr constant [2 x ptr] [ptr @__spinelprof_desc.sp_pair_and_name, ptr @__spinelprof_desc.sp_gc_alloc], align 16
; CHECK-DAG: [[FOO_PAIR:@__spinelprof_slot_pair[.0-9]*]] = private unnamed_addr constant [2 x ptr] [ptr @__spinelprof_desc.sp_Foo_new, ptr @__spinelprof_desc.sp_gc_alloc], align 16
; CHECK-LABEL: define ptr @sp_gc_alloc(i64 %size, ptr %fin, ptr %scan)
; CHECK-NOT: __spinelprof_alloc_countdown
; CHECK: call ptr @calloc(i64 1, i64 %size){{$}}
; CHECK: ret ptr
define ptr @sp_gc_alloc(i64 %size, ptr %fin, ptr %scan) {
  %p = call ptr @calloc(i64 1, i64 %size)
  ret ptr %p
}

; GONE-NOT: @sp_str_alloc(
define internal fastcc ptr @sp_str_alloc(i64 %len) noinline {
  %p = call ptr @malloc(i64 %len)
  ret ptr %p
}

; Foo.new's slot and sp_gc_alloc's above it in one store of the pair.
; CHECK-LABEL: define ptr @sp_Foo_new(
; CHECK-NOT: __spinelprof_alloc_countdown
; CHECK: %spinelprof.pair = load <2 x i64>, ptr [[FOO_PAIR]], align 16
; CHECK-NEXT: store volatile <2 x i64> %spinelprof.pair, ptr %spinelprof.slot,
; CHECK-NEXT: [[NEXT:%.*]] = add i32 %spinelprof.depth, 2
; CHECK-NEXT: store volatile i32 [[NEXT]], ptr %spinelprof.stack,
; CHECK-NEXT: %p = call noalias ptr @sp_gc_alloc.spinelprof_site_frameless(i64 16, ptr null, ptr @sp_Foo_gc_scan, ptr @__spinelprof_alloc_type.Foo), !spinelprof.alloc
; CHECK-NEXT: store volatile i32 %spinelprof.depth, ptr %spinelprof.stack,
; CHECK-NEXT: ret ptr %p
define ptr @sp_Foo_new() {
  %p = call noalias ptr @sp_gc_alloc(i64 16, ptr null, ptr @sp_Foo_gc_scan)
  ret ptr %p
}

; Each call pushes its allocator's frame; sp_gc_alloc's pop is left out
; where sp_str_alloc's push stores the same slot (SupersededPops.h). The
; function's own slot and sp_gc_alloc's: one store.
; CHECK-LABEL: define ptr @sp_pair_and_name(
; CHECK: %spinelprof.pair = load <2 x i64>, ptr [[NAME_PAIR]], align 16
; CHECK-NEXT: store volatile <2 x i64> %spinelprof.pair, ptr %spinelprof.slot,
; CHECK-NEXT: add i32
; CHECK-NEXT: store volatile i32
; CHECK-NEXT: call ptr @sp_gc_alloc.spinelprof_site_frameless(i64 32, ptr null, ptr null, ptr @"__spinelprof_alloc_type.[object]")
; CHECK-NOT: store volatile i32 %spinelprof.depth,
; CHECK: store volatile ptr @__spinelprof_desc.sp_str_alloc,
; CHECK-NEXT: store volatile i32
; CHECK-NEXT: %s = tail call fastcc ptr @sp_str_alloc.spinelprof_site_frameless(i64 %n, ptr @__spinelprof_alloc_type.String)
; CHECK-NEXT: store volatile i32 %spinelprof.depth, ptr %spinelprof.stack,
; CHECK-NOT: __spinelprof_alloc_countdown
; CHECK: ret ptr %s
define ptr @sp_pair_and_name(i64 %n) {
  %p = call ptr @sp_gc_alloc(i64 32, ptr null, ptr null)
  %s = tail call fastcc ptr @sp_str_alloc(i64 %n)
  ret ptr %s
}

; libc's allocators: to their wrappers, with the size the marker counted.
; CHECK-LABEL: define ptr @sp_buffers(
; CHECK: %a = call noalias ptr @malloc.spinelprof_site(i64 100, i64 100, ptr @"__spinelprof_alloc_type.[malloc]") [[NOUNWIND:#[0-9]+]], !spinelprof.alloc
; CHECK: [[SIZE:%.*]] = mul i64 %n, 8
; CHECK-NEXT: %b = call ptr @calloc.spinelprof_site(i64 %n, i64 8, i64 [[SIZE]], ptr @"__spinelprof_alloc_type.[calloc]"), !spinelprof.alloc
; CHECK-NEXT: %c = call ptr @realloc.spinelprof_site(ptr %old, i64 %n, i64 %n, ptr @"__spinelprof_alloc_type.[realloc]"), !spinelprof.alloc
; CHECK-NOT: __spinelprof_alloc_countdown
; CHECK: ret ptr %c
define ptr @sp_buffers(i64 %n, ptr %old) {
  %a = call noalias ptr @malloc(i64 100) nounwind
  %b = call ptr @calloc(i64 %n, i64 8)
  %c = call ptr @realloc(ptr %old, i64 %n)
  ret ptr %c
}

; The copy: the countdown, its runtime call outside the frame its caller
; pushed, then the allocator's body without its frame; its own calloc is
; part of the allocation and stays unmarked.
; CHECK-LABEL: define internal ptr @sp_gc_alloc.spinelprof_site_frameless(i64 %size, ptr %fin, ptr %scan, ptr %spinelprof.type)
; CHECK-NEXT: [[A:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_alloc_countdown)
; CHECK-NEXT: [[C:%.*]] = load i64, ptr [[A]], align 8
; CHECK-NEXT: [[L:%.*]] = sub i64 [[C]], %size
; CHECK-NEXT: store i64 [[L]], ptr [[A]], align 8
; CHECK-NEXT: [[S:%.*]] = icmp slt i64 [[L]], 0
; CHECK-NEXT: br i1 [[S]], label %[[SAMPLE:.*]], label %[[BODY:.*]], !prof
; CHECK: [[SAMPLE]]:
; CHECK-NEXT: [[STACK:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_stack)
; CHECK-NEXT: [[D:%.*]] = load volatile i32, ptr [[STACK]], align 4
; CHECK-NEXT: [[OFF:%.*]] = sub i32 [[D]], 1
; CHECK-NEXT: store volatile i32 [[OFF]], ptr [[STACK]], align 4
; CHECK-NEXT: call void @__spinelprof_alloc_sample(i64 %size, ptr %spinelprof.type) [[COLD:#[0-9]+]]
; CHECK-NEXT: store volatile i32 [[D]], ptr [[STACK]], align 4
; CHECK-NEXT: br label %[[BODY]]
; CHECK: [[BODY]]:
; CHECK-NEXT: %p = call ptr @calloc(i64 1, i64 %size){{$}}
; CHECK-NEXT: ret ptr %p

; CHECK-LABEL: define internal fastcc ptr @sp_str_alloc.spinelprof_site_frameless(i64 %len, ptr %spinelprof.type)
; CHECK: call void @__spinelprof_alloc_sample(i64 %len, ptr %spinelprof.type)
; CHECK-NOT: __spinelprof_desc
; CHECK: call ptr @malloc(i64 %len){{$}}

; The wrappers: the countdown, then the function with the arguments.
; CHECK-LABEL: define internal ptr @malloc.spinelprof_site(i64 %0, i64 %spinelprof.size, ptr %spinelprof.type)
; CHECK-NEXT: [[A:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_alloc_countdown)
; CHECK-NEXT: [[C:%.*]] = load i64, ptr [[A]], align 8
; CHECK-NEXT: [[L:%.*]] = sub i64 [[C]], %spinelprof.size
; CHECK-NEXT: store i64 [[L]], ptr [[A]], align 8
; CHECK-NEXT: [[S:%.*]] = icmp slt i64 [[L]], 0
; CHECK-NEXT: br i1 [[S]], label %[[SAMPLE:.*]], label %[[CALL:.*]], !prof
; CHECK: [[SAMPLE]]:
; CHECK-NEXT: call void @__spinelprof_alloc_sample(i64 %spinelprof.size, ptr %spinelprof.type) [[COLD]]
; CHECK-NEXT: br label %[[CALL]]
; CHECK: [[CALL]]:
; CHECK-NEXT: [[R:%.*]] = tail call ptr @malloc(i64 %0)
; CHECK-NEXT: ret ptr [[R]]
; CHECK-LABEL: define internal ptr @calloc.spinelprof_site(i64 %0, i64 %1, i64 %spinelprof.size, ptr %spinelprof.type)
; CHECK: tail call ptr @calloc(i64 %0, i64 %1)
; CHECK-LABEL: define internal ptr @realloc.spinelprof_site(ptr %0, i64 %1, i64 %spinelprof.size, ptr %spinelprof.type)
; CHECK: tail call ptr @realloc(ptr %0, i64 %1)

; CHECK-NOT: spinelprof_site(
; CHECK: attributes [[NOUNWIND]] = { nounwind }
; CHECK: attributes [[COLD]] = { cold }
