//===- SpinelProfPass.h - Shadow-stack instrumentation for Spinel C -------===//
//
// The `spinelprof-markers` module pass: gives each selected function a
// constant frame descriptor and the frame markers (FrameMarkers.h) that
// LowerFrameMarkersPass turns into its push and pop on the thread's shadow
// stack, as include/spinelprof/abi.h specifies; and `spinelprof-self-tail`,
// which moves an instrumented function's pop before its self tail calls so
// that tail-recursion elimination still turns them into loops.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_SPINELPROFPASS_H
#define SPINELPROF_PLUGIN_SPINELPROFPASS_H

#include "llvm/IR/PassManager.h"

namespace spinelprof {

/// Instruments every function the frame policy selects, with frame
/// markers. Options come from `-spinelprof-include/-exclude/-symbols` and,
/// because clang parses -mllvm before it loads a -fpass-plugin, from
/// SPINEL_PROFILE_INCLUDE/EXCLUDE/SYMBOLS in the compiler's environment.
/// Idempotent.
class SpinelProfPass : public llvm::PassInfoMixin<SpinelProfPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// clang -O0 marks every function optnone; the profile must not depend on
  /// the optimization level.
  static bool isRequired() { return true; }
};

/// In a function the pass instrumented, a call of the function itself that
/// is followed only by register arithmetic, the pop and `ret` (directly or
/// through a branch to a return block) gets the pop before it instead, and
/// the pop after it goes (the callee restores the same depth). Tail-
/// recursion elimination can then turn the call into a loop, as clang does
/// without instrumentation; while the callee runs the caller's frame is
/// gone, as a Ruby implementation with tail calls would show it. Runs
/// before tail-recursion elimination (the peephole extension point);
/// idempotent.
class SelfTailCallPopPass : public llvm::PassInfoMixin<SelfTailCallPopPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_SPINELPROFPASS_H
