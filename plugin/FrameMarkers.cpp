//===- FrameMarkers.cpp - Push and pop as calls until the pipeline's end --===//
//
// See FrameMarkers.h.
//
//===----------------------------------------------------------------------===//

#include "FrameMarkers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ModRef.h"

using namespace llvm;
using namespace spinelprof;

static const char PushName[] = "__spinelprof_marker_push";
static const char PopName[] = "__spinelprof_marker_pop";
static const char RepushName[] = "__spinelprof_marker_repush";

StringRef spinelprof::frameMarkerName(FrameMarker Kind) {
  switch (Kind) {
  case FrameMarker::Push:
    return PushName;
  case FrameMarker::Pop:
    return PopName;
  case FrameMarker::Repush:
    return RepushName;
  }
  llvm_unreachable("unknown frame marker");
}

static FunctionType *markerType(LLVMContext &Ctx, FrameMarker Kind) {
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  switch (Kind) {
  case FrameMarker::Push:
    return FunctionType::get(I32, {Ptr}, false);
  case FrameMarker::Pop:
    return FunctionType::get(Void, {I32}, false);
  case FrameMarker::Repush:
    return FunctionType::get(Void, {Ptr, I32}, false);
  }
  llvm_unreachable("unknown frame marker");
}

Function *spinelprof::declareMarker(Module &M, StringRef Name,
                                    FunctionType *Ty, StringRef NotLowered) {
  if (Function *F = M.getFunction(Name))
    if (F->getFunctionType() == Ty && F->isDeclaration())
      return F;
  if (M.getNamedValue(Name)) {
    M.getContext().emitError(Twine("spinelprof: '") + Name +
                             "' is defined in this module, or with another "
                             "type; the name is spinelprof's");
    return nullptr;
  }
  Function *F =
      Function::Create(Ty, GlobalValue::ExternalLinkage, Name, M);
  // What the lowered code does, as far as the program can tell: it touches
  // none of the program's memory, returns, and does nothing else.
  F->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->addFnAttr(Attribute::NoCallback);
  F->addFnAttr(Attribute::NoSync);
  F->addFnAttr(Attribute::NoFree);
  // Two pops on two paths stay two pops (SimplifyCFG would otherwise sink
  // them into one, with a phi of their depths).
  F->addFnAttr(Attribute::NoMerge);
  // The inliner counts a marker as nothing (a call would cost it 30 of
  // its 225 points), so clang inlines what it inlines without the
  // profiler: the profile shows the program's own inlining, and the
  // frame costs no inlining decision.
  F->addFnAttr("call-inline-cost", "0");
  // Code generation reports a call that was not lowered (llc, and clang
  // where the call has a source location), instead of leaving an
  // undefined symbol for the linker.
  F->addFnAttr("dontcall-error", NotLowered);
  return F;
}

Function *spinelprof::getFrameMarker(Module &M, FrameMarker Kind) {
  return declareMarker(M, frameMarkerName(Kind),
                       markerType(M.getContext(), Kind),
                       "spinelprof: frame marker not lowered (the plugin's "
                       "lowering pass did not run)");
}

void spinelprof::widenLoweredMemoryEffects(Module &M) {
  // LangRef counts a volatile store as possible synchronisation, and the
  // allocation sample is a call the optimizer knows nothing of: say so,
  // for whatever reads the attributes after the lowering.
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    MemoryEffects ME = F.getMemoryEffects();
    if (!isModSet(ME.getModRef(IRMemLocation::InaccessibleMem)))
      continue;
    MemoryEffects Wide =
        ME | MemoryEffects(IRMemLocation::Other, ModRefInfo::ModRef);
    if (Wide != ME)
      F.setMemoryEffects(Wide);
    F.removeFnAttr(Attribute::NoSync);
  }
}

std::optional<FrameMarker> spinelprof::frameMarkerOf(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->getName().starts_with("__spinelprof_marker_"))
    return std::nullopt;
  for (FrameMarker Kind :
       {FrameMarker::Push, FrameMarker::Pop, FrameMarker::Repush})
    if (Callee->getName() == frameMarkerName(Kind) &&
        Callee->getFunctionType() == markerType(Call.getContext(), Kind))
      return Kind;
  return std::nullopt;
}

/// True for a call that can return twice: returns_twice on the call or the
/// callee, or a callee known by name (a hand-written declaration may lack
/// the attribute that clang gives the well-known ones).
bool spinelprof::isReturnsTwiceCall(const CallBase &Call) {
  if (Call.hasFnAttr(Attribute::ReturnsTwice))
    return true;
  const auto *Callee =
      dyn_cast<Function>(Call.getCalledOperand()->stripPointerCasts());
  if (!Callee)
    return false;
  static const StringRef Names[] = {"setjmp",      "_setjmp", "sigsetjmp",
                                    "__sigsetjmp", "savectx", "vfork",
                                    "getcontext",  "qsetjmp"};
  return is_contained(Names, Callee->getName());
}
