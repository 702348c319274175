//===- AllocSites.h - Marks allocation call sites for sampling --*- C++ -*-===//
//
// The `spinelprof-alloc-markers` module pass: before each call to one of
// Spinel's allocators (sp_gc_alloc, sp_gc_alloc_nogc, sp_str_alloc,
// sp_str_alloc_raw) or to malloc/calloc/realloc, an allocation-site marker
//
//   call void @__spinelprof_marker_alloc(i64 %size, ptr @"alloc Foo")
//
// carrying the size and a synthetic "alloc Foo" frame that names the
// allocated type. LowerAllocSitesPass (LowerAllocSites.h), the optimizer's
// last pass, turns each marker into the countdown include/spinelprof/abi.h
// specifies (the size counted down in the thread's allocation countdown,
// the runtime called when it goes below zero), in place or at the entry of
// a counting copy or wrapper of the allocator.
//
// The marker is declared as the frame markers are (FrameMarkers.h): one
// call that touches none of the program's memory, never deleted, merged or
// reordered with another marker or call, and free to the inliner. So every
// inlined copy of a constructor carries one call through the optimizer
// instead of a load, a store, a branch and a cold call.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_ALLOCSITES_H
#define SPINELPROF_PLUGIN_ALLOCSITES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace spinelprof {

/// Marks allocation call sites with allocation-site markers. Calls inside
/// the allocators themselves and inside the GC are not marked, so only the
/// outermost allocation counts (sp_gc_alloc's own calloc is not counted
/// again). Runs before inlining, so a call site still belongs to the
/// function written around it, which names the type. Idempotent.
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

/// The allocation-site marker's declaration in \p M, `void (i64 size, ptr
/// type descriptor)`, created if it is not yet there.
llvm::Function *getAllocSiteMarker(llvm::Module &M);

/// The allocation-site marker's function name.
llvm::StringRef allocSiteMarkerName();

/// True when \p Call calls the allocation-site marker.
bool isAllocSiteMarker(const llvm::CallBase &Call);

/// True when \p Call is an allocator call the marking pass marked.
bool isMarkedAllocatorCall(const llvm::CallBase &Call);

/// The one argument of \p F that is its allocation's size, when \p F is
/// one of the marked allocators and has one (calloc has two).
std::optional<unsigned> allocatorSizeArgument(const llvm::Function &F);

/// The Ruby class a Spinel constructor allocates (`sp_Geo_Vec_new` ->
/// `Geo::Vec`), or "" when \p CName is not a constructor.
std::string constructorClass(llvm::StringRef CName);

/// The Ruby class whose GC scan callback \p CName is (`sp_Foo_gc_scan` ->
/// `Foo`), or "".
std::string scanCallbackClass(llvm::StringRef CName);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_ALLOCSITES_H
