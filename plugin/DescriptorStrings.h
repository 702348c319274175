//===- DescriptorStrings.h - The strings frame descriptors point at -*- C++ -*-===//
//
// Frame and allocation-type descriptors hold pointers to their name, C name
// and file. Each distinct string becomes one private, unnamed_addr constant
// per module, shared by every descriptor (and every pass) that uses it.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_DESCRIPTORSTRINGS_H
#define SPINELPROF_DESCRIPTORSTRINGS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

namespace spinelprof {

/// The module's descriptor strings, created on first use.
class DescriptorStrings {
public:
  explicit DescriptorStrings(llvm::Module &M) : M(M) {}

  /// A NUL-terminated constant holding S.
  llvm::Constant *get(llvm::StringRef S) {
    llvm::GlobalVariable *&GV = Strings[S];
    if (!GV) {
      llvm::Constant *Data = llvm::ConstantDataArray::getString(
          M.getContext(), S, /*AddNull=*/true);
      GV = new llvm::GlobalVariable(M, Data->getType(), /*isConstant=*/true,
                                    llvm::GlobalValue::PrivateLinkage, Data,
                                    "__spinelprof_str");
      GV->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
      GV->setAlignment(llvm::Align(1));
    }
    return GV;
  }

private:
  llvm::Module &M;
  llvm::StringMap<llvm::GlobalVariable *> Strings;
};

} // namespace spinelprof

#endif // SPINELPROF_DESCRIPTORSTRINGS_H
