; Push at entry (after the static allocas): the slot, then the depth, in
; that order (volatile), and nothing else stored; and before every ret and
; resume a restore of the depth loaded at entry (not a decrement), on the
; thread's own stack (a fiber's frames are copied in and out by the
; runtime, so there is no other).
; (`spinelprof` instruments and lowers the frame markers at once; see
; markers.ll for the IR in between.)
; (-spinelprof-leaf-max-size=0: these tiny leaves would be PC-named by default, see
; policy-pc-named-leaf.ll; here they stand for any pushed frame.)
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-leaf-max-size=0 -S %s | FileCheck %s

; CHECK: @__spinelprof_stack = external thread_local(localexec) global { i32, i32, [4112 x ptr] }, align 8
; CHECK-NOT: __spinelprof_stack_offset

define i32 @two_rets(i32 %x) {
; CHECK-LABEL: define i32 @two_rets(i32 %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca i32, align 4
; CHECK-NEXT:    [[STACK:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_stack)
; The loaded depth saturates one past the capacity (4096): the first sink
; slot, and the depth the pops restore.
; CHECK-NEXT:    [[L:%.*]] = load i32, ptr [[STACK]], align 4, !tbaa [[TBAA:![0-9]+]]
; CHECK-NEXT:    [[OK:%.*]] = icmp ult i32 [[L]], 4097
; CHECK-NEXT:    [[D:%.*]] = select i1 [[OK]], i32 [[L]], i32 4097
; CHECK-NEXT:    [[I64:%.*]] = zext i32 [[D]] to i64
; CHECK-NEXT:    [[SLOT:%.*]] = getelementptr inbounds { i32, i32, [4112 x ptr] }, ptr [[STACK]], i64 0, i32 2, i64 [[I64]]
; CHECK-NEXT:    [[NEXT:%.*]] = add i32 [[D]], 1
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.two_rets, ptr [[SLOT]], align 8, !tbaa [[TBAA]]
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa [[TBAA]]
; CHECK-NEXT:    store i32 %x, ptr %a
; CHECK-NEXT:    %c = icmp sgt i32 %x, 0
; CHECK-NEXT:    br i1 %c, label %pos, label %neg
; CHECK:       pos:
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa [[TBAA]]
; CHECK-NEXT:    ret i32 1
; CHECK:       neg:
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa [[TBAA]]
; CHECK-NEXT:    ret i32 0
entry:
  %a = alloca i32
  store i32 %x, ptr %a
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %pos, label %neg
pos:
  ret i32 1
neg:
  ret i32 0
}

; No call in between: the push and the pop are both there (they are
; volatile, so no later pass may fold them away either).
define void @leaf() {
; CHECK-LABEL: define void @leaf()
; CHECK-NEXT:    [[STACK:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_stack)
; CHECK-NEXT:    [[LOADED2:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED2]], 4097
; CHECK-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED2]], i32 4097
; CHECK:         store volatile ptr @__spinelprof_desc.leaf, ptr
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    ret void
  ret void
}

; An unwinding exit restores the depth too; unreachable is not an exit.
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)
define void @unwinds() personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @unwinds()
; CHECK:         [[LOADED3:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED3]], 4097
; CHECK-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED3]], i32 4097
; CHECK:       ok:
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    ret void
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:    cleanup
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    resume { ptr, i32 } %lp
; CHECK:       dead:
; CHECK-NEXT:    unreachable
entry:
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
dead:
  unreachable
}

; The stack's own TBAA type, under clang's root and char: beside (not
; aliasing) int, long, double and pointer types.
; CHECK: [[TBAA]] = !{[[TYPE:![0-9]+]], [[TYPE]], i64 0}
; CHECK-NEXT: [[TYPE]] = !{!"spinelprof shadow stack", [[CHAR:![0-9]+]], i64 0}
; CHECK-NEXT: [[CHAR]] = !{!"omnipotent char", [[ROOT:![0-9]+]], i64 0}
; CHECK-NEXT: [[ROOT]] = !{!"Simple C/C++ TBAA"}
