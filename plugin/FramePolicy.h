//===- FramePolicy.h - Which functions get a shadow-stack frame -----------===//
//
// The one place that decides which functions are instrumented. Two layers:
// structural rules that are never overridden (a function without a body, or
// spinelprof's own code, cannot get a frame) and a policy with options.
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

/// The policy's options; empty patterns are not applied.
struct FramePolicyOptions {
  OptionValue Include;
  OptionValue Exclude;
};

/// True when \p F can carry a frame at all: it has a body here (not a
/// declaration or available_externally), is not naked, is not spinelprof's
/// own (`__spinelprof*`) and is not instrumented already.
bool isInstrumentable(const llvm::Function &F);

/// Decides which instrumentable functions get a frame.
///
/// Default: every one. Include and exclude are POSIX extended regular
/// expressions that must match the whole C name; with an include pattern
/// only matching functions get a frame, and exclude wins over include.
class FramePolicy {
public:
  /// Compiles the patterns; a bad one is an error naming its option.
  static llvm::Expected<FramePolicy> create(const FramePolicyOptions &Options);

  /// True when \p F is instrumentable and the options select it.
  bool wantsFrame(const llvm::Function &F) const;

private:
  std::unique_ptr<llvm::Regex> Include;
  std::unique_ptr<llvm::Regex> Exclude;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_FRAMEPOLICY_H
