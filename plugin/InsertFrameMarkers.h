//===- InsertFrameMarkers.h - Frame markers for the selected functions ----===//
//
// The `spinelprof-markers` module pass: gives each function the frame
// policy selects a constant frame descriptor and the frame markers
// (FrameMarkers.h) that LowerFrameMarkersPass turns into its push and pop
// on the thread's shadow stack, as include/spinelprof/abi.h specifies.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_INSERTFRAMEMARKERS_H
#define SPINELPROF_PLUGIN_INSERTFRAMEMARKERS_H

#include "PluginOptions.h"

#include "llvm/IR/PassManager.h"

#include <utility>

namespace spinelprof {

/// Instruments every function the frame policy selects, with frame
/// markers; names frames by the symbol map, when one is given, and Spinel's
/// naming rules. A bad option or symbol map is an error on the module's
/// context. Idempotent.
class InsertFrameMarkersPass
    : public llvm::PassInfoMixin<InsertFrameMarkersPass> {
public:
  /// Uses Options.Policy and Options.Symbols.
  explicit InsertFrameMarkersPass(PluginOptions Options)
      : Options(std::move(Options)) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// clang -O0 marks every function optnone; the profile must not depend on
  /// the optimization level.
  static bool isRequired() { return true; }

private:
  PluginOptions Options;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_INSERTFRAMEMARKERS_H
