//===- SpinelProfPass.cpp - Shadow-stack instrumentation for Spinel C -----===//
//
// For each function the frame policy selects:
//
//   entry:   %off   = load threadlocal.address(@__spinelprof_stack_offset)
//            %stack = threadlocal.address(@__spinelprof_stack) + %off
//            %d     = load depth
//            %g     = load gen
//            %i     = select (%d < CAPACITY), %d, CAPACITY  ; slot CAPACITY
//                                                          ; is the sink
//            store volatile %g + 1, gen
//            store volatile @descriptor, frames[%i]
//            store volatile %d + 1, depth
//   exits:   store volatile %d, depth          (before ret / resume, or
//                                              before a musttail call)
//   after a returns_twice call: gen loaded again, and the entry's three
//            stores
//
// Every load and store of the stack carries a TBAA type of its own.
//
// Restoring the depth saved at entry, rather than decrementing, heals the
// frames that a longjmp skipped at the next return.
//
// A signal handler reads the stack and nothing in the IR says so. Volatile
// stores are never deleted (in a leaf with no calls, dead-store elimination
// would otherwise delete the push's depth store, which the pop overwrites)
// and never reordered with each other: gen is bumped before the slot is
// written, and the slot before the depth publishes it, which is what lets
// the sampler thread copy the stack exactly from outside (abi.h; x86-64
// keeps one thread's stores in that order for every other CPU). They are not atomic: LLVM's alias analysis answers "may
// read and write everything" for any store stronger than unordered, while
// for a volatile store it asks whether the addresses may alias, and the
// TBAA type, under clang's root beside int, long, double and pointers, says
// no. So the program's own fields stay in registers across an inlined push
// and pop (docs/performance.md measures what that is worth).
//
// SelfTailCallPopPass, later in the pipeline, moves the pop before a self
// tail call (see SpinelProfPass.h).
//
//===----------------------------------------------------------------------===//

#include "SpinelProfPass.h"

#include "BlockCreators.h"
#include "DescriptorStrings.h"
#include "FramePolicy.h"
#include "SpinelNames.h"
#include "SymbolMap.h"

#include "spinelprof/abi.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstddef>
#include <cstdlib>
#include <optional>

using namespace llvm;
using namespace spinelprof;

// Mirrored from include/spinelprof/abi.h, the one owner of these values.
static const char DescriptorSection[] = SPINELPROF_DESCRIPTOR_SECTION;
static const char ShadowStackSymbol[] = SPINELPROF_STACK_SYMBOL;
static const char StackOffsetSymbol[] = SPINELPROF_STACK_OFFSET_SYMBOL;
static const uint32_t AbiVersion = SPINELPROF_ABI_VERSION;
static const uint32_t StackCapacity = SPINELPROF_STACK_CAPACITY;

// The name of the TBAA type of every access to the shadow stack; it also
// tells SelfTailCallPopPass which stores are the instrumentation's.
static const char StackTBAATypeName[] = "spinelprof shadow stack";

//===----------------------------------------------------------------------===//
// The IR layout of the ABI structs, checked against abi.h at build time.
//===----------------------------------------------------------------------===//

namespace {

/// A field of an IR struct the pass builds. The types are built from the
/// lists below, and the static_asserts prove the lists describe abi.h's
/// structs, so a change on either side fails the plugin's build.
enum class IRField { I32, Ptr };

constexpr IRField DescriptorFields[] = {IRField::I32, IRField::I32,
                                        IRField::I32, IRField::I32,
                                        IRField::Ptr, IRField::Ptr,
                                        IRField::Ptr};
/// {depth, gen, frames[CAPACITY + 1]}; the last entry is the array's
/// element type.
constexpr IRField ShadowStackFields[] = {IRField::I32, IRField::I32,
                                         IRField::Ptr};

enum DescriptorField : unsigned {
  DescAbiVersion,
  DescKind,
  DescLine,
  DescFlags,
  DescName,
  DescCName,
  DescFile
};
enum ShadowStackField : unsigned { StackDepth, StackGen, StackFrames };

constexpr size_t fieldSize(IRField F) {
  return F == IRField::I32 ? sizeof(uint32_t) : sizeof(void *);
}

/// The offset of field \p Index under the natural alignment LLVM's default
/// data layouts give i32 and ptr on the host.
constexpr size_t fieldOffset(const IRField *Fields, size_t Index) {
  size_t Offset = 0;
  for (size_t I = 0;; ++I) {
    size_t Size = fieldSize(Fields[I]);
    Offset = (Offset + Size - 1) / Size * Size;
    if (I == Index)
      return Offset;
    Offset += Size;
  }
}

using Descriptor = spinelprof_frame_descriptor;
static_assert(std::size(DescriptorFields) == DescFile + 1);
static_assert(fieldOffset(DescriptorFields, DescAbiVersion) ==
              offsetof(Descriptor, abi_version));
static_assert(fieldOffset(DescriptorFields, DescKind) ==
              offsetof(Descriptor, kind));
static_assert(fieldOffset(DescriptorFields, DescLine) ==
              offsetof(Descriptor, line));
static_assert(fieldOffset(DescriptorFields, DescFlags) ==
              offsetof(Descriptor, flags));
static_assert(fieldOffset(DescriptorFields, DescName) ==
              offsetof(Descriptor, name));
static_assert(fieldOffset(DescriptorFields, DescCName) ==
              offsetof(Descriptor, c_name));
static_assert(fieldOffset(DescriptorFields, DescFile) ==
              offsetof(Descriptor, file));
static_assert(fieldOffset(DescriptorFields, DescFile) + sizeof(void *) ==
              sizeof(Descriptor));

using ShadowStack = spinelprof_shadow_stack;
static_assert(std::size(ShadowStackFields) == StackFrames + 1);
static_assert(fieldOffset(ShadowStackFields, StackDepth) ==
              offsetof(ShadowStack, depth));
static_assert(fieldOffset(ShadowStackFields, StackGen) ==
              offsetof(ShadowStack, gen));
static_assert(fieldOffset(ShadowStackFields, StackFrames) ==
              offsetof(ShadowStack, frames));
static_assert(sizeof(ShadowStack) ==
              offsetof(ShadowStack, frames) +
                  (StackCapacity + 1) * sizeof(void *));
static_assert(sizeof(ShadowStack::depth) == sizeof(uint32_t));
static_assert(sizeof(ShadowStack::gen) == sizeof(uint32_t));
// The pass loads the offset as an i64.
static_assert(sizeof(__spinelprof_stack_offset) == sizeof(uint64_t));
// The pass addresses the depth as the stack's own address.
static_assert(StackDepth == 0 && offsetof(ShadowStack, depth) == 0);

} // namespace

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static cl::opt<std::string> ClInclude(
    "spinelprof-include",
    cl::desc("Give frames only to functions whose C name matches this POSIX "
             "extended regular expression (whole name); also "
             "SPINEL_PROFILE_INCLUDE"));
static cl::opt<std::string> ClExclude(
    "spinelprof-exclude",
    cl::desc("Give no frame to functions whose C name matches this POSIX "
             "extended regular expression (whole name); wins over include; "
             "also SPINEL_PROFILE_EXCLUDE"));
static cl::opt<std::string> ClFrames(
    "spinelprof-frames",
    cl::desc("Which functions get a frame: 'default' (the program's own "
             "functions, GC entry points, large runtime helpers), 'lean' "
             "(also not the program's inline functions) or 'all'; also "
             "SPINEL_PROFILE_FRAMES"));
static cl::opt<std::string> ClSymbols(
    "spinelprof-symbols",
    cl::desc("Spinel symbol map (JSON, C symbol to Ruby name) whose names win "
             "over the naming rules; also SPINEL_PROFILE_SYMBOLS"));

namespace {

/// Everything the pass is told, from the command line or the environment.
struct SpinelProfOptions {
  FramePolicyOptions Policy;
  OptionValue Symbols; // The map's path.
};

/// The option's value when given on the command line, else the environment
/// variable's, else empty.
OptionValue pickOption(const cl::opt<std::string> &Cl, const char *EnvName) {
  if (Cl.getNumOccurrences())
    return {Cl.getValue(), ("-" + Cl.ArgStr).str()};
  if (const char *Env = std::getenv(EnvName))
    return {Env, EnvName};
  return {};
}

/// Merges command-line options and environment; -mllvm options win.
SpinelProfOptions readOptions() {
  SpinelProfOptions Options;
  Options.Policy.Include = pickOption(ClInclude, "SPINEL_PROFILE_INCLUDE");
  Options.Policy.Exclude = pickOption(ClExclude, "SPINEL_PROFILE_EXCLUDE");
  Options.Policy.Frames = pickOption(ClFrames, "SPINEL_PROFILE_FRAMES");
  Options.Symbols = pickOption(ClSymbols, "SPINEL_PROFILE_SYMBOLS");
  return Options;
}

/// True for a call that can return twice: returns_twice on the call or the
/// callee, or a callee known by name (a hand-written declaration may lack
/// the attribute that clang gives the well-known ones).
bool isReturnsTwiceCall(const CallBase &Call) {
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

//===----------------------------------------------------------------------===//
// The worker
//===----------------------------------------------------------------------===//

/// Instruments one module: holds the IR types, the shadow-stack global and
/// the interned strings for the duration of one run.
class ShadowStackInstrumenter {
public:
  ShadowStackInstrumenter(Module &M, const FramePolicy &Policy,
                          const SymbolMap *Symbols);

  /// Returns true when the module changed.
  bool run();

private:
  void instrument(Function &F);
  GlobalVariable *createDescriptor(Function &F, uint32_t Flags = 0);
  Constant *getString(StringRef S);
  Value *getShadowStack();
  Value *getStackOffset();
  /// Emits a volatile store to the shadow stack, tagged with its TBAA type.
  void storeToStack(IRBuilder<> &B, Value *V, Value *Addr, Align A);
  Type *irType(IRField F) const { return F == IRField::I32 ? Int32Ty : PtrTy; }

  Module &M;
  LLVMContext &Ctx;
  const FramePolicy &Policy;
  const SymbolMap *Symbols;
  BlockCreators Blocks;

  Type *Int32Ty;
  Type *Int64Ty;
  PointerType *PtrTy;
  StructType *DescriptorTy;
  StructType *ShadowStackTy;
  /// The access tag of every load and store of the shadow stack.
  MDNode *StackTBAA;

  Value *StackGlobal = nullptr;
  Value *OffsetGlobal = nullptr;
  DescriptorStrings Strings;
  SmallVector<GlobalValue *, 32> Descriptors;
};

ShadowStackInstrumenter::ShadowStackInstrumenter(Module &M,
                                                 const FramePolicy &Policy,
                                                 const SymbolMap *Symbols)
    : M(M), Ctx(M.getContext()), Policy(Policy), Symbols(Symbols),
      Blocks(Symbols), Strings(M) {
  Int32Ty = Type::getInt32Ty(Ctx);
  Int64Ty = Type::getInt64Ty(Ctx);
  PtrTy = PointerType::getUnqual(Ctx);
  // Literal (unnamed) struct types are uniqued by shape, so a second run,
  // or a run on this pass's own output, does not create `.0` copies.
  SmallVector<Type *, 8> Fields;
  for (IRField F : DescriptorFields)
    Fields.push_back(irType(F));
  DescriptorTy = StructType::get(Ctx, Fields);
  ShadowStackTy = StructType::get(
      Ctx, {irType(ShadowStackFields[StackDepth]),
            irType(ShadowStackFields[StackGen]),
            ArrayType::get(irType(ShadowStackFields[StackFrames]),
                           StackCapacity + 1)});
  // A scalar type of its own under clang's C/C++ root and `omnipotent
  // char` (metadata is uniqued, so these are clang's own nodes): distinct
  // from every C type but char, which may alias anything.
  MDBuilder MDB(Ctx);
  MDNode *Char = MDB.createTBAAScalarTypeNode(
      "omnipotent char", MDB.createTBAARoot("Simple C/C++ TBAA"));
  MDNode *StackType =
      MDB.createTBAAScalarTypeNode(StackTBAATypeName, Char);
  StackTBAA = MDB.createTBAAStructTagNode(StackType, StackType, 0);
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
  if (!Selected.empty() && (!getShadowStack() || !getStackOffset()))
    return false;
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

Value *ShadowStackInstrumenter::getShadowStack() {
  if (StackGlobal)
    return StackGlobal;
  if (GlobalValue *Existing = M.getNamedValue(ShadowStackSymbol)) {
    // The runtime, or a test standing in for it, defines it in this module.
    auto *GV = dyn_cast<GlobalVariable>(Existing);
    if (!GV || !GV->isThreadLocal()) {
      Ctx.emitError(Twine("spinelprof: '") + ShadowStackSymbol +
                    "' is defined in this module but is not a thread-local "
                    "variable");
      return nullptr;
    }
    return StackGlobal = GV;
  }
  auto *GV = new GlobalVariable(M, ShadowStackTy, /*isConstant=*/false,
                                GlobalValue::ExternalLinkage, nullptr,
                                ShadowStackSymbol, nullptr,
                                GlobalValue::InitialExecTLSModel);
  GV->setAlignment(Align(8));
  return StackGlobal = GV;
}

Value *ShadowStackInstrumenter::getStackOffset() {
  if (OffsetGlobal)
    return OffsetGlobal;
  if (GlobalValue *Existing = M.getNamedValue(StackOffsetSymbol)) {
    auto *GV = dyn_cast<GlobalVariable>(Existing);
    if (!GV || !GV->isThreadLocal()) {
      Ctx.emitError(Twine("spinelprof: '") + StackOffsetSymbol +
                    "' is defined in this module but is not a thread-local "
                    "variable");
      return nullptr;
    }
    return OffsetGlobal = GV;
  }
  auto *GV = new GlobalVariable(M, Int64Ty, /*isConstant=*/false,
                                GlobalValue::ExternalLinkage, nullptr,
                                StackOffsetSymbol, nullptr,
                                GlobalValue::InitialExecTLSModel);
  GV->setAlignment(Align(8));
  return OffsetGlobal = GV;
}

Constant *ShadowStackInstrumenter::getString(StringRef S) { return Strings.get(S); }

GlobalVariable *ShadowStackInstrumenter::createDescriptor(Function &F,
                                                          uint32_t Flags) {
  StringRef CName = F.getName();
  DefinitionSite Site = getDefinitionSite(F);
  FrameIdentity Frame = identifyFrame(CName, Site.IsProgramOwn);
  // A proc, lambda or fiber body is named after the method that creates it.
  if (Frame.Kind == SPINELPROF_KIND_BLOCK)
    if (std::string Named = Blocks.displayName(F); !Named.empty())
      Frame.DisplayName = std::move(Named);
  if (const SymbolMapEntry *Entry = Symbols ? Symbols->lookup(CName) : nullptr) {
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

void ShadowStackInstrumenter::storeToStack(IRBuilder<> &B, Value *V,
                                           Value *Addr, Align A) {
  B.CreateAlignedStore(V, Addr, A, /*isVolatile=*/true)
      ->setMetadata(LLVMContext::MD_tbaa, StackTBAA);
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
  // The stack in use (the thread's own, or a running fiber's): one more
  // load, from the same initial-exec TLS block.
  Value *OwnStack = B.CreateThreadLocalAddress(getShadowStack());
  OwnStack->setName("spinelprof.own");
  LoadInst *Offset = B.CreateAlignedLoad(
      Int64Ty, B.CreateThreadLocalAddress(getStackOffset()), Align(8),
      "spinelprof.offset");
  Offset->setMetadata(LLVMContext::MD_tbaa, StackTBAA);
  // Not inbounds: a fiber's stack lies outside the TLS object.
  Value *StackAddr =
      B.CreateGEP(B.getInt8Ty(), OwnStack, Offset, "spinelprof.stack");
  LoadInst *Depth =
      B.CreateAlignedLoad(Int32Ty, StackAddr, Align(4), "spinelprof.depth");
  Depth->setMetadata(LLVMContext::MD_tbaa, StackTBAA);
  Value *Capacity = B.getInt32(StackCapacity);
  Value *Index =
      B.CreateSelect(B.CreateICmpULT(Depth, Capacity, "spinelprof.inbounds"),
                     Depth, Capacity, "spinelprof.index");
  Value *Slot = B.CreateInBoundsGEP(
      ShadowStackTy, StackAddr,
      {B.getInt64(0), B.getInt32(StackFrames),
       B.CreateZExt(Index, Int64Ty, "spinelprof.index64")},
      "spinelprof.slot");
  Value *Next = B.CreateAdd(Depth, B.getInt32(1), "spinelprof.next");
  Value *GenAddr = B.CreateConstInBoundsGEP2_32(ShadowStackTy, StackAddr, 0,
                                                StackGen, "spinelprof.genp");
  // The generation is loaded at each push, never reused from the entry's:
  // the callees bumped it since.
  auto EmitPush = [&](IRBuilder<> &At) {
    LoadInst *Gen =
        At.CreateAlignedLoad(Int32Ty, GenAddr, Align(4), "spinelprof.gen");
    Gen->setMetadata(LLVMContext::MD_tbaa, StackTBAA);
    storeToStack(At, At.CreateAdd(Gen, At.getInt32(1), "spinelprof.nextgen"),
                 GenAddr, Align(4));
    storeToStack(At, Desc, Slot, Align(8));
    storeToStack(At, Next, StackAddr, Align(4));
  };
  EmitPush(B);

  // Pop: restore the depth saved at entry.
  for (Instruction *Exit : Exits) {
    Instruction *Before = Exit;
    // Nothing may come between a musttail call and its ret.
    if (isa<ReturnInst>(Exit))
      if (CallInst *TailCall = Exit->getParent()->getTerminatingMustTailCall())
        Before = TailCall;
    IRBuilder<> ExitB(Before);
    storeToStack(ExitB, Depth, StackAddr, Align(4));
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
    EmitPush(AfterB);
  }

  F.addFnAttr(InstrumentedAttr);
}

} // namespace

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

PreservedAnalyses SpinelProfPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  SpinelProfOptions Options = readOptions();

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

  bool Changed =
      ShadowStackInstrumenter(M, *Policy, Symbols ? &*Symbols : nullptr).run();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===----------------------------------------------------------------------===//
// Pop before self tail calls
//===----------------------------------------------------------------------===//

namespace {

/// True for a store the instrumentation emitted (a push's or a pop's): its
/// TBAA access type is the shadow stack's.
bool isStackStore(const Instruction &I) {
  const auto *Store = dyn_cast<StoreInst>(&I);
  if (!Store)
    return false;
  const MDNode *Tag = Store->getMetadata(LLVMContext::MD_tbaa);
  if (!Tag || Tag->getNumOperands() < 3)
    return false;
  const auto *Type = dyn_cast<MDNode>(Tag->getOperand(1));
  const auto *Name =
      Type && Type->getNumOperands() ? dyn_cast<MDString>(Type->getOperand(0))
                                     : nullptr;
  return Name && Name->getString() == StackTBAATypeName;
}

/// Scans [\p It, terminator) for what may follow a tail call: pops (stack
/// stores), and instructions that neither touch memory nor have side
/// effects. Appends the pops to \p Pops; false on anything else.
bool scanTail(BasicBlock::iterator It, BasicBlock *BB,
              SmallVectorImpl<StoreInst *> &Pops) {
  for (; &*It != BB->getTerminator(); ++It) {
    Instruction &I = *It;
    if (isStackStore(I)) {
      Pops.push_back(cast<StoreInst>(&I));
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
bool popBeforeSelfTailCall(CallInst &Call, DominatorTree &DT) {
  BasicBlock *BB = Call.getParent();
  SmallVector<StoreInst *, 2> Pops;
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
  // Only this function's pop: the depth it loaded at entry, stored back.
  // (The push and pop of a function inlined after the call store other
  // values; that call is not a tail call.)
  StoreInst *Model = Pops.front();
  for (StoreInst *Pop : Pops)
    if (Pop->getValueOperand() != Model->getValueOperand() ||
        Pop->getPointerOperand() != Model->getPointerOperand() ||
        !Pop->getValueOperand()->getType()->isIntegerTy(32))
      return false;
  // The depth must be available before the call.
  for (Value *Op : Model->operands())
    if (auto *Def = dyn_cast<Instruction>(Op))
      if (Def->getParent() == RetBlock || !DT.dominates(Def, &Call))
        return false;

  Model->clone()->insertBefore(Call.getIterator());
  if (RetBlock)
    // This path gets its own copy of the return block, pop included.
    FoldReturnIntoUncondBranch(cast<ReturnInst>(RetBlock->getTerminator()),
                               RetBlock, BB);
  // The callee restores the depth it found, the one just stored: the pops
  // after the call are redundant, and would keep it from being a tail call.
  SmallVector<Instruction *, 4> Dead;
  for (Instruction &I : make_range(std::next(Call.getIterator()), BB->end()))
    if (isStackStore(I))
      Dead.push_back(&I);
  for (Instruction *I : Dead)
    I->eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses SelfTailCallPopPass::run(Function &F,
                                           FunctionAnalysisManager &) {
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
  bool Changed = false;
  DominatorTree DT(F);
  for (CallInst *Call : SelfCalls)
    if (popBeforeSelfTailCall(*Call, DT)) {
      Changed = true;
      // Folding a return block into its predecessor changed the CFG.
      DT.recalculate(F);
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
