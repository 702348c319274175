//===- FramePolicy.h - Which functions get a shadow-stack frame -----------===//
//
// The one place that decides which functions are instrumented. Two layers:
// structural rules that are never overridden (a function without a body, or
// spinelprof's own code, cannot get a frame) and a policy with options.
//
// The default policy and what it costs are measured in bench/overhead/ and
// explained in docs/performance.md.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_FRAMEPOLICY_H
#define SPINELPROF_PLUGIN_FRAMEPOLICY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace spinelprof {

/// The string function attribute that marks an instrumented function, so
/// that running the pass again changes nothing.
inline constexpr const char InstrumentedAttr[] = "spinelprof-instrumented";

/// An option's value and where it came from, for error messages.
struct OptionValue {
  std::string Value;
  /// "-spinelprof-include", "SPINEL_PROFILE_INCLUDE", ...
  std::string Origin;
};

/// The policy's options; empty values are not applied.
struct FramePolicyOptions {
  OptionValue Include;
  OptionValue Exclude;
  /// "default" (or empty), "lean" or "all".
  OptionValue Frames;
};

/// True when \p F can carry a frame at all: it has a body here (not a
/// declaration or available_externally), is not naked, is not spinelprof's
/// own (`__spinelprof*`) and is not instrumented already.
bool isInstrumentable(const llvm::Function &F);

/// Why the default policy keeps or drops a function (see wantsFrame).
enum class FrameReason {
  ProgramOwn,      ///< kept: defined in the program's .c or a .rb file
  TrivialMethod,   ///< kept, but dropped by `lean`: the program's own and
                   ///< `inline` (Spinel: <= 3 statements, no yield)
  GCEntry,         ///< kept: a GC function that calls something or is big
  LargeHelper,     ///< kept: a runtime helper of HelperMinSize or more
  CallingHelper,   ///< kept: a smaller helper, not inline, that calls out
  TinyGCLeaf,      ///< dropped: a GC function under HelperMinSize that
                   ///< calls nothing (sp_gc_hdr_of, sp_gc_root_restore)
  SmallHelper,     ///< dropped: any other helper under HelperMinSize:
                   ///< `inline`, or calling nothing
};

/// The IR instructions (debug intrinsics aside) a runtime helper from a
/// header needs to keep its frame by default when it is `inline` or calls
/// nothing; counted at the start of the pipeline (before mem2reg, so about
/// three times its optimized size).
inline constexpr unsigned DefaultHelperMinSize = 100;

/// The default policy's verdict on \p F, which must be instrumentable.
/// \p HelperMinSize overrides DefaultHelperMinSize (tests, experiments).
FrameReason classifyFrame(const llvm::Function &F,
                          unsigned HelperMinSize = DefaultHelperMinSize);

/// True for the reasons that keep a frame.
bool keepsFrame(FrameReason Reason);

/// True when SPINEL_PROFILE_STAGE=late asks for instrumentation at the end
/// of the optimization pipeline (after inlining: only the functions that
/// survive as functions get a frame) instead of at its start. An experiment
/// measured in docs/performance.md, not a supported mode.
bool instrumentsAfterOptimization();

/// Decides which instrumentable functions get a frame.
///
/// `Frames=default`: every function of the program's own source (its .c,
/// or a .rb named by #line) — user methods, blocks, procs, lambdas, fiber
/// bodies, main — and the GC's functions that call something or are big
/// (sp_gc_collect, sp_gc_mark, *_gc_scan, ...); of the runtime helpers
/// defined in headers, those of DefaultHelperMinSize IR instructions or
/// more, and the smaller ones that are not `inline` and call a function.
/// `Frames=lean`: the default without the program's own `inline` functions
/// (Spinel marks a method `static inline` when its body is at most three
/// statements without yield or self-recursion: accessors, operators).
/// `Frames=all`: every instrumentable function.
///
/// Include and exclude are POSIX extended regular expressions that must
/// match the whole C name: with an include pattern exactly the matching
/// functions get a frame (whatever Frames says), and exclude wins over
/// include and over Frames.
class FramePolicy {
public:
  /// Compiles the patterns; a bad pattern or Frames value is an error naming
  /// its option.
  static llvm::Expected<FramePolicy> create(const FramePolicyOptions &Options);

  /// True when \p F is instrumentable and the options select it.
  bool wantsFrame(const llvm::Function &F) const;

private:
  std::unique_ptr<llvm::Regex> Include;
  std::unique_ptr<llvm::Regex> Exclude;
  bool AllFrames = false;
  bool Lean = false;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_FRAMEPOLICY_H
