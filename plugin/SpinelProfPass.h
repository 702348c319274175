//===- SpinelProfPass.h - Shadow-stack instrumentation for Spinel C -------===//
//
// The `spinelprof` module pass: gives each selected function a constant
// frame descriptor and pushes/pops it on the thread's shadow stack, as
// include/spinelprof/abi.h specifies.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_SPINELPROFPASS_H
#define SPINELPROF_PLUGIN_SPINELPROFPASS_H

#include "llvm/IR/PassManager.h"

namespace spinelprof {

/// Instruments every function the frame policy selects. Options come from
/// `-spinelprof-include/-exclude/-symbols` and, because clang parses -mllvm
/// before it loads a -fpass-plugin, from SPINEL_PROFILE_INCLUDE/EXCLUDE/
/// SYMBOLS in the compiler's environment. Idempotent.
class SpinelProfPass : public llvm::PassInfoMixin<SpinelProfPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// clang -O0 marks every function optnone; the profile must not depend on
  /// the optimization level.
  static bool isRequired() { return true; }
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_SPINELPROFPASS_H
