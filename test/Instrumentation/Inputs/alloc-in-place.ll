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
