//===- RuntimeThreadLocals.cpp - How code reaches the runtime's TLS -------===//

#include "RuntimeThreadLocals.h"

#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"

using namespace llvm;

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

} // namespace spinelprof
