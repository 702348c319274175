//===- Plugin.cpp - Registers spinelprof with the new pass manager --------===//
//
// `opt -load-pass-plugin SpinelProf.so -passes=spinelprof` runs the pass by
// name; `clang -fpass-plugin=SpinelProf.so` runs it at the start of the
// default pipeline (at every optimization level, -O0 included), before the
// inliner, so a method that the C compiler inlines keeps its frame.
// `-passes=spinelprof-alloc` marks allocation sites (AllocSites.h); clang
// runs it at the pipeline's start too.
//
//===----------------------------------------------------------------------===//

#include "AllocSites.h"
#include "FramePolicy.h"
#include "SpinelProfPass.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;

#ifndef SPINELPROF_VERSION
#define SPINELPROF_VERSION "0"
#endif

static void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "spinelprof-alloc") {
          MPM.addPass(spinelprof::AllocSitesPass());
          return true;
        }
        if (Name != "spinelprof")
          return false;
        MPM.addPass(spinelprof::SpinelProfPass());
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "spinelprof-self-tail")
          return false;
        FPM.addPass(spinelprof::SelfTailCallPopPass());
        return true;
      });
  // Before tail-recursion elimination (docs/performance.md, "tail calls").
  PB.registerPeepholeEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        if (!spinelprof::instrumentsAfterOptimization())
          FPM.addPass(spinelprof::SelfTailCallPopPass());
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        // Before inlining, wherever frames go: an allocator inlined into
        // its caller would expose its own calloc as a second allocation.
        MPM.addPass(spinelprof::AllocSitesPass());
        if (!spinelprof::instrumentsAfterOptimization())
          MPM.addPass(spinelprof::SpinelProfPass());
      });
  // The after-inlining experiment (docs/performance.md).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel
#if LLVM_VERSION_MAJOR >= 20
         , ThinOrFullLTOPhase
#endif
      ) {
        if (spinelprof::instrumentsAfterOptimization())
          MPM.addPass(spinelprof::SpinelProfPass());
      });
}

/// The entry point clang and opt look up when they load the plugin.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "SpinelProf", SPINELPROF_VERSION,
          registerCallbacks};
}
