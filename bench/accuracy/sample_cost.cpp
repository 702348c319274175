//===- sample_cost.cpp - What one sample costs, by part -------------------===//
//
// The sampler thread's copy of a thread's stack (copyStack: one seqlock read,
// on the sampler thread) and the handler's record of it (recordSample, on
// the sampled thread), in ns, at depths 10, 50 and 200, timed with the
// thread CPU clock. The kernel's signal delivery is not included;
// bench/overhead/micro/depthbench.c measures the whole. Built against the
// runtime's internal headers:
//
//   clang++ -O2 -std=c++17 -Iruntime -Iinclude bench/accuracy/sample_cost.cpp \
//       build/lib/libspinelprof_rt.a -ldl -lpthread -o sample_cost
//   SPINEL_PROFILE=/tmp/cost.folded SPINEL_PROFILE_QUIET=1 ./sample_cost
//
//===----------------------------------------------------------------------===//
#include "spinelprof_sample_table.h"
#include "spinelprof_threads.h"

#include <stdio.h>
#include <time.h>

using namespace spinelprof;

static uint64_t threadCpu() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

static const FrameDescriptor Frame = {SPINELPROF_ABI_VERSION, 0, 0, 0,
                                      "f", "f", ""};
static const FrameDescriptor *Buffer[StackCopyCapacity];

int main() {
  ThreadSlot *T = currentThreadSlot();
  if (!T) {
    fprintf(stderr, "sample_cost: profiling is off (set SPINEL_PROFILE)\n");
    return 1;
  }
  const int Depths[] = {10, 50, 200};
  const int N = 200000;
  for (int Depth : Depths) {
    for (int I = 0; I < Depth; ++I)
      __spinelprof_stack.frames[I] = &Frame;
    __spinelprof_stack.depth = Depth;
    StackCopy C;
    uint64_t A = threadCpu();
    for (int I = 0; I < N; ++I)
      (void)copyStack(*T, Buffer, C);
    uint64_t B = threadCpu();
    StackView S(Buffer, C.Length, nullptr);
    for (int I = 0; I < N; ++I)
      recordSample(T->Tid, S, 1, 1);
    uint64_t D = threadCpu();
    printf("depth %d: copy (sampler thread) %.0f ns, record (handler) %.0f "
           "ns\n",
           Depth, double(B - A) / N, double(D - B) / N);
  }
  __spinelprof_stack.depth = 0;
  return 0;
}
