; spinelprof-self-tail: in an instrumented function, a call of the function
; itself followed only by register arithmetic, the pop and ret gets the pop
; before it, so that tail-recursion elimination can make it a loop. Other
; calls, and self calls with work after them, keep the pop after them.
; RUN: %opt -load-pass-plugin %plugin -passes='spinelprof-markers,function(spinelprof-self-tail),spinelprof-lower-markers' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin %plugin -passes='spinelprof-markers,function(spinelprof-self-tail,spinelprof-self-tail),spinelprof-lower-markers' -S %s > %t.twice.ll
; RUN: %opt -load-pass-plugin %plugin -passes='spinelprof-markers,function(spinelprof-self-tail),spinelprof-lower-markers' -S %s > %t.once.ll
; RUN: diff %t.once.ll %t.twice.ll
; And in clang's pipeline, tail-recursion elimination then leaves one call.
; RUN: %opt -load-pass-plugin %plugin -passes='spinelprof-markers,function(spinelprof-self-tail,tailcallelim),spinelprof-lower-markers' -S %s | FileCheck %s --check-prefix=TRE
; (-fno-sanitize=all: in a sanitized build the IR is checked without the
; sanitizers' own instrumentation, which would break the tail call.)
; RUN: %clang_prof -fno-sanitize=all -O2 -S -emit-llvm %S/Inputs/self-tail.c -o - | FileCheck %s --check-prefix=CLANG
; CLANG-LABEL: define {{.*}}i64 @sp_fib(
; CLANG:         store volatile ptr @__spinelprof_desc.sp_fib
; CLANG:         call i64 @sp_fib(
; CLANG-NOT:     call i64 @sp_fib(
; CLANG-LABEL: define {{.*}}i64 @sp_ack(
; CLANG:         store volatile ptr @__spinelprof_desc.sp_ack
; CLANG:         call i64 @sp_ack(
; CLANG-NOT:     call i64 @sp_ack(

; fib: the second call is an accumulator tail call, reached through a
; shared return block, which the path gets a copy of.
define i64 @fib(i64 %n) {
; CHECK-LABEL: define i64 @fib(i64 %n)
; CHECK:         [[LOADED1:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED1]], 4097
; CHECK-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED1]], i32 4097
; CHECK:       rec:
; CHECK-NEXT:    %n1 = sub i64 %n, 1
; CHECK-NEXT:    %a = call i64 @fib(i64 %n1)
; CHECK-NEXT:    %n2 = sub i64 %n, 2
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4
; CHECK-NEXT:    %b = call i64 @fib(i64 %n2)
; CHECK-NEXT:    %s = add i64 %a, %b
; CHECK-NEXT:    ret i64 %s
; CHECK:       done:
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4
; CHECK-NEXT:    ret i64 %n
; TRE-LABEL: define i64 @fib(i64 %n)
; TRE-COUNT-1: call i64 @fib(
; TRE-NOT:     call i64 @fib(
entry:
  %small = icmp slt i64 %n, 2
  br i1 %small, label %done, label %rec
rec:
  %n1 = sub i64 %n, 1
  %a = call i64 @fib(i64 %n1)
  %n2 = sub i64 %n, 2
  %b = call i64 @fib(i64 %n2)
  %s = add i64 %a, %b
  br label %done
done:
  %r = phi i64 [ %n, %entry ], [ %s, %rec ]
  ret i64 %r
}

; A self call right before its ret (tak's outer call).
define i64 @direct(i64 %x, i64 %y) {
; CHECK-LABEL: define i64 @direct(
; CHECK:         [[LOADED2:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED2]], 4097
; CHECK-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED2]], i32 4097
; CHECK:         store volatile i32 [[D]], ptr [[STACK]], align 4
; CHECK-NEXT:    %r = call i64 @direct(i64 %y, i64 %x)
; CHECK-NEXT:    ret i64 %r
; TRE-LABEL: define i64 @direct(
; TRE-NOT:     call i64 @direct(
  %r = call i64 @direct(i64 %y, i64 %x)
  ret i64 %r
}

; A self call whose result is stored is not a tail call; another function's
; tail call keeps the caller's frame (Ruby shows the caller).
declare void @use(i64)
declare i64 @other(i64)
define i64 @not_tail(i64 %n, ptr %p) {
; CHECK-LABEL: define i64 @not_tail(
; CHECK:         %a = call i64 @not_tail(i64 %n, ptr %p)
; CHECK-NEXT:    store i64 %a, ptr %p
; CHECK-NEXT:    %b = call i64 @other(i64 %a)
; CHECK-NEXT:    store volatile i32
; CHECK-NEXT:    ret i64 %b
  %a = call i64 @not_tail(i64 %n, ptr %p)
  store i64 %a, ptr %p
  %b = call i64 @other(i64 %a)
  ret i64 %b
}
