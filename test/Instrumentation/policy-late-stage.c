// SPINEL_PROFILE_STAGE=late, the after-inlining experiment measured in
// docs/performance.md: the pass runs at the end of the -O2 pipeline, so a
// method the optimizer inlined away has no frame; one that stays a
// function keeps it. Without the variable the pass runs first and both keep
// their frames.
//
// RUN: env SPINEL_PROFILE_STAGE=late %clang_prof -O2 -S -emit-llvm %s -o %t.late.ll
// RUN: FileCheck %s --check-prefix=LATE --input-file=%t.late.ll
// RUN: %clang_prof -O2 -S -emit-llvm %s -o %t.early.ll
// RUN: FileCheck %s --check-prefix=EARLY --input-file=%t.early.ll
//
// LATE-NOT: @__spinelprof_desc.sp_Vec_x =
// LATE: @__spinelprof_desc.sp_sum =
// LATE-NOT: @__spinelprof_desc.sp_Vec_x =
// EARLY-DAG: @__spinelprof_desc.sp_Vec_x =
// EARLY-DAG: @__spinelprof_desc.sp_sum =

typedef struct sp_Vec { long iv_x; } sp_Vec;

static inline long sp_Vec_x(sp_Vec *self) { return self->iv_x; }

__attribute__((noinline)) static long sp_sum(sp_Vec *v, long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += sp_Vec_x(&v[i]);
  return s;
}

int main(int argc, char **argv) {
  sp_Vec v[4] = {{1}, {2}, {3}, {argc}};
  return (int)sp_sum(v, 4);
}
