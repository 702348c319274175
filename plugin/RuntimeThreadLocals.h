//===- RuntimeThreadLocals.h - How code reaches the runtime's TLS ---------===//
//
// The runtime's two thread-locals that instrumented code touches
// (include/spinelprof/abi.h: the shadow stack and the allocation
// countdown) are defined in the executable: `spinel-prof cc` links the
// runtime into every executable it links, and a shared library's code
// reaches the executable's copy. So code compiled for an executable (PIE
// or not PIC) reaches them local-exec: a `%fs:` offset folded into each
// load and store, no register holding the variable's offset across the
// function (one callee-saved register fewer in a recursive method: -17 %
// of what the frames add in instructions on bm_gcbench and
// bm_binary_trees). Code compiled PIC without PIE (a shared library's)
// reaches them initial-exec, through the GOT, as clang would.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H
#define SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/GlobalValue.h"

namespace llvm {
class GlobalVariable;
class Module;
class Type;
} // namespace llvm

namespace spinelprof {

/// The TLS model of the runtime's thread-locals for code of \p M:
/// local-exec for an executable's code (PIE, or not PIC), else
/// initial-exec.
llvm::GlobalValue::ThreadLocalMode runtimeTLSModel(const llvm::Module &M);

/// The runtime's thread-local \p Name of type \p Ty in \p M: the module's
/// own where it has one (the runtime, or a test standing in for it, defines
/// it), else a declaration with runtimeTLSModel(M). nullptr, with an error
/// emitted, where \p Name is in the module but is not a thread-local
/// variable.
llvm::GlobalVariable *runtimeThreadLocal(llvm::Module &M, llvm::StringRef Name,
                                         llvm::Type *Ty);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H
