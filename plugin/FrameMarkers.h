//===- FrameMarkers.h - Push and pop as calls until the pipeline's end ----===//
//
// The instrumentation (InsertFrameMarkersPass) emits a frame's push, pop and
// re-push as calls of three functions that are declared, never defined:
//
//   %d = call i32 @__spinelprof_marker_push(ptr @desc)   ; the entry depth
//        call void @__spinelprof_marker_pop(i32 %d)
//        call void @__spinelprof_marker_repush(ptr @desc, i32 %d)
//
// Their attributes say what the lowered code does to the program's memory:
// nothing (`memory(inaccessiblemem: readwrite)`), and that they return,
// neither unwind nor call back nor synchronise (`willreturn nounwind
// nocallback nosync nofree`). So through the whole -O2 pipeline one call
// stands for a push (instead of a dozen loads, stores and arithmetic the
// optimizer would carry into every inlined copy), loads of the program's
// memory move freely past it, yet it is never deleted (it writes), never
// merged with another (`nomerge`) and keeps its order among the others and
// among the program's calls (all of them may touch inaccessible memory).
// The inliner counts it as nothing (`"call-inline-cost"="0"`), so clang
// inlines what it inlines without the profiler.
//
// LowerFrameMarkersPass, the last pass of the optimizer, replaces each call
// by the shadow-stack code abi.h specifies. A marker that reaches code
// generation anyway is an error there (`dontcall-error`), never a symbol
// left for the linker.
//
// The allocation-site marker (AllocSites.h) is declared the same way, by
// declareMarker, and its lowering widens the same memory effects.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_FRAMEMARKERS_H
#define SPINELPROF_PLUGIN_FRAMEMARKERS_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class Module;
} // namespace llvm

namespace spinelprof {

enum class FrameMarker {
  Push,   ///< i32 (ptr descriptor): pushes, returns the depth before it
  Pop,    ///< void (i32 depth): restores the depth saved by the push
  Repush, ///< void (ptr descriptor, i32 depth): the push again, after a
          ///< returns_twice call, at the depth saved by the push
};

/// The marker's function in \p M, declared with its attributes if it is
/// not yet there.
llvm::Function *getFrameMarker(llvm::Module &M, FrameMarker Kind);

/// The marker \p Call calls, if it calls one.
std::optional<FrameMarker> frameMarkerOf(const llvm::CallBase &Call);

/// True for a call that can return twice: returns_twice on the call or the
/// callee, or a callee known by name (setjmp, vfork, getcontext, ...).
bool isReturnsTwiceCall(const llvm::CallBase &Call);

/// The marker's function name.
llvm::StringRef frameMarkerName(FrameMarker Kind);

/// The declaration of a marker function \p Name of type \p Ty in \p M,
/// with the attributes above, created if it is not yet there; a call that
/// reaches code generation is the error \p NotLowered. Null, after an
/// error on the context, when the module defines \p Name or declares it
/// with another type.
llvm::Function *declareMarker(llvm::Module &M, llvm::StringRef Name,
                              llvm::FunctionType *Ty,
                              llvm::StringRef NotLowered);

/// After a lowering: a function whose inferred memory effects were the
/// markers' (inaccessible memory, no synchronisation) now writes globals,
/// volatile or through a call; widens its attributes to say so.
void widenLoweredMemoryEffects(llvm::Module &M);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_FRAMEMARKERS_H
