//===- LowerFrameMarkers.h - Frame markers to shadow-stack code -----------===//
//
// `spinelprof-lower-markers`: replaces the frame markers the instrumentation
// emitted (FrameMarkers.h) with the push and pop that include/spinelprof/
// abi.h specifies. clang runs it as the optimizer's last pass
// (OptimizerLastEP, at -O0 too), so the optimizer sees one call per push
// and pop, and the code generator sees the stores.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_LOWERFRAMEMARKERS_H
#define SPINELPROF_PLUGIN_LOWERFRAMEMARKERS_H

#include "PluginOptions.h"

#include "llvm/IR/PassManager.h"

#include <utility>

namespace spinelprof {

/// Lowers every frame marker in the module and removes their declarations.
/// In each function with markers, the address of the thread's shadow
/// stack is computed once, where it dominates every marker (out of loops),
/// and serves every frame pushed there, inlined ones included. Idempotent
/// (a module without markers is left as it is).
class LowerFrameMarkersPass
    : public llvm::PassInfoMixin<LowerFrameMarkersPass> {
public:
  /// \p TLSModel: PluginOptions::TLSModel.
  explicit LowerFrameMarkersPass(OptionValue TLSModel = {})
      : TLSModel(std::move(TLSModel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// Markers left in an optnone (-O0) function must be lowered too.
  static bool isRequired() { return true; }

private:
  OptionValue TLSModel;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_LOWERFRAMEMARKERS_H
