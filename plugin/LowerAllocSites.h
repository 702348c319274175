//===- LowerAllocSites.h - Allocation-site markers to the countdown -------===//
//
// `spinelprof-lower-alloc`: replaces each allocation-site marker
// (AllocSites.h) with the countdown that include/spinelprof/abi.h
// specifies. clang runs it as the optimizer's last pass (OptimizerLastEP,
// at -O0 too), beside LowerFrameMarkersPass: the optimizer sees one call
// per site, the code generator the countdown, the branch and the cold call
// once per allocator (in its counting copy or wrapper) where it can, else
// at the site.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_LOWERALLOCSITES_H
#define SPINELPROF_PLUGIN_LOWERALLOCSITES_H

#include "PluginOptions.h"

#include "llvm/IR/PassManager.h"

#include <utility>

namespace spinelprof {

/// Lowers every allocation-site marker in the module and removes the
/// marker's declaration. Idempotent (a module without markers is left as
/// it is).
class LowerAllocSitesPass : public llvm::PassInfoMixin<LowerAllocSitesPass> {
public:
  /// \p TLSModel: PluginOptions::TLSModel.
  explicit LowerAllocSitesPass(OptionValue TLSModel = {})
      : TLSModel(std::move(TLSModel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// Markers left in an optnone (-O0) function must be lowered too.
  static bool isRequired() { return true; }

private:
  OptionValue TLSModel;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_LOWERALLOCSITES_H
