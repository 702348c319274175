//===- spinelprof_clock.cpp - The clocks the runtime reads ----------------===//
//
// Part of spinelprof. See spinelprof_clock.h.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_clock.h"

namespace spinelprof {

uint64_t clockNs(clockid_t Clock) {
  struct timespec T;
  if (clock_gettime(Clock, &T) != 0)
    return 0;
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

uint64_t threadCpuNs() { return clockNs(CLOCK_THREAD_CPUTIME_ID); }
uint64_t processCpuNs() { return clockNs(CLOCK_PROCESS_CPUTIME_ID); }
uint64_t monotonicNs() { return clockNs(CLOCK_MONOTONIC); }

} // namespace spinelprof
