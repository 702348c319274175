//===- RuntimeThreadLocals.h - How code reaches the runtime's TLS ---------===//
//
// The runtime's two thread-locals that instrumented code touches
// (include/spinelprof/abi.h: the shadow stack and the allocation
// countdown) are defined in the executable: `spinel-prof cc` links the
// runtime into every executable it links, and a shared library's code
// reaches the executable's copy. So code compiled for an executable (PIE
// or not PIC) reaches them local-exec: a `%fs:` offset folded into each
// load and store, no register holding the variable's offset across the
// function (one callee-saved register fewer in a recursive method: -15 %
// of what the frames add in instructions on bm_gcbench, -16 % on
// bm_binary_trees; no wall-time change resolves over four code
// placements: bench/overhead/results/2026-11-29-local-exec-placements.md).
// Code compiled PIC without PIE (a shared library's) reaches them
// initial-exec, through the GOT, as clang would; so does all
// code when told SPINEL_PROFILE_TLS=initial-exec (-spinelprof-tls), which
// `spinel-prof cc -shared` sets: clang compiles a shared library's code PIE
// unless told -fPIC, and local-exec code does not link into one.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H
#define SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H

#include "PluginOptions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/GlobalValue.h"

namespace llvm {
class GlobalVariable;
class LLVMContext;
class Module;
class StructType;
class Type;
} // namespace llvm

namespace spinelprof {

/// The TLS model of the runtime's thread-locals for code of \p M, as
/// \p Choice ("" or "auto", "initial-exec") says: auto is local-exec for an
/// executable's code (PIE, or not PIC), else initial-exec. Another choice is
/// an error (emitted) and initial-exec.
llvm::GlobalValue::ThreadLocalMode runtimeTLSModel(llvm::Module &M,
                                                   const OptionValue &Choice);

/// The runtime's thread-local \p Name of type \p Ty in \p M: the module's
/// own where it has one (the runtime, or a test standing in for it, defines
/// it), else a declaration with runtimeTLSModel(M, Choice). nullptr, with an
/// error emitted, where \p Name is in the module but is not a thread-local
/// variable.
llvm::GlobalVariable *runtimeThreadLocal(llvm::Module &M, llvm::StringRef Name,
                                         llvm::Type *Ty,
                                         const OptionValue &Choice);

/// The IR type of abi.h's `struct spinelprof_shadow_stack` (a literal
/// struct: uniqued by shape, no `.0` copies).
llvm::StructType *shadowStackType(llvm::LLVMContext &Ctx);

/// The runtime's shadow stack in \p M, as runtimeThreadLocal gives it.
llvm::GlobalVariable *runtimeShadowStack(llvm::Module &M,
                                         const OptionValue &Choice);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_RUNTIMETHREADLOCALS_H
