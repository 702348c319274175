//===- spinelprof_scratch.h - The writer's memory, from mmap ----*- C++ -*-===//
//
// The profile writer's buffers come from mmap, never from malloc's heap: a
// program with one thread that gets SIGINT may be inside malloc, and its
// profile is then written by a copy of the process (writeInCopy in
// spinelprof_init.cpp), whose heap is that copy's, halfway through an
// update. mmap needs no lock and no heap.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_SCRATCH_H
#define SPINELPROF_SCRATCH_H

#include <stddef.h>

namespace spinelprof {

/// Size bytes, zeroed (each block is a fresh mapping: pages not written
/// cost nothing), or null. Async-signal-safe.
void *scratchAlloc(size_t Size);

/// P (from scratchAlloc, or null) grown or shrunk to Size bytes, its
/// contents kept; null on failure, and P stays. Async-signal-safe.
void *scratchRealloc(void *P, size_t Size);

/// Frees P (from scratchAlloc, or null). Async-signal-safe.
void scratchFree(void *P);

} // namespace spinelprof

#endif // SPINELPROF_SCRATCH_H
