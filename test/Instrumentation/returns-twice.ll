; After each call that can return twice (a longjmp lands there with the
; callees' frames still counted), the caller pushes its own frame again:
; gen loaded again (callees bumped it) and bumped, its slot, depth + 1. Recognised by the returns_twice attribute, on the callee or the
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
; CHECK:         [[GENP:%.*]] = getelementptr inbounds { i32, i32, [4097 x ptr] }, ptr [[STACK:%.*]], i32 0, i32 1
; CHECK-NEXT:    [[D:%.*]] = load i32, ptr [[STACK]], align 4
; CHECK:         [[SLOT:%.*]] = getelementptr inbounds { i32, i32, [4097 x ptr] }, ptr [[STACK]], i64 0, i32 2, i64 {{%.*}}
; CHECK-NEXT:    [[NEXT:%.*]] = add i32 [[D]], 1
; CHECK-NEXT:    [[GEN:%.*]] = load i32, ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    [[NEXTGEN:%.*]] = add i32 [[GEN]], 1
; CHECK-NEXT:    store volatile i32 [[NEXTGEN]], ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.rescue, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %r = call i32 @setjmp(ptr %buf)
; CHECK-NEXT:    [[G1:%.*]] = load i32, ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    [[NG1:%.*]] = add i32 [[G1]], 1
; CHECK-NEXT:    store volatile i32 [[NG1]], ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
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
; CHECK-NEXT:    [[G:%.*]] = load i32, ptr [[GENP:%.*]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    [[NG:%.*]] = add i32 [[G]], 1
; CHECK-NEXT:    store volatile i32 [[NG]], ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT:%.*]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK:%.*]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %b = call i32 @sigsetjmp(ptr %buf, i32 1)
; CHECK-NEXT:    [[G3:%.*]] = load i32, ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    [[NG3:%.*]] = add i32 [[G3]], 1
; CHECK-NEXT:    store volatile i32 [[NG3]], ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %c = call i32 @__sigsetjmp(ptr %buf, i32 0)
; CHECK-NEXT:    [[G4:%.*]] = load i32, ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    [[NG4:%.*]] = add i32 [[G4]], 1
; CHECK-NEXT:    store volatile i32 [[NG4]], ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %d = call i32 @getcontext(ptr %buf)
; CHECK-NEXT:    [[G5:%.*]] = load i32, ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    [[NG5:%.*]] = add i32 [[G5]], 1
; CHECK-NEXT:    store volatile i32 [[NG5]], ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %e = call i32 @vfork()
; CHECK-NEXT:    [[G6:%.*]] = load i32, ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    [[NG6:%.*]] = add i32 [[G6]], 1
; CHECK-NEXT:    store volatile i32 [[NG6]], ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile ptr @__spinelprof_desc.all_kinds, ptr [[SLOT]], align 8, !tbaa {{![0-9]+}}
; CHECK-NEXT:    store volatile i32 [[NEXT]], ptr [[STACK]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    %f = call i32 @my_checkpoint(ptr %buf) #[[RT:[0-9]+]]
; CHECK-NEXT:    [[G7:%.*]] = load i32, ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
; CHECK-NEXT:    [[NG7:%.*]] = add i32 [[G7]], 1
; CHECK-NEXT:    store volatile i32 [[NG7]], ptr [[GENP]], align 4, !tbaa {{![0-9]+}}
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
