//===- KindSplit.h - Where the samples went: GC, runtime or Ruby -*- C++ -*-===//
//
// The question a Ruby programmer asks first: how much of the time is the
// garbage collector, how much the runtime (and native code such as libc),
// how much my own methods and blocks — and which of my methods lead into
// the GC. Every frame of a .sprof has a kind, so the split is exact, not a
// guess from names.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_KINDSPLIT_H
#define SPINELPROF_TOOLS_KINDSPLIT_H

#include "Profile.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace spinelprof {

/// A frame's kind, falling back to what its name says when the input (a
/// plain folded file) has no kinds: "[native] ..." is runtime, "[GC]" is
/// GC, "[truncated]"/"[unknown]" are synthetic, anything else user.
FrameKind effectiveKind(const Frame &F);

/// True for a runtime frame that allocates a string, array or hash:
/// sp_str_alloc, sp_str_alloc_raw, sp_lam_alloc, sp_<T>Array_new,
/// sp_<T>Hash_new, sp_String_new (by C name). A sample with one on its
/// stack counts as GC allocation in the split, with the malloc under it.
bool isAllocatorFrame(const Frame &F);

/// How one sample counts in the split.
enum class SampleClass {
  GC,        ///< Some GC or allocator frame is on the stack (collection, marking,
             ///< sweeping, finalizers run by the collector, allocation).
  Runtime,   ///< No GC frame; the leaf is a runtime helper or native code.
  Ruby,      ///< No GC frame; the leaf is a Ruby method or block (or the
             ///< program's plain C).
  Synthetic, ///< No GC frame; the leaf is [truncated] or [unknown].
};

SampleClass classifySample(const Profile &P, const Sample &S);

/// The Ruby frame through which some GC samples entered the collector.
struct GCEntry {
  /// Index into Profile::Frames of the nearest user or block frame below
  /// the stack's first (root-most) GC frame; -1 when there is none.
  int64_t Frame = -1;
  uint64_t Count = 0;
  /// The Ruby frames (user and block, root first) of the most common path
  /// to Frame, Frame excluded; ties by the path's names.
  std::vector<uint32_t> CommonPath;
  /// How many distinct Ruby paths lead to Frame.
  size_t PathCount = 0;
};

struct KindSplitCounts {
  uint64_t Total = 0;
  uint64_t GC = 0;
  /// The part of GC whose GC frames are all allocation (their C names say
  /// "alloc": sp_gc_alloc, sp_str_alloc, ...): allocating without
  /// collecting. The rest of GC is collection (mark, sweep, scan, ...).
  uint64_t GCAllocationOnly = 0;
  uint64_t Runtime = 0;
  uint64_t Ruby = 0;
  uint64_t Synthetic = 0;
  /// Largest first; ties by frame name.
  std::vector<GCEntry> GCEntries;
};

KindSplitCounts computeKindSplit(const Profile &P);

/// The split as report text: one line per class with share and count (GC
/// with its collection and allocation-only parts when there is GC), then
/// up to MaxEntries Ruby frames that lead into the GC, each with its most
/// common Ruby call path ("via <main> > JSONParser#parse"), with their share of
/// all samples. Empty for a profile without samples or without kinds (a
/// plain folded file cannot tell the runtime from Ruby).
std::string renderKindSplit(const Profile &P, size_t MaxEntries = 5);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_KINDSPLIT_H
