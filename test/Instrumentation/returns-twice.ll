; After each call that can return twice (a longjmp lands there with the
; callees' frames still counted), the caller pushes its own frame again:
; its slot, depth + 1. Recognised by the returns_twice attribute, on the callee or the
; call, and by name for declarations that lack it.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s

declare i32 @setjmp(ptr) returns_twice
declare i32 @_setjmp(ptr)
declare i32 @sigsetjmp(ptr, i32)
declare i32 @__sigsetjmp(ptr, i32)
declare i32 @getcontext(ptr)
declare i32 @vfork()
declare i32 @my_checkpoint(ptr)
declare void @work()

define i32 @rescue(ptr %buf) {
; CHECK-LABEL: define i32 @rescue(ptr %buf)
; CHECK:         [[LOADED1:%spinelprof.loaded[0-9]*]] = load i32, ptr [[STACK:%.*]], align 4
; CHECK-NEXT:    {{%.*}} = icmp ult i32 [[LOADED1]], 4097
; CHECK-NEXT:    [[D:%.*]] = select i1 {{%.*}}, i32 [[LOADED1]], i32 4097
; CHECK:         [[SLOT:%.*]] = getelementptr inbounds { i32, i32, [4112 x ptr] }, ptr [[STACK]], i64 0, i32 2, i64 {{%.*}}
; CHECK-NEXT:    [[NEXT:%.*]] = add i32 [[D]], 1
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.rescue, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %r = call i32 @setjmp(ptr %buf)
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.rescue, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %c = icmp eq i32 %r, 0
; CHECK-NEXT:    br i1 %c, label %body, label %handler
; CHECK:       body:
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    ret i32 0
; CHECK:       handler:
; CHECK-NEXT:    store volatile i32 [[D]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    ret i32 1
  %r = call i32 @setjmp(ptr %buf)
  %c = icmp eq i32 %r, 0
  br i1 %c, label %body, label %handler
body:
  call void @work()
  ret i32 0
handler:
  ret i32 1
}

; Each setjmp-like function by name, and a call-site attribute.
define void @all_kinds(ptr %buf) {
; CHECK-LABEL: define void @all_kinds(ptr %buf)
; CHECK:         [[NEXT:%.*]] = add i32 {{%.*}}, 1
; CHECK:         %a = call i32 @_setjmp(ptr %buf)
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT:%.*]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK:%.*]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %b = call i32 @sigsetjmp(ptr %buf, i32 1)
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %c = call i32 @__sigsetjmp(ptr %buf, i32 0)
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %d = call i32 @getcontext(ptr %buf)
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %e = call i32 @vfork()
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %f = call i32 @my_checkpoint(ptr %buf) #[[RT:[0-9]+]]
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; An ordinary call gets nothing.
; CHECK-NEXT:    %g = call i32 @my_checkpoint(ptr %buf)
; CHECK-NEXT:    store volatile i32 {{%.*}}, ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    ret void
  %a = call i32 @_setjmp(ptr %buf)
  %b = call i32 @sigsetjmp(ptr %buf, i32 1)
  %c = call i32 @__sigsetjmp(ptr %buf, i32 0)
  %d = call i32 @getcontext(ptr %buf)
  %e = call i32 @vfork()
  %f = call i32 @my_checkpoint(ptr %buf) returns_twice
  %g = call i32 @my_checkpoint(ptr %buf)
  ret void
}
; CHECK: attributes #[[RT]] = { returns_twice }
