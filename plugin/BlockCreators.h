//===- BlockCreators.h - Names Spinel's blocks after their creators -------===//
//
// Spinel compiles a proc to `_sp_proc_fn_N`, a lambda to `_lam_N` and a fiber
// body to `_fiber_body_N`, and creates each one in exactly one place by
// passing its address to the runtime (`sp_proc_new(_sp_proc_fn_1, ...)`,
// `sp_lam_proc(_lam_0, 1)`, `sp_Fiber_new(_fiber_body_0)`). The function
// holding that reference is the method the block was written in, so
// `_sp_proc_fn_1` created by `sp_make_adder` is `block in Object#make_adder`.
// The plugin runs before inlining, so the reference is still in its creator.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_BLOCKCREATORS_H
#define SPINELPROF_PLUGIN_BLOCKCREATORS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace spinelprof {

class SymbolMap;

/// Names block functions by the functions that create them. One per run of
/// the pass over a module.
class BlockCreators {
public:
  /// \p Symbols, when given, names creators it lists (as the pass does);
  /// \p CompilingRuntimeLibrary as for getDefinitionSite.
  BlockCreators(const SymbolMap *Symbols, bool CompilingRuntimeLibrary)
      : Symbols(Symbols), CompilingRuntimeLibrary(CompilingRuntimeLibrary) {}

  /// The functions that use \p Block's address as a value (not as a call's
  /// callee), in module order, without \p Block itself.
  llvm::SmallVector<const llvm::Function *, 2>
  creatorsOf(const llvm::Function &Block) const;

  /// "block in Foo#bar" (a proc), "lambda in Object#make_adder",
  /// "fiber in <main>" for a block function with exactly one creator; a
  /// creator that is itself a block gives "lambda in block in Foo#bar".
  /// With several creators: "block in Foo#a or Foo#b" (sorted). "" when
  /// \p Block is not a block function or has no creator (the caller keeps
  /// the plain "proc N" / "lambda N" / "fiber N").
  std::string displayName(const llvm::Function &Block);

private:
  /// The name a creator's own frame gets (symbol map, else naming rules).
  std::string creatorName(const llvm::Function &Creator, unsigned Depth);
  std::string nameBlock(const llvm::Function &Block, unsigned Depth);

  const SymbolMap *Symbols;
  bool CompilingRuntimeLibrary;
  llvm::DenseMap<const llvm::Function *, std::string> Cache;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_BLOCKCREATORS_H
