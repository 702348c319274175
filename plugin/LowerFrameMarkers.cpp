//===- LowerFrameMarkers.cpp - Frame markers to shadow-stack code ---------===//
//
// In each function with frame markers, once, where it dominates them all
// (hoisted out of loops):
//
//   %stack = threadlocal.address(@__spinelprof_stack)
//
// and in place of each marker:
//
//   push(@desc):     %l = load depth
//                    %d = select (%l < CAPACITY + 1), %l, CAPACITY + 1
//                                      ; saturated: CAPACITY + 1 is a sink
//                    store volatile @desc, frames[%d]
//                    store volatile %d + 1, depth
//                    (uses of the marker's result: %d)
//                    (no depth store where the push right above it
//                    follows within two instructions: SupersededPops.h)
//                    (its slot and the slot above in one store
//                    volatile <2 x i64> of a constant pair, loaded from
//                    @__spinelprof_slot_pair, where the push right above
//                    follows: SupersededPops.h; that push then stores
//                    no slot)
//                    (nothing where the pop before it went and its frame
//                    had the same descriptor in the same slot:
//                    SupersededPops.h)
//   pop(%d):         store volatile %d, depth
//                    (in a large function: store volatile (load depth) - 1)
//                    (nothing where the next marker stores the depth
//                    within two instructions: SupersededPops.h)
//   repush(@desc, %d): the push's two stores
//
// A push nested k levels inside another frame of the same function (an
// inlined callee's), on every path to it, needs no load and no clamp: with
// %r that frame's depth and %rslot its slot,
//
//   push(@desc):     store volatile @desc, %rslot + k    ; k < SINK_SLOTS - 1
//                    store volatile %r + k + 1, depth
//                    (uses of the marker's result: %r + k)
//   its pop(%d):     store volatile %r + k, depth   ; the add at the pop
//
// the same slot and depth as the load would give (every call returns with
// the depth it was called with, so within one function only its own
// markers move it), except past the capacity, where both are sinks.
// StaticDepths finds these pushes by a dataflow over the markers; in a
// large function (StaticDepths.h) only within a block. The pop's add is
// made where the pop is, and adds nothing uses are deleted: instruction
// selection merges equal adds of a block, and one made at the push and
// used after a call holds a callee-saved register across it (bm_gcbench's
// make_tree: `Node.new`'s frame, around sp_gc_alloc's, kept two).
//
// Every load and store of the stack carries a TBAA type of its own.
//
// One stack address for the whole function, the thread's own stack, also
// in a fiber: the runtime's context-switch wrappers copy a context's
// frames out when it is suspended and back, at the same depths, when it
// resumes (docs/design.md, "Fibers"). Where the code generator can, the
// address folds into %fs-relative addressing.
//
// A signal handler reads the stack and nothing in the IR says so. Volatile
// stores are never deleted (in a leaf with no calls, dead-store elimination
// would otherwise delete the push's depth store, which the pop overwrites;
// nothing runs after this pass that would, but the code generator respects
// volatile too) and never reordered with each other: the slot is written
// before the depth publishes it, so the thread's own signal handler, the
// only reader, never sees a depth whose slot is stale (abi.h). They
// are not atomic: LLVM's alias analysis answers "may read and write
// everything" for any store stronger than unordered, while for a volatile
// store it asks whether the addresses may alias, and the TBAA type, under
// clang's root beside int, long, double and pointers, says no.
//
//===----------------------------------------------------------------------===//

#include "LowerFrameMarkers.h"

#include "AbiLayout.h"
#include "FrameMarkers.h"
#include "RuntimeThreadLocals.h"
#include "StaticDepths.h"
#include "SupersededPops.h"

#include "spinelprof/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"

using namespace llvm;
using namespace spinelprof;
using namespace spinelprof::abi_layout;

// Mirrored from include/spinelprof/abi.h, the one owner of these values.
static const uint32_t StackCapacity = SPINELPROF_STACK_CAPACITY;
static const uint32_t SinkSlots = SPINELPROF_STACK_SINK_SLOTS;

// The name of the TBAA type of every access to the shadow stack.
static const char StackTBAATypeName[] = "spinelprof shadow stack";

namespace {

/// What a push writes: the depth (or not: the push above publishes its
/// slot), and its slot alone, with the slot above for the push there
/// (PairedAbove, that push's descriptor: one 16-byte store), or not at
/// all (the push below wrote it).
struct PushWrites {
  bool Depth = true;
  bool Slot = true;
  Constant *PairedAbove = nullptr;
};

/// Lowers one module's markers: holds the IR types, the shadow-stack
/// globals and the TBAA tag.
class MarkerLowering {
public:
  MarkerLowering(Module &M, const OptionValue &TLSModel);

  /// Returns true when the module changed.
  bool run(FunctionAnalysisManager &FAM);

private:
  /// A push as lowered: its depth (the loaded one saturated at CAPACITY +
  /// 1, or its root's + its level), which its uses and pops get, its slot
  /// address and depth + 1, which its re-pushes store again.
  struct PushedFrame {
    Value *Depth;
    Value *Slot;
    Value *Next;
  };
  void lowerFunction(Function &F, ArrayRef<CallBase *> Markers,
                     FunctionAnalysisManager &FAM);
  /// Lowers a pop (the depth it restores: its push's, or for a nested
  /// push's, its root's + the level, added here) or a re-push (its push's
  /// stores again).
  void lowerPopOrRepush(CallBase *Call,
                        const DenseMap<CallBase *, PushedFrame> &Lowered,
                        const StaticDepths &Static, bool Large,
                        Value *Stack);
  /// Deletes the depths computed for a use that went (a pop that computes
  /// its own, a depth store left to the push above): instruction selection
  /// would merge such an add with the pop's and keep it live across the
  /// calls in between; and the slots of pushes the push below stored.
  static void
  eraseUnusedDepths(const DenseMap<CallBase *, PushedFrame> &Lowered);
  /// Lowers \p Pushes, in an order where each follows its dominators;
  /// \p Static tells which stand on another.
  /// \p Unstored: pushes that store their slot only (the push above them
  /// stores the depth). \p Pairs: pushes that store their slot and the
  /// one above, for the push there. \p Repeated: pushes that store
  /// nothing, unless they store a pair (SupersededPops.h).
  DenseMap<CallBase *, PushedFrame>
  lowerPushes(ArrayRef<CallBase *> Pushes, const StaticDepths &Static,
              const SmallPtrSetImpl<CallBase *> &Unstored,
              const DenseMap<CallBase *, CallBase *> &Pairs,
              const SmallPtrSetImpl<CallBase *> &Repeated, Value *Stack);
  /// A push \p Level frames above \p Root's, stored without a load.
  PushedFrame lowerNestedPush(IRBuilder<> &B, Value *Stack, Value *Desc,
                              const PushedFrame &Root, unsigned Level,
                              PushWrites Writes);
  /// Stores \p Lower and \p Upper in the slot \p Slot and the one above,
  /// in one 16-byte store of a constant pair.
  void storeSlotPair(IRBuilder<> &B, Constant *Lower, Constant *Upper,
                     Value *Slot);
  Instruction *stackAddressPoint(ArrayRef<CallBase *> Markers,
                                 DominatorTree &DT, LoopInfo &LI);
  /// The address of the thread's stack, computed once in a function.
  Value *emitStackAddress(Instruction *Before);
  /// A push of \p Desc at depth \p Depth: the slot and next depth are
  /// \p Known's (a re-push's push) or computed here.
  PushedFrame emitPushStores(IRBuilder<> &B, Value *Stack,
                             Value *Desc, Value *Depth,
                             const PushedFrame *Known,
                             PushWrites Writes = {});
  LoadInst *loadDepth(IRBuilder<> &B, Value *Stack);
  void storeToStack(IRBuilder<> &B, Value *V, Value *Addr, Align A);

  Module &M;
  LLVMContext &Ctx;
  const OptionValue &TLSModel;
  Type *Int32Ty;
  Type *Int64Ty;
  PointerType *PtrTy;
  StructType *ShadowStackTy;
  /// The access tag of every load and store of the shadow stack.
  MDNode *StackTBAA;
  GlobalVariable *StackGlobal = nullptr;
  /// The constant pairs of descriptors storeSlotPair loads, one per pair.
  DenseMap<std::pair<Constant *, Constant *>, GlobalVariable *> SlotPairs;
};

MarkerLowering::MarkerLowering(Module &M, const OptionValue &TLSModel)
    : M(M), Ctx(M.getContext()), TLSModel(TLSModel) {
  Int32Ty = Type::getInt32Ty(Ctx);
  Int64Ty = Type::getInt64Ty(Ctx);
  PtrTy = PointerType::getUnqual(Ctx);
  ShadowStackTy = shadowStackType(Ctx);
  // A scalar type of its own under clang's C/C++ root and `omnipotent
  // char` (metadata is uniqued, so these are clang's own nodes): distinct
  // from every C type but char, which may alias anything.
  MDBuilder MDB(Ctx);
  MDNode *Char = MDB.createTBAAScalarTypeNode(
      "omnipotent char", MDB.createTBAARoot("Simple C/C++ TBAA"));
  MDNode *StackType = MDB.createTBAAScalarTypeNode(StackTBAATypeName, Char);
  StackTBAA = MDB.createTBAAStructTagNode(StackType, StackType, 0);
}

bool MarkerLowering::run(FunctionAnalysisManager &FAM) {
  // Every marker call, by function, in module order.
  MapVector<Function *, SmallVector<CallBase *, 8>> ByFunction;
  SmallVector<Function *, 3> Declarations;
  for (FrameMarker Kind :
       {FrameMarker::Push, FrameMarker::Pop, FrameMarker::Repush}) {
    Function *Marker = M.getFunction(frameMarkerName(Kind));
    if (!Marker)
      continue;
    Declarations.push_back(Marker);
    for (User *U : Marker->users())
      if (auto *Call = dyn_cast<CallBase>(U))
        if (frameMarkerOf(*Call) == Kind)
          ByFunction[Call->getFunction()].push_back(Call);
  }
  if (Declarations.empty())
    return false;
  if (!ByFunction.empty()) {
    StackGlobal = runtimeShadowStack(M, TLSModel);
    if (!StackGlobal)
      return false;
  }
  for (auto &[F, Markers] : ByFunction)
    lowerFunction(*F, Markers, FAM);
  for (Function *Marker : Declarations)
    if (Marker->use_empty())
      Marker->eraseFromParent();
  widenLoweredMemoryEffects(M);
  return true;
}

Instruction *MarkerLowering::stackAddressPoint(ArrayRef<CallBase *> Markers,
                                               DominatorTree &DT,
                                               LoopInfo &LI) {
  BasicBlock *Dom = nullptr;
  for (CallBase *Call : Markers)
    Dom = Dom ? DT.findNearestCommonDominator(Dom, Call->getParent())
              : Call->getParent();
  // Out of loops: one address serves the whole function.
  if (Loop *L = LI.getLoopFor(Dom))
    if (BasicBlock *Preheader = L->getOutermostLoop()->getLoopPreheader())
      return Preheader->getTerminator();
  // Else as late as possible: before the first marker there, or at the end
  // of the block that branches to them.
  for (Instruction &I : *Dom)
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (frameMarkerOf(*Call))
        return Call;
  return Dom->getTerminator();
}

Value *MarkerLowering::emitStackAddress(Instruction *Before) {
  IRBuilder<> B(Before);
  Value *Stack = B.CreateThreadLocalAddress(StackGlobal);
  Stack->setName("spinelprof.stack");
  return Stack;
}

LoadInst *MarkerLowering::loadDepth(IRBuilder<> &B, Value *Stack) {
  LoadInst *Depth = B.CreateAlignedLoad(Int32Ty, Stack, Align(4));
  Depth->setMetadata(LLVMContext::MD_tbaa, StackTBAA);
  return Depth;
}

void MarkerLowering::storeToStack(IRBuilder<> &B, Value *V, Value *Addr,
                                  Align A) {
  B.CreateAlignedStore(V, Addr, A, /*isVolatile=*/true)
      ->setMetadata(LLVMContext::MD_tbaa, StackTBAA);
}

MarkerLowering::PushedFrame
MarkerLowering::emitPushStores(IRBuilder<> &B, Value *Stack,
                               Value *Desc, Value *Depth,
                               const PushedFrame *Known, PushWrites Writes) {
  PushedFrame Frame;
  if (Known) {
    Frame = *Known;
  } else {
    // The depth saturates one past the capacity: its slot is a sink slot
    // (they start at the capacity), the depth stored (capacity + 2) says
    // "truncated", and the pops restore it. So one value, not the loaded
    // depth and its slot index, stays live across the function's calls.
    Value *Bound = B.getInt32(StackCapacity + 1);
    Value *Index = B.CreateSelect(
        B.CreateICmpULT(Depth, Bound, "spinelprof.inbounds"), Depth, Bound,
        "spinelprof.index");
    Frame.Depth = Index;
    Frame.Slot = B.CreateInBoundsGEP(
        ShadowStackTy, Stack,
        {B.getInt64(0), B.getInt32(StackFrames),
         B.CreateZExt(Index, Int64Ty, "spinelprof.index64")},
        "spinelprof.slot");
    Frame.Next = B.CreateAdd(Index, B.getInt32(1), "spinelprof.next");
  }
  if (Writes.PairedAbove)
    storeSlotPair(B, cast<Constant>(Desc), Writes.PairedAbove, Frame.Slot);
  else if (Writes.Slot)
    storeToStack(B, Desc, Frame.Slot, Align(8));
  if (Writes.Depth)
    storeToStack(B, Frame.Next, Stack, Align(4));
  return Frame;
}

void MarkerLowering::storeSlotPair(IRBuilder<> &B, Constant *Lower,
                                   Constant *Upper, Value *Slot) {
  GlobalVariable *&Pair = SlotPairs[{Lower, Upper}];
  if (!Pair) {
    ArrayType *PairTy = ArrayType::get(PtrTy, 2);
    Pair = new GlobalVariable(M, PairTy, /*isConstant=*/true,
                              GlobalValue::PrivateLinkage,
                              ConstantArray::get(PairTy, {Lower, Upper}),
                              "__spinelprof_slot_pair");
    Pair->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Pair->setAlignment(Align(16));
  }
  auto *VecTy = FixedVectorType::get(Int64Ty, 2);
  Value *Both = B.CreateAlignedLoad(VecTy, Pair, Align(16), "spinelprof.pair");
  storeToStack(B, Both, Slot, Align(8));
}

MarkerLowering::PushedFrame
MarkerLowering::lowerNestedPush(IRBuilder<> &B, Value *Stack, Value *Desc,
                                const PushedFrame &Root, unsigned Level,
                                PushWrites Writes) {
  PushedFrame Nested;
  Nested.Depth = Level == 0   ? Root.Depth
                 : Level == 1 ? Root.Next
                              : B.CreateAdd(Root.Depth, B.getInt32(Level));
  Nested.Slot = Level == 0
                    ? Root.Slot
                    : B.CreateConstInBoundsGEP1_32(PtrTy, Root.Slot, Level,
                                                   "spinelprof.slot");
  Nested.Next =
      B.CreateAdd(Root.Depth, B.getInt32(Level + 1), "spinelprof.next");
  return emitPushStores(B, Stack, Desc, Nested.Depth, &Nested, Writes);
}

DenseMap<CallBase *, MarkerLowering::PushedFrame>
MarkerLowering::lowerPushes(ArrayRef<CallBase *> Pushes,
                            const StaticDepths &Static,
                            const SmallPtrSetImpl<CallBase *> &Unstored,
                            const DenseMap<CallBase *, CallBase *> &Pairs,
                            const SmallPtrSetImpl<CallBase *> &Repeated,
                            Value *Stack) {
  // A push nested in another of this function's frames stands at that
  // frame's slot + its level: no load, no clamp.
  DenseMap<CallBase *, PushedFrame> Lowered;
  SmallPtrSet<CallBase *, 8> WrittenBelow;
  for (auto &[Lower, Upper] : Pairs)
    WrittenBelow.insert(Upper);
  for (CallBase *Call : Pushes) {
    IRBuilder<> B(Call);
    Value *Desc = Call->getArgOperand(0);
    PushWrites Writes;
    Writes.Depth = !Unstored.contains(Call);
    Writes.Slot = !WrittenBelow.contains(Call);
    if (CallBase *Upper = Pairs.lookup(Call))
      Writes.PairedAbove = cast<Constant>(Upper->getArgOperand(0));
    else if (Repeated.contains(Call))
      Writes.Slot = Writes.Depth = false;
    auto [Root, Level] = Static.lookup(Call);
    auto RootIt = Root ? Lowered.find(Root) : Lowered.end();
    if (RootIt != Lowered.end()) {
      PushedFrame RootPush = RootIt->second; // a copy: the map may grow
      Lowered[Call] =
          lowerNestedPush(B, Stack, Desc, RootPush, Level, Writes);
      continue;
    }
    LoadInst *Loaded = loadDepth(B, Stack);
    Loaded->setName("spinelprof.loaded");
    PushedFrame Frame =
        emitPushStores(B, Stack, Desc, Loaded, nullptr, Writes);
    Frame.Depth->takeName(Call);
    Lowered[Call] = Frame;
  }
  return Lowered;
}

/// Deletes the markers in blocks that never run (code that never runs
/// needs no frame); returns the others.
static SmallVector<CallBase *, 8> reachableMarkers(ArrayRef<CallBase *> All,
                                                   DominatorTree &DT) {
  SmallVector<CallBase *, 8> Markers;
  for (CallBase *Call : All) {
    if (DT.isReachableFromEntry(Call->getParent())) {
      Markers.push_back(Call);
      continue;
    }
    Call->replaceAllUsesWith(PoisonValue::get(Call->getType()));
    Call->eraseFromParent();
  }
  return Markers;
}

void MarkerLowering::lowerFunction(Function &F, ArrayRef<CallBase *> All,
                                   FunctionAnalysisManager &FAM) {
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  SmallVector<CallBase *, 8> Markers = reachableMarkers(All, DT);
  if (Markers.empty())
    return;
  Value *Stack = emitStackAddress(stackAddressPoint(Markers, DT, LI));

  // Pushes first, in an order where each comes after its dominators: pops
  // and re-pushes use their depths, nested pushes their root's. The
  // reachable blocks hold every marker left.
  ReversePostOrderTraversal<Function *> RPO(&F);
  SmallVector<BasicBlock *, 16> Blocks(RPO.begin(), RPO.end());
  SmallVector<CallBase *, 8> Pushes, Others;
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (std::optional<FrameMarker> Kind = frameMarkerOf(*Call))
          (*Kind == FrameMarker::Push ? Pushes : Others).push_back(Call);
  // A nested push's slot is its root's + its level, the root's at most
  // CAPACITY + 1: the levels fit in the sink slots after that one.
  StaticDepths Static(Blocks, Pushes.size(), SinkSlots - 1);
  bool Large = Pushes.size() > LargeFunctionPushes;
  SmallPtrSet<CallBase *, 8> Superseded, Unstored, Repeated;
  DenseMap<CallBase *, CallBase *> Pairs;
  if (!Large) {
    Superseded = supersededPops(Others, Static);
    Unstored = supersededPushDepths(Pushes, Static);
    Pairs = pairedSlotStores(Pushes, Static);
    Repeated = repeatedPushes(Superseded, Static);
  }
  DenseMap<CallBase *, PushedFrame> Lowered =
      lowerPushes(Pushes, Static, Unstored, Pairs, Repeated, Stack);
  // Phis of pushes the pops no longer use go, before the depths they held.
  SmallVector<WeakTrackingVH, 4> Phis;
  for (CallBase *Call : Others) {
    if (!Superseded.contains(Call))
      lowerPopOrRepush(Call, Lowered, Static, Large, Stack);
    for (Value *Arg : Call->args())
      if (isa<PHINode>(Arg))
        Phis.push_back(Arg);
    Call->eraseFromParent();
  }
  for (auto &[Call, Lowering] : Lowered) {
    Call->replaceAllUsesWith(Lowering.Depth);
    Call->eraseFromParent();
  }
  // The phis alone: the depths they held are eraseUnusedDepths' to delete
  // (deleting them here too would leave Lowered pointing at freed ones).
  while (!Phis.empty()) {
    auto *Phi = dyn_cast_or_null<PHINode>(Phis.pop_back_val());
    if (!Phi || !Phi->use_empty())
      continue;
    for (Value *In : Phi->incoming_values())
      if (isa<PHINode>(In))
        Phis.push_back(In);
    Phi->eraseFromParent();
  }
  eraseUnusedDepths(Lowered);
}

void MarkerLowering::lowerPopOrRepush(
    CallBase *Call, const DenseMap<CallBase *, PushedFrame> &Lowered,
    const StaticDepths &Static, bool Large, Value *Stack) {
  IRBuilder<> B(Call);
  bool IsPop = frameMarkerOf(*Call) == FrameMarker::Pop;
  Value *Depth = Call->getArgOperand(IsPop ? 0 : 1);
  if (IsPop && Large) {
    storeToStack(B, B.CreateSub(loadDepth(B, Stack), B.getInt32(1)), Stack,
                 Align(4));
    return;
  }
  if (IsPop) {
    // The depth its frame's root loaded + its level, added here (also for
    // a phi of pushes that stand at one place).
    auto Place = Static.placeOfDepth(Depth);
    auto Root = Place ? Lowered.find(Place->first) : Lowered.end();
    if (Root != Lowered.end())
      Depth = Place->second == 0
                  ? Root->second.Depth
                  : B.CreateAdd(Root->second.Depth,
                                B.getInt32(Place->second), "spinelprof.depth");
    storeToStack(B, Depth, Stack, Align(4));
    return;
  }
  auto It = isa<CallBase>(Depth) ? Lowered.find(cast<CallBase>(Depth))
                                 : Lowered.end();
  emitPushStores(B, Stack, Call->getArgOperand(0),
                 It == Lowered.end() ? Depth : It->second.Depth,
                 It == Lowered.end() ? nullptr : &It->second);
}

void MarkerLowering::eraseUnusedDepths(
    const DenseMap<CallBase *, PushedFrame> &Lowered) {
  SmallPtrSet<Instruction *, 16> Unused; // a level-1 depth is its root's next
  for (auto &[Call, Lowering] : Lowered) {
    for (Value *V : {Lowering.Depth, Lowering.Next})
      if (auto *Add = dyn_cast<BinaryOperator>(V); Add && Add->use_empty())
        Unused.insert(Add);
    // The slot of a push whose slot the push below stored.
    if (auto *Slot = dyn_cast<GetElementPtrInst>(Lowering.Slot);
        Slot && Slot->use_empty())
      Unused.insert(Slot);
  }
  for (Instruction *Add : Unused)
    Add->eraseFromParent();
}

} // namespace

PreservedAnalyses LowerFrameMarkersPass::run(Module &M,
                                             ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  return MarkerLowering(M, TLSModel).run(FAM) ? PreservedAnalyses::none()
                                              : PreservedAnalyses::all();
}
