//===- RuntimeThreadLocals.cpp - How code reaches the runtime's TLS -------===//

#include "RuntimeThreadLocals.h"

#include "AbiLayout.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"

using namespace llvm;
using namespace spinelprof::abi_layout;

// Mirrored from include/spinelprof/abi.h, the one owner of these values.
static const char ShadowStackSymbol[] = SPINELPROF_STACK_SYMBOL;

namespace spinelprof {

GlobalValue::ThreadLocalMode runtimeTLSModel(Module &M,
                                             const OptionValue &Choice) {
  if (Choice.Value == "initial-exec")
    return GlobalValue::InitialExecTLSModel;
  if (!Choice.Value.empty() && Choice.Value != "auto") {
    M.getContext().emitError("spinelprof: bad TLS model '" + Choice.Value +
                             "' in " + Choice.Origin +
                             ": want auto or initial-exec");
    return GlobalValue::InitialExecTLSModel;
  }
  bool ForExecutable = M.getPIELevel() != PIELevel::Default ||
                       M.getPICLevel() == PICLevel::NotPIC;
  return ForExecutable ? GlobalValue::LocalExecTLSModel
                       : GlobalValue::InitialExecTLSModel;
}

GlobalVariable *runtimeThreadLocal(Module &M, StringRef Name, Type *Ty,
                                   const OptionValue &Choice) {
  if (GlobalValue *Existing = M.getNamedValue(Name)) {
    auto *GV = dyn_cast<GlobalVariable>(Existing);
    if (!GV || !GV->isThreadLocal()) {
      M.getContext().emitError(Twine("spinelprof: '") + Name +
                               "' is defined in this module but is not a "
                               "thread-local variable");
      return nullptr;
    }
    return GV;
  }
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false,
                                GlobalValue::ExternalLinkage, nullptr, Name,
                                nullptr, runtimeTLSModel(M, Choice));
  GV->setAlignment(Align(8));
  return GV;
}

StructType *shadowStackType(LLVMContext &Ctx) {
  auto IRType = [&](IRField F) -> Type * {
    if (F == IRField::I32)
      return Type::getInt32Ty(Ctx);
    return PointerType::getUnqual(Ctx);
  };
  return StructType::get(
      Ctx, {IRType(ShadowStackFields[StackDepth]),
            IRType(ShadowStackFields[StackReserved]),
            ArrayType::get(IRType(ShadowStackFields[StackFrames]),
                           SPINELPROF_STACK_CAPACITY +
                               SPINELPROF_STACK_SINK_SLOTS)});
}

GlobalVariable *runtimeShadowStack(Module &M, const OptionValue &Choice) {
  return runtimeThreadLocal(M, ShadowStackSymbol,
                            shadowStackType(M.getContext()), Choice);
}

} // namespace spinelprof
