//===- StaticDepths.h - Pushes whose depth is known from another push -----===//
//
// For each frame push of a function, the push of the same function whose
// loaded depth it stands on and its level above it, where every path to it
// agrees: an inlined callee's push, k frames inside the function's own,
// stores at that frame's slot + k with depth + k + 1 and loads nothing
// (LowerFrameMarkers.cpp, abi.h). A call returns with the depth it was
// called with (every pop restores its push's depth), so within one function
// the depth moves only at its own markers: a forward dataflow over them
// finds it. A join of paths that disagree, the second return of a
// returns_twice call and an exception's landing pad come with a depth the
// markers do not tell: a push there loads. In a large function (more than
// LargeFunctionPushes pushes) a push stands only on a frame pushed or
// popped in its own block.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_STATICDEPTHS_H
#define SPINELPROF_PLUGIN_STATICDEPTHS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <cstddef>
#include <optional>
#include <utility>

namespace llvm {
class BasicBlock;
class CallBase;
class Value;
} // namespace llvm

namespace spinelprof {

/// A function with more pushes than this is large: its pushes stand only
/// on frames pushed or popped in their own block, and its pops count the
/// depth down instead of storing the saved one (abi.h). Values live from a
/// push to its pop, or to the pushes standing on it, across hundreds of
/// calls and blocks cost the register allocator more than they save at run
/// time. gen_large.py's `main` (507 pushes; clang -O2's instructions for
/// the whole file, in
/// points of plain clang's): standing on any push of the function +13,
/// on frames of the same block -0.7 against on none, pops counting down
/// -1.7 more. The largest functions of Spinel's benchmarks have 37-52
/// pushes.
constexpr size_t LargeFunctionPushes = 64;

enum class FrameMarker;
struct DepthState;

class StaticDepths {
public:
  /// Analyses the function whose reachable blocks are \p Blocks, in
  /// reverse post-order, holding \p PushCount pushes. A level stays below
  /// \p MaxLevel (the sink slots after a root's, which is at most one
  /// past the capacity); a push that would reach it loads.
  StaticDepths(llvm::ArrayRef<llvm::BasicBlock *> Blocks, size_t PushCount,
               unsigned MaxLevel);

  /// The push \p Push stands on and its level above it (0: in the place of
  /// that frame, popped before it), or {null, 0} when it loads the depth.
  std::pair<llvm::CallBase *, unsigned> lookup(llvm::CallBase *Push) const {
    return Placed.lookup(Push);
  }

  /// Where the frame whose depth is \p Depth (a pop's or re-push's
  /// operand, or a push) stands: {the push that loaded, its level}. A phi
  /// of pushes (the optimizer duplicated an inlined callee's push onto the
  /// paths to a join: jump threading, tail duplication) stands where all
  /// of them do; none when they disagree or \p Depth is no push.
  std::optional<std::pair<llvm::CallBase *, unsigned>>
  placeOfDepth(llvm::Value *Depth) const;

private:
  /// placeOfDepth, where a push not analysed loads (\p UnplacedLoads: a
  /// function too small to analyse) or is not known yet.
  std::optional<std::pair<llvm::CallBase *, unsigned>>
  placeOf(llvm::Value *Depth, bool UnplacedLoads) const;
  DepthState transfer(llvm::BasicBlock &BB, DepthState In);
  DepthState afterMarker(llvm::CallBase &Call, FrameMarker Kind, DepthState In);

  unsigned MaxLevel;
  /// For every push reached so far: where it stands ({null, 0}: it loads).
  llvm::DenseMap<llvm::CallBase *, std::pair<llvm::CallBase *, unsigned>>
      Placed;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_STATICDEPTHS_H
