//===- RuntimeThreadLocals.cpp - How code reaches the runtime's TLS -------===//

#include "RuntimeThreadLocals.h"

#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace spinelprof {

GlobalVariable *runtimeThreadLocal(Module &M, StringRef Name, Type *Ty) {
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
                                nullptr, GlobalValue::InitialExecTLSModel);
  GV->setAlignment(Align(8));
  return GV;
}

} // namespace spinelprof
