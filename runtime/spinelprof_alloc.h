//===- spinelprof_alloc.h - Allocation samples ------------------*- C++ -*-===//
//
// SPINEL_PROFILE_ALLOC=1: instrumented code counts down the bytes it
// allocates in a thread-local variable and calls __spinelprof_alloc_sample
// (abi.h) when it goes below zero. That function records the thread's
// shadow stack under an "alloc Foo" leaf and draws the next countdown from
// an exponential distribution with mean SPINEL_PROFILE_ALLOC_RATE bytes (as
// Go's MemProfileRate does), so every byte is equally likely to be sampled
// and an allocation of s bytes is sampled with probability
// 1 - exp(-s / rate). Each sample is scaled by the inverse of that
// probability, so the objects and bytes in the profile are unbiased
// estimates; with rate 1 every allocation is recorded and the counts are
// exact.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_ALLOC_H
#define SPINELPROF_ALLOC_H

#include "spinelprof_sample_table.h"

#include <stdint.h>

namespace spinelprof {

/// The allocation table's count is objects in this fixed-point unit: a
/// sampled allocation stands for 1/p objects, rarely a whole number.
inline constexpr uint64_t AllocObjectUnit = uint64_t(1) << 16;

/// Whole objects, rounded, from the table's fixed-point count.
inline uint64_t allocObjects(uint64_t Fixed) {
  return (Fixed + AllocObjectUnit / 2) / AllocObjectUnit;
}

/// Turns allocation sampling on (Rate bytes between samples on average; 1
/// records every allocation). Returns 0 or an errno (the table could not
/// be mapped; sampling stays off). Start-up only.
int startAllocationSampling(uint64_t Rate);

/// Turns allocation sampling off for good unless it was started: until
/// this runs every marked allocation calls into the runtime. Start-up only.
void settleAllocationSampling();

/// Turns allocation sampling off (profiling could not start after all):
/// each thread's next sampled allocation sets its countdown out of reach.
/// Start-up only.
void stopAllocationSampling();

/// The allocation samples: count = objects (AllocObjectUnit), weight =
/// bytes. For the writer.
const SampleTable &allocSamples();

/// Allocation samples whose stack was deeper than the shadow stack.
uint64_t allocTruncated();

/// In the fork child: forgets the parent's allocation samples. Only while
/// no other thread runs (the child of fork).
void resetAllocationsAfterFork();

} // namespace spinelprof

#endif // SPINELPROF_ALLOC_H
