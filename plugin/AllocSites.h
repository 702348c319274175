//===- AllocSites.h - Marks allocation call sites for sampling --*- C++ -*-===//
//
// The `spinelprof-alloc` module pass: before each call to one of Spinel's
// allocators (sp_gc_alloc, sp_gc_alloc_nogc, sp_str_alloc,
// sp_str_alloc_raw) or to malloc/calloc/realloc, counts the size down in
// the thread's allocation countdown and calls the runtime when it goes
// below zero (include/spinelprof/abi.h), passing a synthetic "alloc Foo"
// frame that names the allocated type.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_ALLOCSITES_H
#define SPINELPROF_PLUGIN_ALLOCSITES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace spinelprof {

/// Marks allocation call sites. Calls inside the allocators themselves and
/// inside the GC are not marked, so only the outermost allocation counts
/// (sp_gc_alloc's own calloc is not counted again). Runs before inlining,
/// so a call site still belongs to the function written around it.
/// Idempotent.
class AllocSitesPass : public llvm::PassInfoMixin<AllocSitesPass> {
public:
  /// False marks nothing: PluginOptions::MarkAllocSites
  /// (`-spinelprof-alloc-sites=0`, SPINEL_PROFILE_ALLOC_SITES=0).
  explicit AllocSitesPass(bool MarkAllocSites)
      : MarkAllocSites(MarkAllocSites) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  bool MarkAllocSites;
};

/// The Ruby class a Spinel constructor allocates (`sp_Geo_Vec_new` ->
/// `Geo::Vec`), or "" when \p CName is not a constructor.
std::string constructorClass(llvm::StringRef CName);

/// The Ruby class whose GC scan callback \p CName is (`sp_Foo_gc_scan` ->
/// `Foo`), or "".
std::string scanCallbackClass(llvm::StringRef CName);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_ALLOCSITES_H
