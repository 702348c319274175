; For alloc-sites-copy.ll: a marker whose size is not its call's size.
@T = private constant { i32, i32, i32, i32, ptr, ptr, ptr } zeroinitializer

declare void @__spinelprof_marker_alloc(i64, ptr)

define ptr @sp_gc_alloc(i64 %size, ptr %fin, ptr %scan) {
  ret ptr null
}

define ptr @sp_Foo_new(i64 %n, i64 %m) {
  call void @__spinelprof_marker_alloc(i64 %n, ptr @T)
  %p = call ptr @sp_gc_alloc(i64 %m, ptr null, ptr null), !spinelprof.alloc !0
  ret ptr %p
}

!0 = !{}
