//===- StaticDepths.cpp - Pushes whose depth is known from another push ---===//
//
// See StaticDepths.h.
//
//===----------------------------------------------------------------------===//

#include "StaticDepths.h"

#include "FrameMarkers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace spinelprof;

/// The depth at a point of a function, relative to a push of it: the depth
/// that push loaded (its result) plus Level. Undef where nothing reached yet.
struct spinelprof::DepthState {
  enum StateKind : uint8_t { Undef, Known, Unknown } Kind = Undef;
  CallBase *Root = nullptr;
  unsigned Level = 0;

  static DepthState known(CallBase *Root, unsigned Level) {
    return {Known, Root, Level};
  }
  static DepthState unknown() { return {Unknown, nullptr, 0}; }
  bool operator==(const DepthState &O) const {
    return Kind == O.Kind && Root == O.Root && Level == O.Level;
  }
  bool operator!=(const DepthState &O) const { return !(*this == O); }
  DepthState meet(const DepthState &O) const {
    if (Kind == Undef)
      return O;
    if (O.Kind == Undef || *this == O)
      return *this;
    return unknown();
  }
};

StaticDepths::StaticDepths(ArrayRef<BasicBlock *> Blocks, size_t PushCount,
                           unsigned MaxLevel)
    : MaxLevel(MaxLevel) {
  if (PushCount < 2)
    return; // nothing stands on anything
  if (PushCount > LargeFunctionPushes) {
    for (BasicBlock *BB : Blocks) // each block on its own
      transfer(*BB, DepthState::unknown());
    return;
  }
  DenseMap<BasicBlock *, DepthState> In;
  In[Blocks.front()] = DepthState::unknown(); // the entry block
  // States only rise (Undef, Known, Unknown), so this ends; the last sweep
  // changed nothing, so Placed is what the final states give.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : Blocks) {
      DepthState Out = transfer(*BB, In.lookup(BB));
      for (BasicBlock *Succ : successors(BB)) {
        DepthState &S = In[Succ];
        DepthState Met = S.meet(Out);
        if (Met != S) {
          S = Met;
          Changed = true;
        }
      }
    }
  }
}

DepthState StaticDepths::transfer(BasicBlock &BB, DepthState State) {
  if (State.Kind == DepthState::Undef)
    return State;
  if (BB.isEHPad())
    State = DepthState::unknown();
  for (Instruction &I : BB) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      continue;
    if (std::optional<FrameMarker> Kind = frameMarkerOf(*Call))
      State = afterMarker(*Call, *Kind, State);
    else if (isReturnsTwiceCall(*Call))
      State = DepthState::unknown();
  }
  return State;
}

DepthState StaticDepths::afterMarker(CallBase &Call, FrameMarker Kind,
                                     DepthState In) {
  if (Kind == FrameMarker::Push) {
    if (In.Kind == DepthState::Known && In.Level < MaxLevel) {
      Placed[&Call] = {In.Root, In.Level};
      return DepthState::known(In.Root, In.Level + 1);
    }
    Placed[&Call] = {nullptr, 0};
    return DepthState::known(&Call, 1);
  }
  // A pop restores its push's depth; a re-push pushes that push again.
  unsigned Above = Kind == FrameMarker::Pop ? 0 : 1;
  auto Place = placeOf(Call.getArgOperand(Kind == FrameMarker::Pop ? 0 : 1),
                       /*UnplacedLoads=*/false);
  if (!Place)
    return DepthState::unknown();
  return DepthState::known(Place->first, Place->second + Above);
}

std::optional<std::pair<CallBase *, unsigned>>
StaticDepths::placeOfDepth(Value *Depth) const {
  return placeOf(Depth, /*UnplacedLoads=*/true);
}

std::optional<std::pair<CallBase *, unsigned>>
StaticDepths::placeOf(Value *Depth, bool UnplacedLoads) const {
  std::optional<std::pair<CallBase *, unsigned>> Place;
  SmallVector<Value *, 4> Work{Depth};
  SmallPtrSet<Value *, 4> Seen{Depth};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (Value *In : Phi->incoming_values())
        if (Seen.insert(In).second)
          Work.push_back(In);
      continue;
    }
    auto *Push = dyn_cast<CallBase>(V);
    if (!Push || frameMarkerOf(*Push) != FrameMarker::Push)
      return std::nullopt;
    auto It = Placed.find(Push);
    if (It == Placed.end() && !UnplacedLoads)
      return std::nullopt; // not reached yet in the dataflow
    auto [Root, Level] =
        It == Placed.end() ? std::pair<CallBase *, unsigned>{} : It->second;
    std::pair<CallBase *, unsigned> Here =
        Root ? std::make_pair(Root, Level) : std::make_pair(Push, 0u);
    if (Place && *Place != Here)
      return std::nullopt;
    Place = Here;
  }
  return Place;
}
