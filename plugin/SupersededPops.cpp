//===- SupersededPops.cpp - Pops whose store the next marker replaces -----===//
//
// See SupersededPops.h.
//
//===----------------------------------------------------------------------===//

#include "SupersededPops.h"

#include "FrameMarkers.h"
#include "StaticDepths.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;
using namespace spinelprof;

/// Whether \p I is a call that is not work: debug info, a lifetime mark.
static bool isBookkeeping(Instruction &I) {
  return isa<DbgInfoIntrinsic>(I) || I.isLifetimeStartOrEnd();
}

/// Whether the first marker \p Pop reaches, along its one path, stores the
/// depth without loading it, with no other call and at most MaxWorkBetween
/// instructions between.
static bool isSuperseded(CallBase &Pop, const StaticDepths &Static) {
  unsigned Work = 0;
  Instruction *I = Pop.getNextNode();
  while (I && I != &Pop) { // back at the pop: a loop of nothing else
    if (auto *Br = dyn_cast<BranchInst>(I); Br && Br->isUnconditional()) {
      BasicBlock *Next = Br->getSuccessor(0);
      auto First = Next->getFirstNonPHIIt();
      I = First == Next->end() ? nullptr : &*First;
      if (++Work > MaxWorkBetween)
        return false;
      continue;
    }
    if (I->isTerminator())
      return false;
    if (auto *Call = dyn_cast<CallBase>(I); Call && !isBookkeeping(*I)) {
      std::optional<FrameMarker> Kind = frameMarkerOf(*Call);
      return Kind && (*Kind != FrameMarker::Push || Static.lookup(Call).first);
    }
    if (!isBookkeeping(*I) && ++Work > MaxWorkBetween)
      return false;
    I = I->getNextNode();
  }
  return false;
}

SmallPtrSet<CallBase *, 8>
spinelprof::supersededPops(ArrayRef<CallBase *> Markers,
                           const StaticDepths &Static) {
  SmallPtrSet<CallBase *, 8> Dropped;
  for (CallBase *Call : Markers)
    if (frameMarkerOf(*Call) == FrameMarker::Pop && isSuperseded(*Call, Static))
      Dropped.insert(Call);
  return Dropped;
}
