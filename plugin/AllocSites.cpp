//===- AllocSites.cpp - Marks allocation call sites for sampling ----------===//
//
// Before each marked call:
//
//   call void @__spinelprof_marker_alloc(i64 %size, ptr @"alloc Foo" descriptor)
//
// with the allocator call's source location, which LowerAllocSites.cpp
// turns into the countdown, a rarely taken branch and a cold call.
//
//===----------------------------------------------------------------------===//
#include "AllocSites.h"

#include "DescriptorStrings.h"
#include "FrameMarkers.h"
#include "RuntimeNames.h"
#include "SpinelNames.h"

#include "spinelprof/abi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstddef>

using namespace llvm;
using namespace spinelprof;

// Mirrored from include/spinelprof/abi.h: the runtime's state that the
// lowered marker touches.
static const char CountdownSymbol[] = SPINELPROF_ALLOC_COUNTDOWN_SYMBOL;
static const char SampleSymbol[] = SPINELPROF_ALLOC_SAMPLE_SYMBOL;

static const char AllocMarkerName[] = "__spinelprof_marker_alloc";
// The descriptor as {i32 x 4, ptr x 3}; InsertFrameMarkers.cpp checks every
// offset, this the two facts the layout below relies on.
static_assert(offsetof(spinelprof_frame_descriptor, name) ==
              4 * sizeof(uint32_t));
static_assert(sizeof(spinelprof_frame_descriptor) ==
              4 * sizeof(uint32_t) + 3 * sizeof(void *));

/// Metadata on a marked call, so a second run leaves it alone.
static const char MarkedKind[] = "spinelprof.alloc";

namespace {

/// The allocators whose calls are marked, and how each gives its size.
enum class Allocator {
  None,
  GC,      ///< sp_gc_alloc(size, finalizer, scan), sp_gc_alloc_nogc
  String,  ///< sp_str_alloc(size), sp_str_alloc_raw(size)
  Malloc,  ///< malloc(size)
  Calloc,  ///< calloc(n, size)
  Realloc, ///< realloc(p, size): the new size counts
};

Allocator allocatorByName(StringRef Name) {
  return StringSwitch<Allocator>(Name)
      .Case("sp_gc_alloc", Allocator::GC)
      .Case("sp_gc_alloc_nogc", Allocator::GC)
      .Case("sp_str_alloc", Allocator::String)
      .Case("sp_str_alloc_raw", Allocator::String)
      .Case("malloc", Allocator::Malloc)
      .Case("calloc", Allocator::Calloc)
      .Case("realloc", Allocator::Realloc)
      .Default(Allocator::None);
}

/// The argument positions that multiply to the size.
SmallVector<unsigned, 2> sizeArguments(Allocator A) {
  switch (A) {
  case Allocator::Calloc: return {0, 1};
  case Allocator::Realloc: return {1};
  case Allocator::None: return {};
  default: return {0};
  }
}

/// F as an allocator: by name, and only when its size parameters are
/// integers (a runtime whose sp_str_alloc takes a C string is not an
/// allocator by this rule; the allocator it calls is).
Allocator allocatorKind(const Function &F) {
  // A copy keeps its allocator's name before the dot (the lowering's
  // counting copy, sp_gc_alloc.spinelprof_site).
  Allocator A = allocatorByName(F.getName().split('.').first);
  for (unsigned Arg : sizeArguments(A))
    if (Arg >= F.arg_size() || !F.getArg(Arg)->getType()->isIntegerTy())
      return Allocator::None;
  return A;
}

/// Marks one module's allocation sites.
class AllocSiteMarker {
public:
  explicit AllocSiteMarker(Module &M);
  bool run();

private:
  void mark(CallBase &Call, Allocator A, Function &Caller);
  std::string typeName(CallBase &Call, Allocator A, Function &Caller) const;
  Constant *typeDescriptor(StringRef Type);
  Constant *getString(StringRef S);

  Module &M;
  LLVMContext &Ctx;
  Type *Int32Ty;
  Type *Int64Ty;
  PointerType *PtrTy;
  StructType *DescriptorTy;
  Function *Marker = nullptr;
  DescriptorStrings Strings;
};

AllocSiteMarker::AllocSiteMarker(Module &M)
    : M(M), Ctx(M.getContext()), Strings(M) {
  Int32Ty = Type::getInt32Ty(Ctx);
  Int64Ty = Type::getInt64Ty(Ctx);
  PtrTy = PointerType::getUnqual(Ctx);
  DescriptorTy = StructType::get(
      Ctx, {Int32Ty, Int32Ty, Int32Ty, Int32Ty, PtrTy, PtrTy, PtrTy});
}

bool AllocSiteMarker::run() {
  SmallVector<std::tuple<CallBase *, Allocator, Function *>, 32> Sites;
  for (Function &F : M) {
    if (F.isDeclaration() || F.getName().starts_with("__spinelprof") ||
        F.hasFnAttribute(Attribute::Naked))
      continue;
    // Inside an allocator or the GC an allocation is part of an outer one
    // (sp_gc_alloc's calloc) or the collector's own bookkeeping.
    if (allocatorKind(F) != Allocator::None || isGCFunctionName(F.getName()))
      continue;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *Call = dyn_cast<CallBase>(&I);
        if (!Call || Call->getMetadata(MarkedKind))
          continue;
        auto *Callee = dyn_cast<Function>(
            Call->getCalledOperand()->stripPointerCasts());
        if (!Callee)
          continue;
        Allocator A = allocatorKind(*Callee);
        if (A == Allocator::None ||
            Call->arg_size() < Callee->arg_size())
          continue;
        Sites.emplace_back(Call, A, &F);
      }
  }
  if (Sites.empty())
    return false;
  Marker = getAllocSiteMarker(M);
  if (!Marker)
    return false;
  for (auto &[Call, A, Caller] : Sites)
    mark(*Call, A, *Caller);
  return true;
}

Constant *AllocSiteMarker::getString(StringRef S) { return Strings.get(S); }

Constant *AllocSiteMarker::typeDescriptor(StringRef Type) {
  std::string Name = ("__spinelprof_alloc_type." + Type).str();
  if (auto *GV = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return GV;
  Constant *Empty = getString("");
  Constant *Fields[] = {
      ConstantInt::get(Int32Ty, SPINELPROF_ABI_VERSION),
      ConstantInt::get(Int32Ty, SPINELPROF_KIND_SYNTHETIC),
      ConstantInt::get(Int32Ty, 0),
      ConstantInt::get(Int32Ty, SPINELPROF_FLAG_ALLOC),
      getString(("alloc " + Type).str()),
      Empty,
      Empty,
  };
  // Not in the descriptor section: it stands for no function.
  auto *GV = new GlobalVariable(M, DescriptorTy, /*isConstant=*/true,
                                GlobalValue::PrivateLinkage,
                                ConstantStruct::get(DescriptorTy, Fields),
                                Name);
  GV->setAlignment(Align(8));
  return GV;
}

std::string AllocSiteMarker::typeName(CallBase &Call, Allocator A,
                                      Function &Caller) const {
  if (A == Allocator::String)
    return "String";
  if (std::string Class = constructorClass(Caller.getName()); !Class.empty())
    return Class;
  switch (A) {
  case Allocator::GC:
    if (Call.arg_size() >= 3)
      if (auto *Scan = dyn_cast<Function>(
              Call.getArgOperand(2)->stripPointerCasts()))
        if (std::string Class = scanCallbackClass(Scan->getName());
            !Class.empty())
          return Class;
    return "[object]";
  case Allocator::Malloc: return "[malloc]";
  case Allocator::Calloc: return "[calloc]";
  case Allocator::Realloc: return "[realloc]";
  default: return "[object]";
  }
}

void AllocSiteMarker::mark(CallBase &Call, Allocator A, Function &Caller) {
  IRBuilder<> B(&Call);
  Value *Size = nullptr;
  for (unsigned Arg : sizeArguments(A)) {
    Value *V = B.CreateZExtOrTrunc(Call.getArgOperand(Arg), Int64Ty,
                                   "spinelprof.alloc.arg");
    Size = Size ? B.CreateMul(Size, V, "spinelprof.alloc.size") : V;
  }
  B.CreateCall(Marker, {Size, typeDescriptor(typeName(Call, A, Caller))});
  Call.setMetadata(MarkedKind, MDNode::get(Ctx, {}));
}

} // namespace

static FunctionType *allocSiteMarkerType(LLVMContext &Ctx) {
  return FunctionType::get(
      Type::getVoidTy(Ctx),
      {Type::getInt64Ty(Ctx), PointerType::getUnqual(Ctx)}, false);
}

StringRef spinelprof::allocSiteMarkerName() { return AllocMarkerName; }

Function *spinelprof::getAllocSiteMarker(Module &M) {
  bool Declared = M.getFunction(AllocMarkerName);
  Function *F = declareMarker(M, AllocMarkerName,
                              allocSiteMarkerType(M.getContext()),
                              "spinelprof: allocation-site marker not lowered "
                              "(the plugin's lowering pass did not run)");
  if (!F || Declared)
    return F;
  // A module that names the countdown or the sample function itself (a
  // test standing in for the runtime, a program that reads the countdown)
  // can see what the lowered code does: to it the marker is a call like any
  // other, or loads of the countdown and of what the sample function wrote
  // would be moved past it, or folded, wrongly.
  if (M.getNamedValue(CountdownSymbol) || M.getNamedValue(SampleSymbol)) {
    F->removeFnAttr(Attribute::Memory);
    F->removeFnAttr(Attribute::NoCallback);
    F->removeFnAttr(Attribute::NoSync);
    F->removeFnAttr(Attribute::NoFree);
  }
  return F;
}

bool spinelprof::isAllocSiteMarker(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && Callee->getName() == AllocMarkerName &&
         Callee->getFunctionType() == allocSiteMarkerType(Call.getContext());
}

bool spinelprof::isMarkedAllocatorCall(const CallBase &Call) {
  return Call.getMetadata(MarkedKind) != nullptr;
}

std::optional<unsigned>
spinelprof::allocatorSizeArgument(const Function &F) {
  SmallVector<unsigned, 2> Args = sizeArguments(allocatorKind(F));
  if (Args.size() != 1)
    return std::nullopt;
  return Args.front();
}

std::string spinelprof::constructorClass(StringRef CName) {
  if (!CName.starts_with("sp_") || !CName.ends_with("_new"))
    return "";
  // A runtime container reads as its Ruby class (sp_StrArray_new -> Array).
  std::string Ruby = runtimeRubyName(CName);
  if (Ruby.empty())
    Ruby = rubyMethodName(CName);
  StringRef R(Ruby);
  if (!R.consume_back(".new") || R.empty())
    return "";
  return R.str();
}

std::string spinelprof::scanCallbackClass(StringRef CName) {
  StringRef Class = CName;
  if (!Class.consume_back("_gc_scan") || !Class.starts_with("sp_"))
    return "";
  return constructorClass((Class + "_new").str());
}

PreservedAnalyses AllocSitesPass::run(Module &M, ModuleAnalysisManager &) {
  if (!MarkAllocSites)
    return PreservedAnalyses::all();
  return AllocSiteMarker(M).run() ? PreservedAnalyses::none()
                                  : PreservedAnalyses::all();
}
