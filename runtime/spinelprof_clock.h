//===- spinelprof_clock.h - The clocks the runtime reads ---------*- C++ -*-===//
//
// Part of spinelprof. One place for every clock read: the sample weights
// (a thread's CPU clock, CLOCK_MONOTONIC), the profile's duration and CPU
// time.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_CLOCK_H
#define SPINELPROF_CLOCK_H

#include <stdint.h>
#include <time.h>

namespace spinelprof {

/// Clock's reading in ns, or 0 if it cannot be read. Async-signal-safe.
uint64_t clockNs(clockid_t Clock);

/// The calling thread's CPU time (a system call, ~2 us in a VM), the
/// process's CPU time, and CLOCK_MONOTONIC (vDSO), in ns.
/// Async-signal-safe.
uint64_t threadCpuNs();
uint64_t processCpuNs();
uint64_t monotonicNs();

} // namespace spinelprof

#endif // SPINELPROF_CLOCK_H
