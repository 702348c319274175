//===- LowerAllocSites.cpp - Allocation-site markers to the countdown -----===//
//
// In place of each `call @__spinelprof_marker_alloc(%size, @type)`, with
// the marker's source location (the allocator call's):
//
//   %c    = load threadlocal.address(@__spinelprof_alloc_countdown)
//   %left = sub %c, %size
//   store %left, threadlocal.address(@__spinelprof_alloc_countdown)
//   br (%left < 0), sample, call          ; weighted unlikely
// sample:
//   call @__spinelprof_alloc_sample(%size, @type)     ; cold
//
// Four instructions and a rarely taken branch on the hot path; the runtime
// keeps the countdown at INT64_MAX while allocation profiling is off. It
// is the code the marking pass emitted itself before the markers: lowered
// last, it no longer rides through the inliner, the simplification
// pipeline and the rest of the optimizer in every inlined copy of a
// constructor.
//
//===----------------------------------------------------------------------===//

#include "LowerAllocSites.h"

#include "AllocSites.h"
#include "FrameMarkers.h"

#include "spinelprof/abi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace spinelprof;

// Mirrored from include/spinelprof/abi.h.
static const char CountdownSymbol[] = SPINELPROF_ALLOC_COUNTDOWN_SYMBOL;
static const char SampleSymbol[] = SPINELPROF_ALLOC_SAMPLE_SYMBOL;

namespace {

/// Lowers one module's allocation-site markers.
class AllocSiteLowering {
public:
  explicit AllocSiteLowering(Module &M)
      : M(M), Ctx(M.getContext()), Int64Ty(Type::getInt64Ty(Ctx)) {}

  /// Returns true when the module changed.
  bool run();

private:
  void lower(CallBase &Marker);
  GlobalVariable *countdown();
  FunctionCallee sampleFunction();

  Module &M;
  LLVMContext &Ctx;
  Type *Int64Ty;
  GlobalVariable *Countdown = nullptr;
  FunctionCallee SampleFn;
};

bool AllocSiteLowering::run() {
  Function *Marker = M.getFunction(allocSiteMarkerName());
  if (!Marker || !Marker->isDeclaration())
    return false;
  SmallVector<CallBase *, 32> Sites;
  for (User *U : Marker->users())
    if (auto *Call = dyn_cast<CallBase>(U))
      if (isAllocSiteMarker(*Call) && Call->getCalledFunction() == Marker)
        Sites.push_back(Call);
  // In the order they were made (a use list is newest first): the lowered
  // code's value names then read in program order.
  for (CallBase *Call : reverse(Sites))
    lower(*Call);
  if (Marker->use_empty())
    Marker->eraseFromParent();
  widenLoweredMemoryEffects(M);
  return true;
}

GlobalVariable *AllocSiteLowering::countdown() {
  if (Countdown)
    return Countdown;
  if (auto *GV = M.getGlobalVariable(CountdownSymbol))
    return Countdown = GV;
  Countdown = new GlobalVariable(M, Int64Ty, /*isConstant=*/false,
                                 GlobalValue::ExternalLinkage, nullptr,
                                 CountdownSymbol, nullptr,
                                 GlobalValue::InitialExecTLSModel);
  Countdown->setAlignment(Align(8));
  return Countdown;
}

FunctionCallee AllocSiteLowering::sampleFunction() {
  if (SampleFn)
    return SampleFn;
  bool Declared = M.getNamedValue(SampleSymbol);
  SampleFn = M.getOrInsertFunction(
      SampleSymbol,
      FunctionType::get(Type::getVoidTy(Ctx),
                        {Int64Ty, PointerType::getUnqual(Ctx)}, false));
  if (auto *F = dyn_cast<Function>(SampleFn.getCallee())) {
    F->addFnAttr(Attribute::Cold);
    F->addFnAttr(Attribute::NoUnwind);
    // Only called, never compared: what GlobalOpt would have said of it,
    // had it been there (the object's address-significance table leaves
    // it out, as before the markers).
    if (!Declared)
      F->setUnnamedAddr(GlobalValue::UnnamedAddr::Local);
  }
  return SampleFn;
}

void AllocSiteLowering::lower(CallBase &Marker) {
  // The builder takes the marker's source location for every instruction.
  IRBuilder<> B(&Marker);
  Value *Size = Marker.getArgOperand(0);
  Value *Type = Marker.getArgOperand(1);
  Value *Addr = B.CreateThreadLocalAddress(countdown());
  Value *Left = B.CreateSub(
      B.CreateAlignedLoad(Int64Ty, Addr, Align(8), "spinelprof.countdown"),
      Size, "spinelprof.left");
  B.CreateAlignedStore(Left, Addr, Align(8));
  Value *Hit = B.CreateICmpSLT(Left, ConstantInt::get(Int64Ty, 0),
                               "spinelprof.sample");
  Instruction *Then = SplitBlockAndInsertIfThen(
      Hit, Marker.getIterator(), /*Unreachable=*/false,
      MDBuilder(Ctx).createBranchWeights(1, 100000));
  IRBuilder<> TB(Then);
  TB.SetCurrentDebugLocation(Marker.getDebugLoc());
  TB.CreateCall(sampleFunction(), {Size, Type})
      ->addFnAttr(Attribute::Cold);
  Marker.eraseFromParent();
}

} // namespace

PreservedAnalyses LowerAllocSitesPass::run(Module &M,
                                           ModuleAnalysisManager &) {
  return AllocSiteLowering(M).run() ? PreservedAnalyses::none()
                                    : PreservedAnalyses::all();
}
