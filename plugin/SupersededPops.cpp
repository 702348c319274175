//===- SupersededPops.cpp - Pops whose store the next marker replaces -----===//
//
// See SupersededPops.h.
//
//===----------------------------------------------------------------------===//

#include "SupersededPops.h"

#include "FrameMarkers.h"
#include "StaticDepths.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>

using namespace llvm;
using namespace spinelprof;

namespace {

/// Where a marker stores: the slot of Root's push + Level.
struct Place {
  CallBase *Root;
  unsigned Level;
};

/// The first marker after a pop on its one path, and the instructions of
/// the program's own on the way.
struct NextMarker {
  CallBase *Marker;
  FrameMarker Kind;
  unsigned Work;
};

class PopAnalysis {
public:
  explicit PopAnalysis(const StaticDepths &Static) : Static(Static) {}
  bool superseded(CallBase &Pop);

private:
  std::optional<Place> placeOfPush(Value *V) const;
  std::optional<Place> placeOf(CallBase &Marker, FrameMarker Kind) const;

  const StaticDepths &Static;
  /// Pops decided so far; a pop being decided reads as kept (a cycle).
  DenseMap<CallBase *, bool> Decided;
};

} // namespace

/// Whether \p I is a call that is not work: debug info, a lifetime mark.
static bool isBookkeeping(Instruction &I) {
  return isa<DbgInfoIntrinsic>(I) || I.isLifetimeStartOrEnd();
}

/// The first marker \p From reaches along its one path (in its block or
/// past unconditional branches), with no other call and at most
/// MaxWorkBetween instructions between; none otherwise.
static std::optional<NextMarker> nextMarker(CallBase &From) {
  unsigned Work = 0;
  Instruction *I = From.getNextNode();
  while (I && I != &From) { // back at the start: a loop of nothing else
    if (auto *Br = dyn_cast<BranchInst>(I); Br && Br->isUnconditional()) {
      BasicBlock *Next = Br->getSuccessor(0);
      auto First = Next->getFirstNonPHIIt();
      I = First == Next->end() ? nullptr : &*First;
      if (++Work > MaxWorkBetween)
        return std::nullopt;
      continue;
    }
    if (I->isTerminator())
      return std::nullopt;
    if (auto *Call = dyn_cast<CallBase>(I); Call && !isBookkeeping(*I)) {
      std::optional<FrameMarker> Kind = frameMarkerOf(*Call);
      if (!Kind)
        return std::nullopt;
      return NextMarker{Call, *Kind, Work};
    }
    if (!isBookkeeping(*I) && ++Work > MaxWorkBetween)
      return std::nullopt;
    I = I->getNextNode();
  }
  return std::nullopt;
}

/// The place of the push \p V (a pop's or re-push's depth operand, or the
/// push itself); none if \p V is not a push.
std::optional<Place> PopAnalysis::placeOfPush(Value *V) const {
  auto *Push = dyn_cast<CallBase>(V);
  if (!Push || frameMarkerOf(*Push) != FrameMarker::Push)
    return std::nullopt;
  auto [Root, Level] = Static.lookup(Push);
  return Root ? Place{Root, Level} : Place{Push, 0};
}

std::optional<Place> PopAnalysis::placeOf(CallBase &Marker,
                                          FrameMarker Kind) const {
  switch (Kind) {
  case FrameMarker::Push:
    return placeOfPush(&Marker);
  case FrameMarker::Pop:
    return placeOfPush(Marker.getArgOperand(0));
  case FrameMarker::Repush:
    return placeOfPush(Marker.getArgOperand(1));
  }
  return std::nullopt;
}

/// Whether \p Pop can go: past the pops after it that go too, the first
/// marker that stays is a pop (one store of a lower depth), or a push or
/// re-push that stores without loading in \p Pop's slot. Between that
/// marker's slot store and its depth store the depth is still \p Pop's
/// frame's, so a slot below it (past a pop that went) would show the new
/// frame under the popped ones: a stack no path has.
bool PopAnalysis::superseded(CallBase &Pop) {
  auto [It, New] = Decided.try_emplace(&Pop, false);
  if (!New)
    return It->second;
  std::optional<Place> Popped = placeOf(Pop, FrameMarker::Pop);
  unsigned Work = 0;
  std::optional<NextMarker> Next = nextMarker(Pop);
  // Past pops that go too, within the budget from Pop.
  while (Next && (Work += Next->Work) <= MaxWorkBetween &&
         Next->Kind == FrameMarker::Pop && superseded(*Next->Marker))
    Next = nextMarker(*Next->Marker);
  bool Goes = false;
  if (Next && Work <= MaxWorkBetween) {
    if (Next->Kind == FrameMarker::Pop) {
      Goes = true;
    } else if (Next->Kind == FrameMarker::Repush ||
               Static.lookup(Next->Marker).first) {
      std::optional<Place> Stored = placeOf(*Next->Marker, Next->Kind);
      Goes = Popped && Stored && Stored->Root == Popped->Root &&
             Stored->Level == Popped->Level;
    }
  }
  Decided[&Pop] = Goes;
  return Goes;
}

SmallPtrSet<CallBase *, 8>
spinelprof::supersededPops(ArrayRef<CallBase *> Markers,
                           const StaticDepths &Static) {
  PopAnalysis Analysis(Static);
  SmallPtrSet<CallBase *, 8> Dropped;
  for (CallBase *Call : Markers)
    if (frameMarkerOf(*Call) == FrameMarker::Pop && Analysis.superseded(*Call))
      Dropped.insert(Call);
  return Dropped;
}
