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

#include "PluginOptions.h"

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

/// The string function attribute that marks a PC-named leaf: it has its
/// descriptor (flag SPINELPROF_FLAG_PC_NAMED) but no push or pop.
inline constexpr const char PcNamedAttr[] = "spinelprof-pc-named";

/// True when \p F can carry a frame at all: it has a body here (not a
/// declaration or available_externally), is not naked, is not spinelprof's
/// own (`__spinelprof*`) and is not instrumented (or PC-named) already.
bool isInstrumentable(const llvm::Function &F);

/// Why the default policy keeps or drops a function (see choose).
enum class FrameReason {
  ProgramOwn,      ///< kept: defined in the program's .c or a .rb file
  TrivialMethod,   ///< kept, but dropped by `lean`: the program's own and
                   ///< `inline` (Spinel: <= 3 statements, no yield)
  GCEntry,         ///< kept: a GC function that calls something or is big
  GCCallback,      ///< PC-named (pushed when a pushed function may be
                   ///< inlined into it): a collector callback run once per
                   ///< object marked (*_gc_scan, _proc_cap_scan_N, sp_gc_mark)
  LargeHelper,     ///< kept: a runtime helper of HelperMinSize or more
  CallingHelper,   ///< kept: a smaller helper, not inline, that calls out
                   ///< (for one no Ruby method stands for, called only
                   ///< directly, a call of an inline helper that calls
                   ///< nothing else is no call: `sp_utf8_byte_offset`)
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

/// True for the reasons that keep a frame.
bool keepsFrame(FrameReason Reason);

/// The IR instructions (debug intrinsics aside, counted like HelperMinSize,
/// before mem2reg) up to which a leaf of the program's own, together with
/// the inline helpers it calls, is PC-named by default instead of pushed.
inline constexpr unsigned DefaultLeafMaxSize = 64;

/// What the policy does with a function.
enum class FrameChoice {
  None,    ///< no frame: its time is its caller's self time
  Push,    ///< a push and pop of its descriptor
  PcNamed, ///< no push or pop, a descriptor flagged SPINELPROF_FLAG_PC_NAMED:
           ///< the runtime names samples whose PC is in it
};

/// Decides which instrumentable functions get a frame.
///
/// `Frames=default`: every function of the program's own source (its .c,
/// or a .rb named by #line) — user methods, blocks, procs, lambdas, fiber
/// bodies, main — a push, except small leaves (isSmallLeaf), which are
/// PC-named; the GC's functions that call something or are big
/// (sp_gc_collect, sp_gc_mark_all, sp_gc_sweep, ...) a push, its
/// per-object callbacks (isGCCallbackName) PC-named; of the runtime helpers
/// defined in headers, those of DefaultHelperMinSize IR instructions or
/// more, and the smaller ones that are not `inline` and call a function
/// (not counting, in a helper without a Ruby name, inline helpers that
/// vanish into it).
/// `Frames=lean`: the default without the program's own `inline` functions
/// that are not small leaves (Spinel marks a method `static inline` when its
/// body is at most three statements without yield or self-recursion:
/// accessors, operators).
/// `Frames=all`: a push for every instrumentable function (no PC-naming).
///
/// Include and exclude are POSIX extended regular expressions that must
/// match the whole C name: with an include pattern exactly the matching
/// functions get a push (whatever Frames says), and exclude wins over
/// include and over Frames.
class FramePolicy {
public:
  /// Compiles the patterns; a bad pattern, Frames value or leaf size is an
  /// error naming its option.
  static llvm::Expected<FramePolicy> create(const FramePolicyOptions &Options);

  /// What \p F gets: None unless it is instrumentable and the options
  /// select it.
  FrameChoice choose(const llvm::Function &F) const;

private:
  /// The default policy's verdict on \p F, which must be instrumentable.
  FrameReason classify(const llvm::Function &F) const;

  /// True when \p F, one of the program's own functions, is a small leaf
  /// for the default policy: it has no loop and calls nothing but
  /// intrinsics and functions that get no push of their own, are such
  /// leaves themselves and are sure to be inlined at -O2 (`inline`, or
  /// local with at most 8 IR instructions): runtime helpers such as
  /// sp_str_getbyte and Spinel's sp_gc_cleanup, the program's one-line
  /// accessors; and with those callees it has at most LeafMaxSize IR
  /// instructions. Such a function is on top of the stack exactly when the
  /// program counter is in it (or, inlined, in its caller's code).
  bool isSmallLeaf(const llvm::Function &F) const;

  /// True when a function that gets a push is called from \p F, or from
  /// the callees it may inline, \p Depth calls deep.
  bool mayInlinePush(const llvm::Function &F, unsigned Depth) const;

  /// isSmallLeaf's walk over \p F and the callees it inlines.
  bool addLeafSize(const llvm::Function &F, unsigned Depth,
                   unsigned &Size) const;

  std::unique_ptr<llvm::Regex> Include;
  std::unique_ptr<llvm::Regex> Exclude;
  bool AllFrames = false;
  bool Lean = false;
  unsigned LeafMaxSize = DefaultLeafMaxSize;
  unsigned HelperMinSize = DefaultHelperMinSize;
  bool CompilingRuntimeLibrary = false;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_FRAMEPOLICY_H
