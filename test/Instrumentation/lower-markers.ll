; spinelprof-lower-markers on its own: the address of the thread's stack is
; computed once per function, where it dominates every marker (not at the
; entry of a function that pushes only on a branch) and out of loops; a pop
; takes whatever depth it is given (a phi of two pushes' depths, as the
; optimizer may leave it); markers in unreachable code go; a function
; whose effects were the markers' is no longer `nosync` and may write other
; memory (the volatile stores); the declarations go.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-lower-markers,spinelprof-lower-markers -S %s | FileCheck %s

declare i32 @__spinelprof_marker_push(ptr) #0
declare void @__spinelprof_marker_pop(i32) #0
declare void @__spinelprof_marker_repush(ptr, i32) #0
declare void @work()
@desc = private constant i32 0

; CHECK-NOT: declare {{.*}}@__spinelprof_marker

; CHECK-LABEL: define void @in_branch(i1 %c)
; CHECK-SAME:    #[[WIDE:[0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    br i1 %c, label %then, label %done
; CHECK:       then:
; CHECK-NEXT:    [[STACK:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_stack)
; CHECK:         [[LOADED1:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED1]], 4097
; CHECK-NEXT:    %d = select i1 {{%.*}}, i32 [[LOADED1]], i32 4097
; CHECK:         store volatile ptr @desc, ptr
; CHECK:         store volatile i32 %d, ptr [[STACK]], align 4
; CHECK-NEXT:    br label %done
define void @in_branch(i1 %c) #1 {
entry:
  call void @work()
  br i1 %c, label %then, label %done
then:
  %d = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %d)
  br label %done
done:
  ret void
}

; CHECK-LABEL: define void @in_loop(i64 %n)
; CHECK-SAME:    #[[WIDE]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[STACK:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_stack)
; CHECK:         br label %loop
; CHECK:       loop:
; CHECK-NOT:     threadlocal.address
; CHECK:         [[LOADED2:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED2]], 4097
; CHECK-NEXT:    %d = select i1 {{%.*}}, i32 [[LOADED2]], i32 4097
; CHECK:         store volatile ptr @desc, ptr
; CHECK:         call void @work()
; CHECK-NEXT:    store volatile i32 %d, ptr [[STACK]], align 4
define void @in_loop(i64 %n) #1 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %d = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @work()
  call void @__spinelprof_marker_pop(i32 %d)
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret void
}

; CHECK-LABEL: define void @merged(i1 %c) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[STACK:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_stack)
; CHECK:         br i1 %c, label %a, label %b
; CHECK:       a:
; CHECK-NEXT:    [[LOADED3:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED3]], 4097
; CHECK-NEXT:    %da = select i1 {{%.*}}, i32 [[LOADED3]], i32 4097
; CHECK:       b:
; CHECK-NEXT:    [[LOADED4:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED4]], 4097
; CHECK-NEXT:    %db = select i1 {{%.*}}, i32 [[LOADED4]], i32 4097
; CHECK:       join:
; CHECK-NEXT:    %d = phi i32 [ %da, %a ], [ %db, %b ]
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 %d, ptr [[STACK]], align 4
; CHECK-NEXT:    ret void
; CHECK:       dead:
; CHECK-NEXT:    ret void
define void @merged(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %da = call i32 @__spinelprof_marker_push(ptr @desc)
  br label %join
b:
  %db = call i32 @__spinelprof_marker_push(ptr @desc)
  br label %join
join:
  %d = phi i32 [ %da, %a ], [ %db, %b ]
  call void @work()
  call void @__spinelprof_marker_pop(i32 %d)
  ret void
dead:
  %dd = call i32 @__spinelprof_marker_push(ptr @desc)
  call void @__spinelprof_marker_pop(i32 %dd)
  ret void
}

attributes #0 = { nocallback nofree nomerge nosync nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #1 = { nosync nounwind memory(inaccessiblemem: readwrite) }
; CHECK: attributes #[[WIDE]] = { nounwind memory(readwrite, argmem: none{{.*}}) }
