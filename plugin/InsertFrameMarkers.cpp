//===- InsertFrameMarkers.cpp - Frame markers for the selected functions -===//
//
// For each function the frame policy selects, frame markers (FrameMarkers.h):
//
//   entry:   %d = call @__spinelprof_marker_push(@descriptor)
//   exits:   call @__spinelprof_marker_pop(%d)       (before ret / resume,
//                                                    or before a musttail
//                                                    call)
//   after a returns_twice call:
//            call @__spinelprof_marker_repush(@descriptor, %d)
//
// which LowerFrameMarkersPass, at the end of the optimizer, turns into the
// shadow-stack code abi.h specifies (see LowerFrameMarkers.h).
//
// Restoring the depth saved at entry, rather than decrementing, heals the
// frames that a longjmp skipped at the next return.
//
// SelfTailCallPopPass, later in the pipeline, moves the pop before a self
// tail call (see SelfTailCallPop.h).
//
//===----------------------------------------------------------------------===//

#include "InsertFrameMarkers.h"

#include "AbiLayout.h"
#include "BlockCreators.h"
#include "DescriptorStrings.h"
#include "FrameMarkers.h"
#include "FramePolicy.h"
#include "SpinelNames.h"
#include "SymbolMap.h"

#include "spinelprof/abi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstddef>
#include <optional>

using namespace llvm;
using namespace spinelprof;
using namespace spinelprof::abi_layout;

// Mirrored from include/spinelprof/abi.h, the one owner of these values.
static const char DescriptorSection[] = SPINELPROF_DESCRIPTOR_SECTION;
static const uint32_t AbiVersion = SPINELPROF_ABI_VERSION;

namespace {

//===----------------------------------------------------------------------===//
// The worker
//===----------------------------------------------------------------------===//

/// Instruments one module: holds the IR types, the markers and the
/// interned strings for the duration of one run.
class ShadowStackInstrumenter {
public:
  ShadowStackInstrumenter(Module &M, const FramePolicy &Policy,
                          const SymbolMap *Symbols,
                          bool CompilingRuntimeLibrary);

  /// Returns true when the module changed.
  bool run();

private:
  void instrument(Function &F);
  GlobalVariable *createDescriptor(Function &F, uint32_t Flags = 0);
  Constant *getString(StringRef S);
  Type *irType(IRField F) const { return F == IRField::I32 ? Int32Ty : PtrTy; }

  Module &M;
  LLVMContext &Ctx;
  const FramePolicy &Policy;
  const SymbolMap *Symbols;
  bool CompilingRuntimeLibrary;
  BlockCreators Blocks;

  Type *Int32Ty;
  PointerType *PtrTy;
  StructType *DescriptorTy;

  Function *PushMarker = nullptr;
  Function *PopMarker = nullptr;
  Function *RepushMarker = nullptr;
  DescriptorStrings Strings;
  SmallVector<GlobalValue *, 32> Descriptors;
};

ShadowStackInstrumenter::ShadowStackInstrumenter(
    Module &M, const FramePolicy &Policy, const SymbolMap *Symbols,
    bool CompilingRuntimeLibrary)
    : M(M), Ctx(M.getContext()), Policy(Policy), Symbols(Symbols),
      CompilingRuntimeLibrary(CompilingRuntimeLibrary),
      Blocks(Symbols, CompilingRuntimeLibrary), Strings(M) {
  Int32Ty = Type::getInt32Ty(Ctx);
  PtrTy = PointerType::getUnqual(Ctx);
  // Literal (unnamed) struct types are uniqued by shape, so a second run,
  // or a run on this pass's own output, does not create `.0` copies.
  SmallVector<Type *, 8> Fields;
  for (IRField F : DescriptorFields)
    Fields.push_back(irType(F));
  DescriptorTy = StructType::get(Ctx, Fields);
}

bool ShadowStackInstrumenter::run() {
  SmallVector<Function *, 64> Selected, PcNamed;
  for (Function &F : M)
    switch (Policy.choose(F)) {
    case FrameChoice::Push:
      Selected.push_back(&F);
      break;
    case FrameChoice::PcNamed:
      PcNamed.push_back(&F);
      break;
    case FrameChoice::None:
      break;
    }
  if (Selected.empty() && PcNamed.empty())
    return false;
  if (!Selected.empty()) {
    PushMarker = getFrameMarker(M, FrameMarker::Push);
    PopMarker = getFrameMarker(M, FrameMarker::Pop);
    RepushMarker = getFrameMarker(M, FrameMarker::Repush);
    if (!PushMarker || !PopMarker || !RepushMarker)
      return false;
  }
  for (Function *F : Selected)
    instrument(*F);
  // A PC-named leaf: only its descriptor, which the runtime finds by name.
  for (Function *F : PcNamed) {
    createDescriptor(*F, SPINELPROF_FLAG_PC_NAMED);
    F->addFnAttr(PcNamedAttr);
  }
  // Nothing in the IR reads a descriptor the optimizer could see; keep them
  // for the runtime's walk over the section.
  appendToCompilerUsed(M, Descriptors);
  return true;
}

Constant *ShadowStackInstrumenter::getString(StringRef S) { return Strings.get(S); }

GlobalVariable *ShadowStackInstrumenter::createDescriptor(Function &F,
                                                          uint32_t Flags) {
  StringRef CName = F.getName();
  DefinitionSite Site = getDefinitionSite(F, CompilingRuntimeLibrary);
  FrameIdentity Frame = identifyFrame(CName, Site.IsProgramOwn);
  // A proc, lambda or fiber body is named after the method that creates it.
  if (Frame.Kind == SPINELPROF_KIND_BLOCK)
    if (std::string Named = Blocks.displayName(F); !Named.empty())
      Frame.DisplayName = std::move(Named);
  if (const SymbolMapEntry *Entry = Symbols ? Symbols->lookup(CName) : nullptr) {
    if (!Entry->RubyName.empty())
      Frame = {Entry->RubyName, kindOfMappedFrame(CName, Entry->RubyName)};
    if (!Entry->File.empty())
      Site.File = Entry->File;
    if (Entry->Line)
      Site.Line = *Entry->Line;
  }

  Constant *Fields[] = {
      ConstantInt::get(Int32Ty, AbiVersion),
      ConstantInt::get(Int32Ty, Frame.Kind),
      ConstantInt::get(Int32Ty, Site.Line),
      ConstantInt::get(Int32Ty, Flags),
      getString(Frame.DisplayName),
      getString(CName),
      getString(Site.File),
  };
  auto *GV = new GlobalVariable(
      M, DescriptorTy, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantStruct::get(DescriptorTy, Fields), "__spinelprof_desc." + CName);
  GV->setSection(DescriptorSection);
  GV->setAlignment(Align(8));
  // Discarded together with the function when the linker drops a duplicate.
  if (Comdat *C = F.getComdat())
    GV->setComdat(C);
  Descriptors.push_back(GV);
  return GV;
}

void ShadowStackInstrumenter::instrument(Function &F) {
  GlobalVariable *Desc = createDescriptor(F);

  // Find the exits and setjmp-like calls before inserting anything.
  SmallVector<Instruction *, 8> Exits;
  SmallVector<CallBase *, 4> ReturnsTwiceCalls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (isa<ReturnInst>(I) || isa<ResumeInst>(I))
        Exits.push_back(&I);
      else if (auto *Call = dyn_cast<CallBase>(&I))
        if (isReturnsTwiceCall(*Call))
          ReturnsTwiceCalls.push_back(Call);
    }

  // Push, after the entry block's static allocas so they stay static.
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
  Value *Depth = B.CreateCall(PushMarker, {Desc}, "spinelprof.depth");

  // Pop: restore the depth saved at entry.
  for (Instruction *Exit : Exits) {
    Instruction *Before = Exit;
    // Nothing may come between a musttail call and its ret.
    if (isa<ReturnInst>(Exit))
      if (CallInst *TailCall = Exit->getParent()->getTerminatingMustTailCall())
        Before = TailCall;
    IRBuilder<> ExitB(Before);
    ExitB.CreateCall(PopMarker, {Depth});
  }

  // A longjmp back into this function returns from setjmp with whatever the
  // callees left on the stack: make this frame the top again.
  for (CallBase *Call : ReturnsTwiceCalls) {
    BasicBlock::iterator After;
    if (auto *Invoke = dyn_cast<InvokeInst>(Call)) {
      BasicBlock *Normal = Invoke->getNormalDest();
      if (!Normal->getSinglePredecessor())
        Normal = SplitEdge(Invoke->getParent(), Normal);
      After = Normal->getFirstInsertionPt();
    } else {
      After = std::next(Call->getIterator());
    }
    IRBuilder<> AfterB(After->getParent(), After);
    AfterB.SetCurrentDebugLocation(Call->getDebugLoc());
    AfterB.CreateCall(RepushMarker, {Desc, Depth});
  }

  F.addFnAttr(InstrumentedAttr);
}

} // namespace

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

PreservedAnalyses InsertFrameMarkersPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  Expected<FramePolicy> Policy = FramePolicy::create(Options.Policy);
  if (!Policy) {
    Ctx.emitError(toString(Policy.takeError()));
    return PreservedAnalyses::all();
  }

  std::optional<SymbolMap> Symbols;
  if (!Options.Symbols.Value.empty()) {
    Expected<SymbolMap> Map = SymbolMap::load(Options.Symbols.Value);
    if (!Map) {
      Ctx.emitError("spinelprof: bad symbol map (" + Options.Symbols.Origin +
                    "): " + toString(Map.takeError()));
      return PreservedAnalyses::all();
    }
    Symbols = std::move(*Map);
  }

  bool Changed = ShadowStackInstrumenter(M, *Policy,
                                         Symbols ? &*Symbols : nullptr,
                                         Options.Policy.CompilingRuntimeLibrary)
                     .run();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

