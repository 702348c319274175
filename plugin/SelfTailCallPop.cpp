//===- SelfTailCallPop.cpp - Pop before a self tail call ------------------===//
//
// In an instrumented function, before:
//
//   %r = call @f(...)
//   call @__spinelprof_marker_pop(%d)
//   ret %r
//
// after:
//
//   call @__spinelprof_marker_pop(%d)
//   %r = call @f(...)
//   ret %r
//
// (SelfTailCallPop.h says when).
//
//===----------------------------------------------------------------------===//

#include "SelfTailCallPop.h"

#include "FrameMarkers.h"
#include "FramePolicy.h"

#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace spinelprof;

namespace {

/// True for a pop marker (this function's or an inlined frame's).
bool isPop(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && frameMarkerOf(*Call) == FrameMarker::Pop;
}

/// Scans [\p It, terminator) for what may follow a tail call: pops, and
/// instructions that neither touch memory nor have side effects. Appends
/// the pops to \p Pops; false on anything else.
bool scanTail(BasicBlock::iterator It, BasicBlock *BB,
              SmallVectorImpl<CallBase *> &Pops) {
  for (; &*It != BB->getTerminator(); ++It) {
    Instruction &I = *It;
    if (isPop(I)) {
      Pops.push_back(cast<CallBase>(&I));
      continue;
    }
    if (isa<DbgInfoIntrinsic>(I))
      continue;
    if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
      return false;
  }
  return true;
}

/// Moves the pop before \p Call when the call is a self tail call in the
/// sense of SelfTailCallPopPass; returns true when it did.
bool popBeforeSelfTailCall(CallInst &Call, DomTreeUpdater &DTU) {
  BasicBlock *BB = Call.getParent();
  SmallVector<CallBase *, 2> Pops;
  if (!scanTail(std::next(Call.getIterator()), BB, Pops))
    return false;
  Instruction *Term = BB->getTerminator();
  BasicBlock *RetBlock = nullptr;
  if (!isa<ReturnInst>(Term)) {
    auto *Br = dyn_cast<BranchInst>(Term);
    if (!Br || Br->isConditional())
      return false;
    RetBlock = Br->getSuccessor(0);
    if (RetBlock == BB || !isa<ReturnInst>(RetBlock->getTerminator()))
      return false;
    if (!scanTail(RetBlock->getFirstNonPHIIt(), RetBlock, Pops))
      return false;
  }
  if (Pops.empty())
    return false;
  // Only this function's pop: the depth its push returned, restored.
  // (The push and pop of a function inlined after the call restore another
  // depth; that call is not a tail call.)
  Value *Depth = Pops.front()->getArgOperand(0);
  auto *Push = dyn_cast<CallBase>(Depth);
  if (!Push || frameMarkerOf(*Push) != FrameMarker::Push ||
      Push->getParent() == RetBlock || !DTU.getDomTree().dominates(Push, &Call))
    return false;
  for (CallBase *Pop : Pops)
    if (Pop->getArgOperand(0) != Depth)
      return false;
  CallBase *Model = Pops.front();

  Model->clone()->insertBefore(Call.getIterator());
  if (RetBlock)
    // This path gets its own copy of the return block, pop included.
    FoldReturnIntoUncondBranch(cast<ReturnInst>(RetBlock->getTerminator()),
                               RetBlock, BB, &DTU);
  // The callee restores the depth it found, the one just stored: the pops
  // after the call are redundant, and would keep it from being a tail call.
  SmallVector<Instruction *, 4> Dead;
  for (Instruction &I : make_range(std::next(Call.getIterator()), BB->end()))
    if (isPop(I))
      Dead.push_back(&I);
  for (Instruction *I : Dead)
    I->eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses SelfTailCallPopPass::run(Function &F,
                                           FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(InstrumentedAttr))
    return PreservedAnalyses::all();
  SmallVector<CallInst *, 4> SelfCalls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Call->getCalledOperand() == &F && !Call->isMustTailCall())
          SelfCalls.push_back(Call);
  if (SelfCalls.empty())
    return PreservedAnalyses::all();
  // Folding a return block into its predecessor changes the CFG; the
  // updater keeps the tree right after each fold.
  DomTreeUpdater DTU(FAM.getResult<DominatorTreeAnalysis>(F),
                     DomTreeUpdater::UpdateStrategy::Eager);
  bool Changed = false;
  for (CallInst *Call : SelfCalls)
    Changed |= popBeforeSelfTailCall(*Call, DTU);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserve<DominatorTreeAnalysis>();
  return PA;
}
