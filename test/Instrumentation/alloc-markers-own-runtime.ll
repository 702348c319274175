; A module that names the allocation countdown or the sample function
; itself (a test standing in for the runtime, as Inputs/abi-contract.c
; does, or a program reading the countdown) can see what a lowered marker
; does: there the marker is declared a call like any other, so loads of the
; countdown are neither folded nor moved past it. Lowered, it is the same
; countdown as anywhere.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc-markers -S %s | FileCheck %s --check-prefix=MARKERS
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc-markers -S %s -o %t.markers.ll
; RUN: %opt -passes='default<O2>' -S %t.markers.ll | FileCheck %s --check-prefix=O2
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof-alloc -S %s | FileCheck %s --check-prefix=LOWERED

@__spinelprof_alloc_countdown = thread_local(initialexec) global i64 0, align 8

declare ptr @malloc(i64)

define internal ptr @sp_Foo_new() noinline {
  %p = call ptr @malloc(i64 24)
  ret ptr %p
}

; The countdown read after the allocation is read again, not folded into
; the value stored before it.
define i64 @main() {
  %a = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__spinelprof_alloc_countdown)
  store i64 50, ptr %a, align 8
  %p = call ptr @sp_Foo_new()
  %c = load i64, ptr %a, align 8
  ret i64 %c
}
; O2-LABEL: define {{.*}}i64 @main(
; O2:         call {{.*}}@sp_Foo_new()
; O2-NEXT:    [[C:%.*]] = load i64, ptr
; O2-NEXT:    ret i64 [[C]]

declare ptr @llvm.threadlocal.address.p0(ptr)

; MARKERS: declare void @__spinelprof_marker_alloc(i64, ptr) #[[ATTRS:[0-9]+]]
; MARKERS: attributes #[[ATTRS]] = { nomerge nounwind willreturn "call-inline-cost"="0" "dontcall-error"=
; LOWERED-LABEL: define internal ptr @sp_Foo_new(
; LOWERED:         call ptr @malloc.spinelprof_site(i64 24, i64 24, ptr @__spinelprof_alloc_type.Foo)
; LOWERED-LABEL: define internal {{.*}}ptr @malloc.spinelprof_site(
; LOWERED:         load i64, ptr {{.*}}, align 8
; LOWERED:         call void @__spinelprof_alloc_sample(i64 %spinelprof.size, ptr %spinelprof.type)
; LOWERED-NOT: __spinelprof_marker
