//===- SupersededPops.h - Depth stores the next marker replaces ----------===//
//
// A pop stores its push's depth. Where the next thing that touches the
// depth after the pop (in its block, or past unconditional branches) is
// another marker's store of it, the pop's store is dead to the program
// and nearly so to the sampler: a sample between the two sees the popped
// frame still open, for at most MaxWorkBetween instructions of the
// caller's. The pop is dropped. An inlined method's pop right before its
// caller's pop (`return Node.new(...)`) or before its next sibling's push
// (`a.x + a.y`) is the common case: of the instructions frames add,
// -5.7 % on bm_binary_trees and bm_ao_render, -2.6 to -5.2 % on four more
// of Spinel's benchmarks (bench/overhead/results/2026-11-29-superseded-pops.md).
//
// The next store may be a pop's (one store of a lower depth), or a
// push's or re-push's that stores without loading in the popped frame's
// own slot. A push stores its slot, then the depth; in between the depth
// is still the dropped pop's, so a push in a lower slot (reached past
// another dropped pop: `sp_gc_alloc_nogc`'s pop, `sp_gc_alloc`'s, then
// `Node#initialize`'s push) would show its frame under the popped one, a
// stack no path has. Pops that go are looked past, within the same
// MaxWorkBetween from the first.
//
// A push stores its slot, then the depth. Where the next marker is a push
// that stores without loading in the slot right above (`Node.new`'s frame,
// then `sp_gc_alloc`'s around its call), that push's depth store publishes
// both slots and the first push's goes: a sample between sees neither
// frame, for at most MaxWorkBetween of the program's instructions counted
// to the depth store that stays. One store per allocation on
// bm_gcbench. (A signal handler of the program's own that pushes a frame
// between a slot store and the depth store that publishes it writes over
// that slot, as it would between any push's two stores; the window is a
// few instructions wider.)
//
// Such a pair of pushes also shares one store for both slots
// (pairedSlotStores): a 16-byte store of a constant pair of descriptors
// at the lower push, where the upper push is on the only path from it
// (its block, or blocks of one predecessor each). The upper slot is
// written a few instructions early, above the depth, so no sample sees it
// before the upper push publishes it. Two instructions fewer per
// allocation on bm_binary_trees and bm_gcbench
// (bench/overhead/results/2026-12-01-slot-pairs.md).
//
// A push after a pop that went, of the same descriptor in the same slot
// (`rs.vdot(d)`, then `rs.vdot(rs)`, both inlined), finds its frame as
// the first left it: the slot holds the descriptor (nothing writes a slot
// below the depth), the depth is the first's. It stores nothing
// (repeatedPushes). bm_ao_render: -0.72 M of the 18.6 M instructions
// frames add (bench/overhead/results/2026-12-01-repeated-pushes.md).
//
// Not dropped: a pop before any other call (the callee may push, load the
// depth or be sampled), before a push that loads the depth or stores in
// another slot, at a conditional branch, a return or any other
// terminator, or after more instructions than MaxWorkBetween (so the
// popped frame is not charged for its caller's work). Large functions'
// pops (they count down) are not asked about.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_SUPERSEDEDPOPS_H
#define SPINELPROF_PLUGIN_SUPERSEDEDPOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class CallBase;
} // namespace llvm

namespace spinelprof {

class StaticDepths;

/// Instructions of the program's own a dropped pop may leave between it and
/// the marker that stores the depth next. Unconditional branches count.
constexpr unsigned MaxWorkBetween = 2;

/// The pops among \p Markers (markers of one function, before lowering)
/// whose depth store the next marker's replaces; \p Static tells which
/// pushes store without loading.
llvm::SmallPtrSet<llvm::CallBase *, 8>
supersededPops(llvm::ArrayRef<llvm::CallBase *> Markers,
               const StaticDepths &Static);

/// The pushes among \p Pushes (one function's, before lowering) whose depth
/// store the push right above them replaces: the next marker, with no call
/// and at most MaxWorkBetween instructions between, stores without loading
/// in the slot above theirs, and its depth publishes both slots
/// (`Node.new`'s frame, then `sp_gc_alloc`'s around its call).
llvm::SmallPtrSet<llvm::CallBase *, 8>
supersededPushDepths(llvm::ArrayRef<llvm::CallBase *> Pushes,
                     const StaticDepths &Static);

/// Pairs of \p Pushes (one function's, before lowering) whose two slots
/// one 16-byte store can write at the lower push: the upper is the next
/// marker, with no call and at most MaxWorkBetween instructions between,
/// on the only path from the lower (its block, or blocks of one
/// predecessor), and stores without loading in the slot right above
/// (`Node.new`'s frame, then `sp_gc_alloc`'s). The upper slot, written
/// early, is above the depth until the upper push publishes it. Both
/// descriptors are constants; a push is in one pair at most. Lower to
/// upper.
llvm::DenseMap<llvm::CallBase *, llvm::CallBase *>
pairedSlotStores(llvm::ArrayRef<llvm::CallBase *> Pushes,
                 const StaticDepths &Static);

/// The pushes of a function (before lowering) that need no store at all:
/// the marker before each, on its only path, is a pop in \p Dropped
/// (supersededPops) of a push of the same constant descriptor in the same
/// slot, so the slot holds that descriptor still and the depth is the one
/// this push would store (`b = rs.vdot(d); c = rs.vdot(rs)` inlined: the
/// first `vdot`'s pop went, and the second finds its frame as the first
/// left it). Nothing else writes a slot below the depth while its frame
/// is open.
llvm::SmallPtrSet<llvm::CallBase *, 8>
repeatedPushes(const llvm::SmallPtrSetImpl<llvm::CallBase *> &Dropped,
               const StaticDepths &Static);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_SUPERSEDEDPOPS_H
