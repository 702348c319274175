//===- RuntimeThreadLocals.h - How code reaches the runtime's TLS ---------===//
//
// The runtime's two thread-locals that instrumented code touches
// (include/spinelprof/abi.h: the shadow stack and the allocation
// countdown) are defined in the executable and reached initial-exec from
// all code, an executable's or a shared library's. Local-exec (the `%fs:`
// offset folded into each access, no register holding it) was measured and
// dropped: 9-16 % fewer added instructions on most of Spinel's benchmarks,
// but bm_huffman x1.16-x1.27 slower in wall time on this AMD machine, the
// same plugin built both ways
// (bench/overhead/results/2026-11-29-local-exec.md).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H
#define SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class GlobalVariable;
class Module;
class Type;
} // namespace llvm

namespace spinelprof {

/// The runtime's thread-local \p Name of type \p Ty in \p M: the module's
/// own where it has one (the runtime, or a test standing in for it, defines
/// it), else an initial-exec declaration. nullptr, with an error emitted,
/// where \p Name is in the module but is not a thread-local variable.
llvm::GlobalVariable *runtimeThreadLocal(llvm::Module &M, llvm::StringRef Name,
                                         llvm::Type *Ty);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H
