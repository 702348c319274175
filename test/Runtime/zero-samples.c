// A run with no samples still writes valid, empty files: an empty folded
// file and a .sprof with no frames, threads or samples; its report says
// why and what to do. (At 1 Hz the first sample would need a whole
// CPU-second.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/z.folded SPINEL_PROFILE_HZ=1 %t/app 2> %t/err
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: count 0 < %t/z.folded
// RUN: %python %inputs/check_sprof.py %t/z.folded | FileCheck %s
// RUN: %spinel-prof report %t/z.sprof | FileCheck %s --check-prefix=REPORT
// None kept of some taken (all dropped) is no sign of a short run: no note.
// RUN: sed 's/"dropped": 0/"dropped": 3/' %t/z.sprof > %t/dropped.sprof
// RUN: %spinel-prof report %t/dropped.sprof | FileCheck %s --check-prefix=DROPPED
//
// ERR: spinelprof: 0 samples (1 Hz requested, 0 Hz achieved), 0 dropped, {{[0-9.]+}} s, wrote {{.*}}z.folded
// CHECK: ok: 0 samples, 0 stacks, 0 frames, 0 threads
// CHECK: field: achieved_hz 0.0
// CHECK: field: sample_count 0
// REPORT:      Samples:  0 (dropped 0, truncated 0)
// REPORT-NEXT: Note:     no samples: the run was too short for the rate; sample a short run faster: spinel-prof run --hz 1000, or SPINEL_PROFILE_HZ=1000
// REPORT:      (no samples)
// DROPPED:      Samples:  0 (dropped 3, truncated 0)
// DROPPED-NOT:  Note:
// DROPPED:      (no samples)
#include "manual_frames.h"

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);

int main(void) {
  uint32_t d = frame_push(&f_main);
  frame_pop(d);
  return 0;
}
