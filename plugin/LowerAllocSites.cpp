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
// Where it goes, by the call that follows the marker in its block (the
// allocator's call, or the first call of its body where the inliner put it
// in place; no frame marker between):
//
// - A marked call of an allocator defined in this module (Spinel's
//   sp_gc_alloc, sp_gc_alloc_nogc): to a copy of the allocator,
//   `ALLOCATOR.spinelprof_site`, that takes the type descriptor as one
//   more argument and counts its own size argument down at its entry.
//   One more argument at the call. A caller with few pushes (at most
//   SmallCallerPushes: a recursive tree builder, a constructor) calls
//   `ALLOCATOR.spinelprof_site_frameless` instead, a copy without the
//   allocator's frame, and pushes that frame itself: before the call and
//   popped after, as frame markers that LowerFrameMarkersPass stores
//   inside the caller's frame without loading the depth (StaticDepths.h),
//   where the copy would load it, clamp it and hold it across its own
//   calls (bm_gcbench: 12 instructions per allocation -> 8). Around its
//   call of the runtime that copy takes the frame off the stack and puts
//   it back.
// - A call of a function declared here (malloc, calloc, realloc; the
//   malloc of an inlined sp_str_alloc): to a wrapper,
//   `FUNCTION.spinelprof_site(args..., size, type)`, that counts down and
//   tail-calls the function. One more call and return at run time.
// - Anything else (no call in the block, a call of a function defined here
//   that is no marked allocator): in place of the marker, with its source
//   location (the allocator call's).
//
// So the countdown's blocks are compiled once per allocator and module,
// not once per inlined constructor: the code generator's work on them was
// half of the plugin's compile time. The stack and the size the runtime
// sees are the same: the caller's frames, the marker's size; and a sample
// in the copy reads the allocator's frame, pushed by its caller.
//
// Four instructions and a rarely taken branch on the hot path; the runtime
// keeps the countdown at INT64_MAX while allocation profiling is off.
// Lowered last, none of it rides through the inliner and the rest of the
// optimizer.
//
//===----------------------------------------------------------------------===//

#include "LowerAllocSites.h"

#include "AbiLayout.h"
#include "AllocSites.h"
#include "FrameMarkers.h"
#include "RuntimeThreadLocals.h"

#include "spinelprof/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace spinelprof;

/// A function with at most this many frame pushes (its own and inlined
/// callees') pushes the allocator's frame at its calls of the allocator.
/// Larger ones call a copy that pushes its own: there the depths held
/// across the call cost more registers than the push saves (Spinel's ten
/// under callgrind, clang 19: pushing at every call made `main`'s loops in
/// bm_huffman +4.0 M instructions and bm_nbody +1.0 M, and clang +1.4 %
/// on gen_large.py; at this bound both are as before, and bm_gcbench's
/// -57 M and bm_binary_trees' -14.5 M stay).
constexpr unsigned SmallCallerPushes = 8;

// Mirrored from include/spinelprof/abi.h.
static const char CountdownSymbol[] = SPINELPROF_ALLOC_COUNTDOWN_SYMBOL;
static const char SampleSymbol[] = SPINELPROF_ALLOC_SAMPLE_SYMBOL;

namespace {

/// Lowers one module's allocation-site markers.
class AllocSiteLowering {
public:
  AllocSiteLowering(Module &M, const OptionValue &TLSModel)
      : M(M), Ctx(M.getContext()), Int64Ty(Type::getInt64Ty(Ctx)),
        TLSModel(TLSModel) {}

  /// Returns true when the module changed.
  bool run();

private:
  void lower(CallBase &Marker);
  /// The call right after \p Marker in its block, when it is a direct
  /// call of an ordinary function (no marker, intrinsic or musttail).
  CallInst *callAfter(CallBase &Marker);
  /// \p Call to a defined allocator, whose size argument is the marker's,
  /// redirected to the allocator's counting copy; false when it is not one.
  bool redirectToCopy(CallBase &Marker, CallInst &Call);
  /// \p Call to a declared function redirected to its counting wrapper;
  /// false when its callee is defined here.
  bool redirectToWrapper(CallBase &Marker, CallInst &Call);
  /// Replaces \p Call with a call of \p Callee with \p Extra appended to
  /// its arguments, then erases \p Marker; returns the new call.
  CallInst *replaceCall(CallBase &Marker, CallInst &Call, Function *Callee,
                        ArrayRef<Value *> Extra);
  /// The frame markers of \p Desc's push and pop around \p Call.
  void pushAround(CallInst &Call, Constant *Desc);
  /// Around \p Sample, in a copy whose frame its caller pushed: that frame
  /// off the stack, so the runtime sees the caller's frames.
  void outsideCallersPush(CallInst &Sample);
  /// The copy of \p Allocator that counts its argument \p SizeArg down at
  /// its entry, for the type descriptor it takes as a last argument. With
  /// \p LeaveFrame, where the allocator has a frame that can go, the copy
  /// without it (`.spinelprof_site_frameless`), whose callers push it.
  Function *countingCopy(Function &Allocator, unsigned SizeArg,
                         bool LeaveFrame);
  /// True when \p F has few enough frame pushes for its allocation calls
  /// to push the allocator's frame themselves.
  bool pushesAllocatorFrames(Function &F);
  /// `Callee.spinelprof_site(args..., i64 size, ptr type)`: counts size
  /// down, then tail-calls \p Callee with its arguments.
  Function *countingWrapper(Function &Callee);
  /// A function of \p Callee's type with a size (when \p WithSize) and a
  /// type descriptor appended to its parameters, named after it.
  Function *createSiteFunction(Function &Callee, bool WithSize,
                               StringRef Suffix = ".spinelprof_site");
  /// The countdown before \p Before; the cold call's location is \p DL.
  /// Returns the cold call.
  CallInst *emitCountdown(Instruction *Before, Value *Size, Value *Type,
                          const DebugLoc &DL);
  GlobalVariable *countdown();
  FunctionCallee sampleFunction();

  Module &M;
  LLVMContext &Ctx;
  Type *Int64Ty;
  const OptionValue &TLSModel;
  GlobalVariable *Countdown = nullptr;
  FunctionCallee SampleFn;
  DenseMap<std::pair<Function *, unsigned>, Function *> Copies;
  DenseMap<Function *, bool> SmallCallers;
  /// A copy's own frame, which its callers push: its descriptor.
  DenseMap<Function *, Constant *> CallerPushedFrames;
  DenseMap<Function *, Function *> Wrappers;
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
  if (!Sites.empty() && !countdown())
    return false;
  // In the order they were made (a use list is newest first): the lowered
  // code's value names then read in program order.
  for (CallBase *Call : reverse(Sites))
    lower(*Call);
  if (Marker->use_empty())
    Marker->eraseFromParent();
  // An allocator of the program's own, all of whose calls now go to its
  // copy, is not compiled twice.
  SmallPtrSet<Function *, 4> Erased;
  for (auto &[Key, Copy] : Copies)
    if (Key.first->hasLocalLinkage() && Key.first->use_empty() &&
        Erased.insert(Key.first).second)
      Key.first->eraseFromParent();
  widenLoweredMemoryEffects(M);
  return true;
}

GlobalVariable *AllocSiteLowering::countdown() {
  if (!Countdown)
    Countdown = runtimeThreadLocal(M, CountdownSymbol, Int64Ty, TLSModel);
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
  if (CallInst *Call = callAfter(Marker))
    if (redirectToCopy(Marker, *Call) || redirectToWrapper(Marker, *Call))
      return;
  emitCountdown(&Marker, Marker.getArgOperand(0), Marker.getArgOperand(1),
                Marker.getDebugLoc());
  Marker.eraseFromParent();
}

/// True when an argument of \p Call is passed in memory or in a special
/// register: not passed on through a wrapper's plain parameter.
static bool passesInMemory(const CallBase &Call) {
  static const Attribute::AttrKind Kinds[] = {
      Attribute::ByVal,        Attribute::ByRef,     Attribute::StructRet,
      Attribute::InAlloca,     Attribute::Preallocated, Attribute::SwiftSelf,
      Attribute::SwiftError,   Attribute::SwiftAsync};
  for (unsigned K = 0; K < Call.arg_size(); ++K)
    for (Attribute::AttrKind Kind : Kinds)
      if (Call.paramHasAttr(K, Kind))
        return true;
  return false;
}

CallInst *AllocSiteLowering::callAfter(CallBase &Marker) {
  Instruction *I = Marker.getNextNode();
  while (I && (!isa<CallBase>(I) || isa<DbgInfoIntrinsic>(I)))
    I = I->getNextNode();
  auto *Call = dyn_cast_or_null<CallInst>(I);
  // hasFnAttr reads the callee's attributes too.
  if (!Call || Call->isMustTailCall() || Call->hasFnAttr(Attribute::ReturnsTwice))
    return nullptr;
  Function *Callee = Call->getCalledFunction();
  if (!Callee || Callee->isIntrinsic() || Callee->isVarArg() ||
      passesInMemory(*Call) ||
      Callee->getName().starts_with("__spinelprof") ||
      Callee->getFunctionType() != Call->getFunctionType())
    return nullptr;
  return Call;
}

bool AllocSiteLowering::redirectToCopy(CallBase &Marker, CallInst &Call) {
  Function &Allocator = *Call.getCalledFunction();
  if (Allocator.isDeclaration() || !isMarkedAllocatorCall(Call))
    return false;
  std::optional<unsigned> Arg = allocatorSizeArgument(Allocator);
  if (!Arg || Call.getArgOperand(*Arg) != Marker.getArgOperand(0))
    return false;
  Function *Copy = countingCopy(Allocator, *Arg,
                                pushesAllocatorFrames(*Call.getFunction()));
  CallInst *New = replaceCall(Marker, Call, Copy, {Marker.getArgOperand(1)});
  if (Constant *Desc = CallerPushedFrames.lookup(Copy))
    pushAround(*New, Desc);
  return true;
}

bool AllocSiteLowering::redirectToWrapper(CallBase &Marker, CallInst &Call) {
  Function &Callee = *Call.getCalledFunction();
  if (!Callee.isDeclaration())
    return false;
  replaceCall(Marker, Call, countingWrapper(Callee),
              {Marker.getArgOperand(0), Marker.getArgOperand(1)});
  return true;
}

CallInst *AllocSiteLowering::replaceCall(CallBase &Marker, CallInst &Call,
                                         Function *Callee,
                                         ArrayRef<Value *> Extra) {
  SmallVector<Value *, 8> Args(Call.args());
  Args.append(Extra.begin(), Extra.end());
  SmallVector<OperandBundleDef, 1> Bundles;
  Call.getOperandBundlesAsDefs(Bundles);
  IRBuilder<> B(&Call);
  CallInst *New = B.CreateCall(Callee, Args, Bundles);
  New->takeName(&Call);
  New->setDebugLoc(Call.getDebugLoc());
  New->setCallingConv(Callee->getCallingConv());
  New->setTailCallKind(Call.getTailCallKind());
  // The arguments' and the result's attributes stay; what the call said
  // of its callee as a library function (builtin, memory, allocsize) is
  // the callee's, not the copy's or the wrapper's.
  AttributeList Attrs = Call.getAttributes();
  SmallVector<AttributeSet, 8> Params;
  for (unsigned K = 0; K < Call.arg_size(); ++K)
    Params.push_back(Attrs.getParamAttrs(K).removeAttribute(
        Ctx, Attribute::AllocatedPointer));
  AttributeSet Fn;
  if (Call.hasFnAttr(Attribute::NoUnwind))
    Fn = Fn.addAttribute(Ctx, Attribute::NoUnwind);
  New->setAttributes(
      AttributeList::get(Ctx, Fn, Attrs.getRetAttrs(), Params));
  New->copyMetadata(Call);
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
  Marker.eraseFromParent();
  return New;
}

void AllocSiteLowering::pushAround(CallInst &Call, Constant *Desc) {
  IRBuilder<> B(&Call);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  CallInst *Depth = B.CreateCall(getFrameMarker(M, FrameMarker::Push), {Desc},
                                 "spinelprof.depth");
  B.SetInsertPoint(Call.getNextNode());
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  B.CreateCall(getFrameMarker(M, FrameMarker::Pop), {Depth});
}

void AllocSiteLowering::outsideCallersPush(CallInst &Sample) {
  IRBuilder<> B(&Sample);
  // The depth is the stack's first field (abi.h).
  Value *Addr = B.CreateThreadLocalAddress(runtimeShadowStack(M, TLSModel));
  Type *Int32Ty = B.getInt32Ty();
  LoadInst *Depth = B.CreateAlignedLoad(Int32Ty, Addr, Align(4),
                                        /*isVolatile=*/true, "spinelprof.depth");
  B.CreateAlignedStore(B.CreateSub(Depth, B.getInt32(1)), Addr, Align(4),
                       /*isVolatile=*/true);
  B.SetInsertPoint(Sample.getNextNode());
  B.CreateAlignedStore(Depth, Addr, Align(4), /*isVolatile=*/true);
}

Function *AllocSiteLowering::createSiteFunction(Function &Callee,
                                                bool WithSize,
                                                StringRef Suffix) {
  SmallVector<Type *, 8> Params(Callee.getFunctionType()->params());
  if (WithSize)
    Params.push_back(Int64Ty);
  Params.push_back(PointerType::getUnqual(Ctx));
  Function *F = Function::Create(
      FunctionType::get(Callee.getReturnType(), Params, false),
      GlobalValue::InternalLinkage, Callee.getAddressSpace(),
      Callee.getName() + Suffix, &M);
  F->setCallingConv(Callee.getCallingConv());
  // The callee's parameter and result attributes (zeroext, noundef, ...)
  // hold of the same values passed on.
  AttributeList CalleeAttrs = Callee.getAttributes();
  F->addRetAttrs(AttrBuilder(Ctx, CalleeAttrs.getRetAttrs()));
  for (unsigned K = 0; K < Callee.arg_size(); ++K) {
    F->addParamAttrs(K, AttrBuilder(Ctx, CalleeAttrs.getParamAttrs(K)));
    F->getArg(K)->setName(Callee.getArg(K)->getName());
  }
  if (WithSize)
    F->getArg(Callee.arg_size())->setName("spinelprof.size");
  F->getArg(F->arg_size() - 1)->setName("spinelprof.type");
  return F;
}

/// True when \p Desc is a frame descriptor whose C name is \p CName.
static bool describes(const Value *Desc, StringRef CName) {
  const auto *GV = dyn_cast<GlobalVariable>(Desc);
  const auto *Init = GV && GV->hasInitializer()
                         ? dyn_cast<ConstantStruct>(GV->getInitializer())
                         : nullptr;
  if (!Init || Init->getNumOperands() <= abi_layout::DescCName)
    return false;
  const auto *Name =
      dyn_cast<GlobalVariable>(Init->getOperand(abi_layout::DescCName));
  const auto *Data = Name && Name->hasInitializer()
                         ? dyn_cast<ConstantDataSequential>(Name->getInitializer())
                         : nullptr;
  return Data && Data->isCString() && Data->getAsCString() == CName;
}

/// The push of \p F's own frame (its descriptor's C name is \p CName):
/// its first marker, when that is such a push and only pops use its depth
/// (no re-push after a setjmp); else null.
static CallBase *ownFramePush(Function &F, StringRef CName) {
  CallBase *Push = nullptr;
  for (Instruction &I : F.getEntryBlock())
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      std::optional<FrameMarker> Kind = frameMarkerOf(*Call);
      if (!Kind && isa<IntrinsicInst>(Call))
        continue;
      if (Kind == FrameMarker::Push)
        Push = Call;
      break;
    }
  if (!Push || !describes(Push->getArgOperand(0), CName))
    return nullptr;
  for (User *U : Push->users()) {
    auto *Pop = dyn_cast<CallBase>(U);
    if (!Pop || frameMarkerOf(*Pop) != FrameMarker::Pop)
      return nullptr;
  }
  return Push;
}

/// Erases \p Push (an ownFramePush) and its pops; returns its descriptor.
static Constant *eraseFrame(CallBase &Push) {
  auto *Desc = cast<Constant>(Push.getArgOperand(0));
  SmallVector<User *, 4> Pops(Push.users());
  for (User *Pop : Pops)
    cast<Instruction>(Pop)->eraseFromParent();
  Push.eraseFromParent();
  return Desc;
}

bool AllocSiteLowering::pushesAllocatorFrames(Function &F) {
  auto [It, New] = SmallCallers.try_emplace(&F, false);
  if (New) {
    unsigned Pushes = 0;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        Pushes += frameMarkerOf(*Call) == FrameMarker::Push;
    It->second = Pushes <= SmallCallerPushes;
  }
  return It->second;
}

Function *AllocSiteLowering::countingCopy(Function &Allocator,
                                          unsigned SizeArg, bool LeaveFrame) {
  if (Function *Copy = Copies.lookup({&Allocator, LeaveFrame}))
    return Copy;
  CallBase *OwnPush =
      LeaveFrame ? ownFramePush(Allocator, Allocator.getName()) : nullptr;
  if (LeaveFrame && !OwnPush) // Nothing to leave: the copy with the frame.
    return Copies[{&Allocator, true}] = countingCopy(Allocator, SizeArg, false);
  Function *Copy = createSiteFunction(
      Allocator, /*WithSize=*/false,
      LeaveFrame ? ".spinelprof_site_frameless" : ".spinelprof_site");
  ValueToValueMapTy VMap;
  for (unsigned K = 0; K < Allocator.arg_size(); ++K)
    VMap[Allocator.getArg(K)] = Copy->getArg(K);
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
  // The copy's own frame goes to its callers: there a push nested in the
  // caller's frame stores without loading the depth, and the copy holds
  // no depth across its own calls.
  Constant *OwnFrame =
      OwnPush ? eraseFrame(*cast<CallBase>(VMap[OwnPush])) : nullptr;
  DebugLoc DL;
  if (DISubprogram *SP = Copy->getSubprogram())
    DL = DILocation::get(Ctx, SP->getLine(), 0, SP);
  CallInst *Sample = emitCountdown(
      &*Copy->getEntryBlock().getFirstNonPHIOrDbgOrAlloca(),
      Copy->getArg(SizeArg), Copy->getArg(Copy->arg_size() - 1), DL);
  if (OwnFrame) {
    outsideCallersPush(*Sample);
    CallerPushedFrames[Copy] = OwnFrame;
  }
  return Copies[{&Allocator, LeaveFrame}] = Copy;
}

Function *AllocSiteLowering::countingWrapper(Function &Callee) {
  if (Function *Wrapper = Wrappers.lookup(&Callee))
    return Wrapper;
  Function *Wrapper = createSiteFunction(Callee, /*WithSize=*/true);
  if (Callee.doesNotThrow())
    Wrapper->setDoesNotThrow();
  BasicBlock *Entry = BasicBlock::Create(Ctx, "", Wrapper);
  IRBuilder<> B(Entry);
  SmallVector<Value *, 8> Args;
  for (unsigned K = 0; K < Callee.arg_size(); ++K)
    Args.push_back(Wrapper->getArg(K));
  CallInst *Call = B.CreateCall(&Callee, Args);
  Call->setAttributes(Callee.getAttributes());
  Call->setTailCall();
  Call->setCallingConv(Callee.getCallingConv());
  if (Callee.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  unsigned N = Callee.arg_size();
  emitCountdown(Call, Wrapper->getArg(N), Wrapper->getArg(N + 1), DebugLoc());
  return Wrappers[&Callee] = Wrapper;
}

CallInst *AllocSiteLowering::emitCountdown(Instruction *Before, Value *Size,
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
  CallInst *Sample = TB.CreateCall(sampleFunction(), {Size, Type});
  Sample->addFnAttr(Attribute::Cold);
  return Sample;
}

} // namespace

PreservedAnalyses LowerAllocSitesPass::run(Module &M,
                                           ModuleAnalysisManager &) {
  return AllocSiteLowering(M, TLSModel).run() ? PreservedAnalyses::none()
                                              : PreservedAnalyses::all();
}
