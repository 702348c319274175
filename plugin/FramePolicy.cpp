//===- FramePolicy.cpp - Which functions get a shadow-stack frame ---------===//
//
// Why the default is what it is: instrumentation runs before inlining, so
// every frame's push and pop is inlined wherever its function is. Spinel's
// runtime header holds ~340 static helpers (string, array, hash, GC root
// bookkeeping) that end up inside every hot loop; giving each a frame is
// what makes -finstrument-functions cost x1.3-x12 on Spinel's benchmarks.
// A user profiles Ruby methods, not `sp_PolyArray_get`: the program's own
// functions always keep their frame, the helpers only when they are big
// enough to matter on their own. docs/performance.md has the measurements.
//
//===----------------------------------------------------------------------===//

#include "FramePolicy.h"

#include "SpinelNames.h"

#include "llvm/ADT/Twine.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

#include <cstdlib>

using namespace llvm;

static cl::opt<unsigned> ClHelperMinSize(
    "spinelprof-helper-min-size", cl::init(spinelprof::DefaultHelperMinSize),
    cl::desc("Under the default frame policy, the IR instructions a runtime "
             "helper from a header needs to keep its frame"));

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

/// What the policy needs to know about a body, in one walk.
struct BodyShape {
  unsigned Instructions = 0; // debug intrinsics aside
  bool CallsSomething = false; // a call that is not an intrinsic
};

BodyShape measure(const Function &F) {
  BodyShape Shape;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      ++Shape.Instructions;
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        const Function *Callee = Call->getCalledFunction();
        if (!Callee || !Callee->isIntrinsic())
          Shape.CallsSomething = true;
      }
    }
  return Shape;
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

FrameReason classifyFrame(const Function &F, unsigned HelperMinSize) {
  if (getDefinitionSite(F).IsProgramOwn)
    return F.hasFnAttribute(Attribute::InlineHint) ? FrameReason::TrivialMethod
                                                   : FrameReason::ProgramOwn;
  BodyShape Shape = measure(F);
  if (isGCFunctionName(F.getName()))
    return Shape.CallsSomething || Shape.Instructions >= HelperMinSize
               ? FrameReason::GCEntry
               : FrameReason::TinyGCLeaf;
  if (Shape.Instructions >= HelperMinSize)
    return FrameReason::LargeHelper;
  // Spinel marks a function `static inline` when its body is at most three
  // statements; clang turns that into inlinehint. A small helper that is
  // not inline and calls out (strlen, malloc, longjmp, another helper)
  // pays for a call anyway, so a push and pop cost it little.
  if (Shape.CallsSomething && !F.hasFnAttribute(Attribute::InlineHint))
    return FrameReason::CallingHelper;
  return FrameReason::SmallHelper;
}

bool instrumentsAfterOptimization() {
  const char *Stage = std::getenv("SPINEL_PROFILE_STAGE");
  return Stage && StringRef(Stage) == "late";
}

bool keepsFrame(FrameReason Reason) {
  switch (Reason) {
  case FrameReason::ProgramOwn:
  case FrameReason::TrivialMethod:
  case FrameReason::GCEntry:
  case FrameReason::LargeHelper:
  case FrameReason::CallingHelper:
    return true;
  case FrameReason::TinyGCLeaf:
  case FrameReason::SmallHelper:
    return false;
  }
  return true;
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
  StringRef Frames = Options.Frames.Value;
  if (Frames == "all")
    Policy.AllFrames = true;
  else if (Frames == "lean")
    Policy.Lean = true;
  else if (!Frames.empty() && Frames != "default")
    return createStringError(inconvertibleErrorCode(),
                             "spinelprof: invalid frame policy '" +
                                 Options.Frames.Value + "' in " +
                                 Options.Frames.Origin +
                                 ": expected 'default', 'lean' or 'all'");
  return Policy;
}

bool FramePolicy::wantsFrame(const Function &F) const {
  if (!isInstrumentable(F))
    return false;
  StringRef Name = F.getName();
  if (Exclude && Exclude->match(Name))
    return false;
  if (Include)
    return Include->match(Name);
  if (AllFrames)
    return true;
  FrameReason Reason = classifyFrame(F, ClHelperMinSize);
  if (Lean && Reason == FrameReason::TrivialMethod)
    return false;
  return keepsFrame(Reason);
}

} // namespace spinelprof
