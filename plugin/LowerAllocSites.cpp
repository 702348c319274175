//===- LowerAllocSites.cpp - Allocation-site markers to the countdown -----===//
//
// The countdown include/spinelprof/abi.h specifies, for each
// `call @__spinelprof_marker_alloc(%size, @type)`:
//
//   %c    = load threadlocal.address(@__spinelprof_alloc_countdown)
//   %left = sub %c, %size
//   store %left, threadlocal.address(@__spinelprof_alloc_countdown)
//   br (%left < 0), sample, rest          ; weighted unlikely
// sample:
//   call @__spinelprof_alloc_sample(%size, @type)     ; cold
//
// Where it goes:
//
// - When the marked call after the marker calls an allocator defined in
//   this module (Spinel's sp_gc_alloc, sp_gc_alloc_nogc, a sp_str_alloc
//   the inliner left alone), the call goes to a copy of the allocator,
//   `ALLOCATOR.spinelprof_site`, that takes the type descriptor as one
//   more argument and counts down at its entry, before its own frame's
//   push. The caller passes one more argument; the countdown's code is
//   compiled once per allocator, not once per inlined constructor (the
//   code generator's work on those blocks was half the plugin's compile
//   time). The stack and the size the runtime sees are the same: the
//   caller's frames, the allocator's size argument.
// - Everywhere else (libc's allocators, an allocator inlined into the
//   caller or only declared here): in place of the marker, with its
//   source location (the allocator call's).
//
// Four instructions and a rarely taken branch on the hot path; the runtime
// keeps the countdown at INT64_MAX while allocation profiling is off.
// Lowered last, none of it rides through the inliner and the rest of the
// optimizer.
//
//===----------------------------------------------------------------------===//

#include "LowerAllocSites.h"

#include "AllocSites.h"
#include "FrameMarkers.h"

#include "spinelprof/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

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
  /// The marked call to a defined allocator right after \p Marker whose
  /// size argument (set in \p SizeArg) is the marker's size, or null.
  CallInst *markedDefinedCall(CallBase &Marker, unsigned &SizeArg);
  /// \p Call redirected to the counting copy of its allocator.
  void redirect(CallBase &Marker, CallInst &Call, unsigned SizeArg);
  /// The copy of \p Allocator that counts its argument \p SizeArg down at
  /// its entry, for the type descriptor it takes as a last argument.
  Function *countingCopy(Function &Allocator, unsigned SizeArg);
  /// The countdown before \p Before; the cold call's location is \p DL.
  void emitCountdown(Instruction *Before, Value *Size, Value *Type,
                     const DebugLoc &DL);
  GlobalVariable *countdown();
  FunctionCallee sampleFunction();

  Module &M;
  LLVMContext &Ctx;
  Type *Int64Ty;
  GlobalVariable *Countdown = nullptr;
  FunctionCallee SampleFn;
  DenseMap<Function *, Function *> Copies;
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
  // An allocator of the program's own, all of whose calls now go to its
  // copy, is not compiled twice.
  for (auto &[Allocator, Copy] : Copies)
    if (Allocator->hasLocalLinkage() && Allocator->use_empty())
      Allocator->eraseFromParent();
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
  unsigned SizeArg = 0;
  if (CallInst *Call = markedDefinedCall(Marker, SizeArg)) {
    redirect(Marker, *Call, SizeArg);
    return;
  }
  emitCountdown(&Marker, Marker.getArgOperand(0), Marker.getArgOperand(1),
                Marker.getDebugLoc());
  Marker.eraseFromParent();
}

CallInst *AllocSiteLowering::markedDefinedCall(CallBase &Marker,
                                               unsigned &SizeArg) {
  Instruction *I = Marker.getNextNode();
  while (I && (!isa<CallBase>(I) || isa<DbgInfoIntrinsic>(I)))
    I = I->getNextNode();
  auto *Call = dyn_cast_or_null<CallInst>(I);
  if (!Call || !isMarkedAllocatorCall(*Call) || Call->isMustTailCall())
    return nullptr;
  Function *Allocator = Call->getCalledFunction();
  if (!Allocator || Allocator->isDeclaration() || Allocator->isVarArg() ||
      Allocator->getFunctionType() != Call->getFunctionType())
    return nullptr;
  std::optional<unsigned> Arg = allocatorSizeArgument(*Allocator);
  if (!Arg || *Arg >= Call->arg_size() ||
      Call->getArgOperand(*Arg)->getType() != Int64Ty ||
      Call->getArgOperand(*Arg) != Marker.getArgOperand(0))
    return nullptr;
  SizeArg = *Arg;
  return Call;
}

void AllocSiteLowering::redirect(CallBase &Marker, CallInst &Call,
                                 unsigned SizeArg) {
  Function *Copy = countingCopy(*Call.getCalledFunction(), SizeArg);
  SmallVector<Value *, 8> Args(Call.args());
  Args.push_back(Marker.getArgOperand(1));
  SmallVector<OperandBundleDef, 1> Bundles;
  Call.getOperandBundlesAsDefs(Bundles);
  IRBuilder<> B(&Call);
  CallInst *New = B.CreateCall(Copy, Args, Bundles);
  New->takeName(&Call);
  New->setDebugLoc(Call.getDebugLoc());
  New->setCallingConv(Call.getCallingConv());
  New->setTailCallKind(Call.getTailCallKind());
  New->setAttributes(Call.getAttributes());
  New->removeFnAttr(Attribute::Memory);
  New->copyMetadata(Call);
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
  Marker.eraseFromParent();
}

Function *AllocSiteLowering::countingCopy(Function &Allocator,
                                          unsigned SizeArg) {
  if (Function *Copy = Copies.lookup(&Allocator))
    return Copy;
  SmallVector<Type *, 8> Params(Allocator.getFunctionType()->params());
  Params.push_back(PointerType::getUnqual(Ctx));
  Function *Copy = Function::Create(
      FunctionType::get(Allocator.getReturnType(), Params, false),
      GlobalValue::InternalLinkage, Allocator.getAddressSpace(),
      Allocator.getName() + ".spinelprof_site", &M);
  ValueToValueMapTy VMap;
  for (unsigned K = 0; K < Allocator.arg_size(); ++K) {
    Copy->getArg(K)->setName(Allocator.getArg(K)->getName());
    VMap[Allocator.getArg(K)] = Copy->getArg(K);
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Copy, &Allocator, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  // Local to this module, whatever the allocator's own linkage.
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Copy->setComdat(nullptr);
  Copy->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Copy->removeFnAttr(Attribute::Memory);
  Copy->removeFnAttr(Attribute::NoSync);
  Argument *Type = Copy->getArg(Allocator.arg_size());
  Type->setName("spinelprof.type");
  DebugLoc DL;
  if (DISubprogram *SP = Copy->getSubprogram())
    DL = DILocation::get(Ctx, SP->getLine(), 0, SP);
  emitCountdown(&*Copy->getEntryBlock().getFirstNonPHIOrDbgOrAlloca(),
                Copy->getArg(SizeArg), Type, DL);
  Copies[&Allocator] = Copy;
  return Copy;
}

void AllocSiteLowering::emitCountdown(Instruction *Before, Value *Size,
                                      Value *Type, const DebugLoc &DL) {
  IRBuilder<> B(Before);
  B.SetCurrentDebugLocation(DL);
  Value *Addr = B.CreateThreadLocalAddress(countdown());
  Value *Left = B.CreateSub(
      B.CreateAlignedLoad(Int64Ty, Addr, Align(8), "spinelprof.countdown"),
      Size, "spinelprof.left");
  B.CreateAlignedStore(Left, Addr, Align(8));
  Value *Hit = B.CreateICmpSLT(Left, ConstantInt::get(Int64Ty, 0),
                               "spinelprof.sample");
  Instruction *Then = SplitBlockAndInsertIfThen(
      Hit, Before->getIterator(), /*Unreachable=*/false,
      MDBuilder(Ctx).createBranchWeights(1, 100000));
  IRBuilder<> TB(Then);
  TB.SetCurrentDebugLocation(DL);
  TB.CreateCall(sampleFunction(), {Size, Type})->addFnAttr(Attribute::Cold);
}

} // namespace

PreservedAnalyses LowerAllocSitesPass::run(Module &M,
                                           ModuleAnalysisManager &) {
  return AllocSiteLowering(M).run() ? PreservedAnalyses::none()
                                    : PreservedAnalyses::all();
}
