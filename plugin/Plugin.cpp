//===- Plugin.cpp - Registers spinelprof with the new pass manager --------===//
//
// `opt -load-pass-plugin SpinelProf.so -passes=spinelprof` instruments and
// lowers the frame markers at once (the final IR); `spinelprof-markers` and
// `spinelprof-lower-markers` are the two halves. `clang
// -fpass-plugin=SpinelProf.so` runs the instrumentation at the start of the
// default pipeline (at every optimization level, -O0 included), before the
// inliner, so a method that the C compiler inlines keeps its frame, and the
// lowering as the optimizer's last pass (FrameMarkers.h says why).
// `-passes=spinelprof-alloc` marks allocation sites and lowers the markers
// (AllocSites.h); `spinelprof-alloc-markers` and `spinelprof-lower-alloc`
// are its halves, which clang runs at the same two points as the frames'.
//
//===----------------------------------------------------------------------===//

#include "AllocSites.h"
#include "InsertFrameMarkers.h"
#include "LowerAllocSites.h"
#include "LowerFrameMarkers.h"
#include "PluginOptions.h"
#include "SelfTailCallPop.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;
using namespace spinelprof;

#ifndef SPINELPROF_VERSION
#define SPINELPROF_VERSION "0"
#endif

// Each callback reads the options (PluginOptions.h) when it builds its part
// of a pipeline: after opt or clang has parsed the command line.

/// `-passes=spinelprof-alloc|spinelprof-alloc-markers|spinelprof-lower-alloc|
/// spinelprof-markers|spinelprof-lower-markers|spinelprof` (opt, tests).
static bool parseModulePipelineName(StringRef Name, ModulePassManager &MPM) {
  bool MarkAlloc = Name == "spinelprof-alloc-markers";
  bool LowerAlloc = Name == "spinelprof-lower-alloc";
  if (Name == "spinelprof-alloc")
    MarkAlloc = LowerAlloc = true;
  if (MarkAlloc)
    MPM.addPass(AllocSitesPass(readPluginOptions().MarkAllocSites));
  if (LowerAlloc)
    MPM.addPass(LowerAllocSitesPass(readPluginOptions().TLSModel));
  if (MarkAlloc || LowerAlloc)
    return true;
  if (Name == "spinelprof-markers") {
    MPM.addPass(InsertFrameMarkersPass(readPluginOptions()));
    return true;
  }
  if (Name == "spinelprof-lower-markers") {
    MPM.addPass(LowerFrameMarkersPass(readPluginOptions().TLSModel));
    return true;
  }
  if (Name != "spinelprof")
    return false;
  PluginOptions Options = readPluginOptions();
  MPM.addPass(InsertFrameMarkersPass(Options));
  MPM.addPass(LowerFrameMarkersPass(Options.TLSModel));
  return true;
}

static void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseModulePipelineName(Name, MPM);
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "spinelprof-self-tail")
          return false;
        FPM.addPass(SelfTailCallPopPass());
        return true;
      });
  // Before tail-recursion elimination (docs/performance.md, "tail calls").
  PB.registerPeepholeEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        if (!readPluginOptions().InstrumentAfterOptimization)
          FPM.addPass(SelfTailCallPopPass());
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        PluginOptions Options = readPluginOptions();
        // Before inlining, wherever frames go: an allocator inlined into
        // its caller would expose its own calloc as a second allocation.
        MPM.addPass(AllocSitesPass(Options.MarkAllocSites));
        if (!Options.InstrumentAfterOptimization)
          MPM.addPass(InsertFrameMarkersPass(Options));
      });
  // The markers become shadow-stack code and allocation countdowns after
  // the last optimization; the after-inlining experiment
  // (docs/performance.md) instruments first.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel
#if LLVM_VERSION_MAJOR >= 20
         , ThinOrFullLTOPhase
#endif
      ) {
        PluginOptions Options = readPluginOptions();
        if (Options.InstrumentAfterOptimization)
          MPM.addPass(InsertFrameMarkersPass(Options));
        MPM.addPass(LowerAllocSitesPass(Options.TLSModel));
        MPM.addPass(LowerFrameMarkersPass(Options.TLSModel));
      });
}

/// The entry point clang and opt look up when they load the plugin.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "SpinelProf", SPINELPROF_VERSION,
          registerCallbacks};
}
