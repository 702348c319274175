//===- SupersededPops.cpp - Depth stores the next marker replaces --------===//
//
// See SupersededPops.h.
//
//===----------------------------------------------------------------------===//

#include "SupersededPops.h"

#include "FrameMarkers.h"
#include "StaticDepths.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constant.h"
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

/// The first marker after a marker on its one path, and the instructions of
/// the program's own on the way.
struct NextMarker {
  CallBase *Marker;
  FrameMarker Kind;
  unsigned Work;
};

/// Which markers' depth stores the next marker's replaces.
class DepthStoreAnalysis {
public:
  explicit DepthStoreAnalysis(const StaticDepths &Static) : Static(Static) {}
  bool superseded(CallBase &Pop);
  std::optional<unsigned> workUntilPublished(CallBase &Push);
  std::optional<NextMarker> pushAbove(CallBase &Push) const;

private:
  std::optional<Place> placeOfPush(Value *V) const;
  std::optional<Place> placeOf(CallBase &Marker, FrameMarker Kind) const;

  const StaticDepths &Static;
  /// Pops decided so far; a pop being decided reads as kept (a cycle).
  DenseMap<CallBase *, bool> Decided;
  /// Pushes decided so far: the work until the store that publishes their
  /// slot, none where their own stays; a push being decided reads as
  /// keeping it (a cycle).
  DenseMap<CallBase *, std::optional<unsigned>> Published;
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
/// push itself); none if \p V is not a push or a phi of pushes that
/// agree.
std::optional<Place> DepthStoreAnalysis::placeOfPush(Value *V) const {
  if (auto Found = Static.placeOfDepth(V))
    return Place{Found->first, Found->second};
  return std::nullopt;
}

std::optional<Place> DepthStoreAnalysis::placeOf(CallBase &Marker,
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
bool DepthStoreAnalysis::superseded(CallBase &Pop) {
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

/// The next marker after \p Push, when it is a push that stores without
/// loading in the slot right above \p Push's.
std::optional<NextMarker> DepthStoreAnalysis::pushAbove(CallBase &Push) const {
  std::optional<NextMarker> Next = nextMarker(Push);
  if (!Next || Next->Kind != FrameMarker::Push ||
      !Static.lookup(Next->Marker).first)
    return std::nullopt;
  std::optional<Place> Mine = placeOfPush(&Push);
  std::optional<Place> Its = placeOfPush(Next->Marker);
  if (!Mine || !Its || Its->Root != Mine->Root ||
      Its->Level != Mine->Level + 1)
    return std::nullopt;
  return Next;
}

/// Where \p Push's depth store goes (the push right above it publishes
/// both slots, within MaxWorkBetween of the program's instructions counted
/// to the depth store that stays): those instructions; none where it stays.
std::optional<unsigned> DepthStoreAnalysis::workUntilPublished(CallBase &Push) {
  auto [It, New] = Published.try_emplace(&Push, std::nullopt);
  if (!New)
    return It->second;
  std::optional<unsigned> Work;
  if (std::optional<NextMarker> Above = pushAbove(Push)) {
    unsigned Total =
        Above->Work + workUntilPublished(*Above->Marker).value_or(0);
    if (Total <= MaxWorkBetween)
      Work = Total;
  }
  Published[&Push] = Work;
  return Work;
}

SmallPtrSet<CallBase *, 8>
spinelprof::supersededPops(ArrayRef<CallBase *> Markers,
                           const StaticDepths &Static) {
  DepthStoreAnalysis Analysis(Static);
  SmallPtrSet<CallBase *, 8> Dropped;
  for (CallBase *Call : Markers)
    if (frameMarkerOf(*Call) == FrameMarker::Pop && Analysis.superseded(*Call))
      Dropped.insert(Call);
  return Dropped;
}

SmallPtrSet<CallBase *, 8>
spinelprof::supersededPushDepths(ArrayRef<CallBase *> Pushes,
                                 const StaticDepths &Static) {
  DepthStoreAnalysis Analysis(Static);
  SmallPtrSet<CallBase *, 8> Unstored;
  for (CallBase *Push : Pushes)
    if (Analysis.workUntilPublished(*Push).has_value())
      Unstored.insert(Push);
  return Unstored;
}

/// Whether \p Upper's block is \p Lower's or reached from it through
/// blocks of one predecessor each (no other path comes in between).
static bool onlyPathFrom(CallBase &Lower, CallBase &Upper) {
  BasicBlock *BB = Upper.getParent();
  for (unsigned Steps = 0; BB != Lower.getParent(); ++Steps) {
    BB = BB->getSinglePredecessor();
    if (!BB || Steps > MaxWorkBetween)
      return false;
  }
  return true;
}

DenseMap<CallBase *, CallBase *>
spinelprof::pairedSlotStores(ArrayRef<CallBase *> Pushes,
                             const StaticDepths &Static) {
  DepthStoreAnalysis Analysis(Static);
  DenseMap<CallBase *, CallBase *> Pairs;
  SmallPtrSet<CallBase *, 8> Uppers;
  for (CallBase *Lower : Pushes) {
    if (Uppers.contains(Lower))
      continue;
    std::optional<NextMarker> Above = Analysis.pushAbove(*Lower);
    if (!Above || !onlyPathFrom(*Lower, *Above->Marker) ||
        !isa<Constant>(Lower->getArgOperand(0)) ||
        !isa<Constant>(Above->Marker->getArgOperand(0)))
      continue;
    Pairs[Lower] = Above->Marker;
    Uppers.insert(Above->Marker);
  }
  return Pairs;
}

SmallPtrSet<CallBase *, 8>
spinelprof::repeatedPushes(const SmallPtrSetImpl<CallBase *> &Dropped,
                           const StaticDepths &Static) {
  SmallPtrSet<CallBase *, 8> Repeated;
  for (CallBase *Pop : Dropped) {
    std::optional<NextMarker> Next = nextMarker(*Pop);
    if (!Next || Next->Kind != FrameMarker::Push ||
        !Static.lookup(Next->Marker).first)
      continue;
    CallBase &Push = *Next->Marker;
    auto *Popped = dyn_cast<CallBase>(Pop->getArgOperand(0));
    if (!Popped || frameMarkerOf(*Popped) != FrameMarker::Push ||
        !isa<Constant>(Push.getArgOperand(0)) ||
        Popped->getArgOperand(0) != Push.getArgOperand(0) ||
        !onlyPathFrom(*Pop, Push))
      continue;
    auto Was = Static.placeOfDepth(Popped);
    auto Is = Static.placeOfDepth(&Push);
    if (Was && Is && *Was == *Is)
      Repeated.insert(&Push);
  }
  return Repeated;
}
