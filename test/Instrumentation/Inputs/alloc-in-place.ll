; For alloc-lowering.ll: markers lowered in place.
@T = private constant { i32, i32, i32, i32, ptr, ptr, ptr } zeroinitializer

declare void @__spinelprof_marker_alloc(i64, ptr)
declare ptr @malloc(i64)

define ptr @sp_gc_alloc(i64 %size, ptr %fin, ptr %scan) {
  ret ptr null
}

; The marker's size is not the allocator's size argument.
define ptr @sp_Foo_new(i64 %n, i64 %m) {
  call void @__spinelprof_marker_alloc(i64 %n, ptr @T)
  %p = call ptr @sp_gc_alloc(i64 %m, ptr null, ptr null), !spinelprof.alloc !0
  ret ptr %p
}

; No call follows the marker in its block.
define ptr @sp_branchy(i1 %c) {
  call void @__spinelprof_marker_alloc(i64 8, ptr @T)
  br i1 %c, label %a, label %b
a:
  %p = call ptr @malloc(i64 8)
  ret ptr %p
b:
  ret ptr null
}

!0 = !{}

; The call after the marker passes an argument in memory: in place.
%struct.S = type { i64, i64 }
declare ptr @from_struct(ptr byval(%struct.S))

define ptr @sp_by_value(ptr %s) {
  call void @__spinelprof_marker_alloc(i64 16, ptr @T)
  %p = call ptr @from_struct(ptr byval(%struct.S) %s)
  ret ptr %p
}

; A declared callee's parameter and result attributes hold in its wrapper.
declare zeroext i8 @narrow(i8 zeroext)

define i8 @sp_narrow(i8 %b) {
  call void @__spinelprof_marker_alloc(i64 1, ptr @T)
  %r = call zeroext i8 @narrow(i8 zeroext %b)
  ret i8 %r
}
