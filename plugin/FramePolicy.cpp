//===- FramePolicy.cpp - Which functions get a shadow-stack frame ---------===//

#include "FramePolicy.h"

#include "llvm/ADT/Twine.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace spinelprof {

namespace {

/// Compiles \p Option anchored at both ends, or returns null when it is empty.
Expected<std::unique_ptr<Regex>> compilePattern(const OptionValue &Option) {
  if (Option.Value.empty())
    return nullptr;
  std::string Problem;
  // Check the pattern alone first, so the message quotes what the user wrote.
  if (!Regex(Option.Value).isValid(Problem))
    return createStringError(inconvertibleErrorCode(),
                             "spinelprof: invalid regular expression '" +
                                 Option.Value + "' in " + Option.Origin +
                                 ": " + Problem);
  return std::make_unique<Regex>("^(" + Option.Value + ")$");
}

} // namespace

bool isInstrumentable(const Function &F) {
  if (F.isDeclaration() || F.hasAvailableExternallyLinkage())
    return false;
  // A naked function has no prologue to put a push into.
  if (F.hasFnAttribute(Attribute::Naked))
    return false;
  if (F.getName().starts_with("__spinelprof"))
    return false;
  return !F.hasFnAttribute(InstrumentedAttr);
}

Expected<FramePolicy> FramePolicy::create(const FramePolicyOptions &Options) {
  FramePolicy Policy;
  Expected<std::unique_ptr<Regex>> Include = compilePattern(Options.Include);
  if (!Include)
    return Include.takeError();
  Expected<std::unique_ptr<Regex>> Exclude = compilePattern(Options.Exclude);
  if (!Exclude)
    return Exclude.takeError();
  Policy.Include = std::move(*Include);
  Policy.Exclude = std::move(*Exclude);
  return Policy;
}

bool FramePolicy::wantsFrame(const Function &F) const {
  if (!isInstrumentable(F))
    return false;
  StringRef Name = F.getName();
  if (Exclude && Exclude->match(Name))
    return false;
  return !Include || Include->match(Name);
}

} // namespace spinelprof
