//===- SelfTailCallPop.h - Pop before a self tail call --------------------===//
//
// The `spinelprof-self-tail` function pass: moves an instrumented
// function's pop before its self tail calls so that tail-recursion
// elimination still turns them into loops (docs/performance.md, "tail
// calls").
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_SELFTAILCALLPOP_H
#define SPINELPROF_PLUGIN_SELFTAILCALLPOP_H

#include "llvm/IR/PassManager.h"

namespace spinelprof {

/// In a function InsertFrameMarkersPass instrumented, a call of the
/// function itself that is followed only by register arithmetic, the pop
/// and `ret` (directly or through a branch to a return block) gets the pop
/// before it instead, and the pop after it goes (the callee restores the
/// same depth). Tail-recursion elimination can then turn the call into a
/// loop, as clang does without instrumentation; while the callee runs the
/// caller's frame is gone, as a Ruby implementation with tail calls would
/// show it. Runs before tail-recursion elimination (the peephole extension
/// point); idempotent. Uses the function's DominatorTree and keeps it
/// up to date.
class SelfTailCallPopPass : public llvm::PassInfoMixin<SelfTailCallPopPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_SELFTAILCALLPOP_H
