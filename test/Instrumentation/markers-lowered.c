// clang -fpass-plugin lowers every frame and allocation-site marker by the
// end of its pipeline at every optimization level: the object (or, with
// -flto, the bitcode) references the shadow stack, the allocation sample
// and no marker. (A marker that reached code generation would be an error
// there, see markers.ll and alloc-markers.ll.)
//
// RUN: %clang_prof -O0 -c %s -o %t.O0.o
// RUN: llvm-nm %t.O0.o | FileCheck %s
// RUN: %clang_prof -O1 -c %s -o %t.O1.o
// RUN: llvm-nm %t.O1.o | FileCheck %s
// RUN: %clang_prof -O2 -c %s -o %t.O2.o
// RUN: llvm-nm %t.O2.o | FileCheck %s
// RUN: %clang_prof -Oz -c %s -o %t.Oz.o
// RUN: llvm-nm %t.Oz.o | FileCheck %s
// RUN: env SPINEL_PROFILE_STAGE=late %clang_prof -O2 -c %s -o %t.late.o
// RUN: llvm-nm %t.late.o | FileCheck %s
// RUN: %clang_prof -O2 -flto -c %s -o %t.lto.bc
// RUN: llvm-dis %t.lto.bc -o - | FileCheck %s --check-prefix=IR
// RUN: %clang_prof -O2 -flto=thin -c %s -o %t.thin.bc
// RUN: llvm-dis %t.thin.bc -o - | FileCheck %s --check-prefix=IR
//
// CHECK-NOT: __spinelprof_marker
// CHECK:     U __spinelprof_alloc_sample
// CHECK-NOT: __spinelprof_marker
// CHECK:     U __spinelprof_stack
// CHECK-NOT: __spinelprof_marker
// IR-NOT:    __spinelprof_marker
// IR:        store volatile ptr @__spinelprof_desc.sp_sum
// IR-NOT:    __spinelprof_marker
// IR:        call void @__spinelprof_alloc_sample(
// IR-NOT:    __spinelprof_marker

#include <setjmp.h>
#include <stdlib.h>

static jmp_buf sp_exc_buf;

long sp_Foo_x(long *self) { return *self * 3 + (*self > 2); }

long sp_sum(long *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += sp_Foo_x(v + i);
  return s;
}

int sp_rescue(long *v) {
  if (setjmp(sp_exc_buf) == 0)
    return (int)sp_sum(v, 4);
  return -1;
}

long *sp_Foo_new(void) { return malloc(4 * sizeof(long)); }

int main(int argc, char **argv) {
  long *v = sp_Foo_new();
  v[0] = argc, v[1] = 2, v[2] = 3, v[3] = 4;
  return sp_rescue(v);
}
