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
// A push costs a small leaf (an accessor, `Parser#peek`) as much as its
// body, and a leaf needs none: nothing runs above it, so it is on top of
// the stack exactly when the program counter is in it. Such leaves keep
// their descriptor, flagged, and the runtime names samples by the PC
// (runtime/spinelprof_native.cpp), as it names native code.
//
//===----------------------------------------------------------------------===//

#include "FramePolicy.h"

#include "RuntimeNames.h"
#include "SpinelNames.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"

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

/// What the policy needs to know about a body, in one walk.
struct BodyShape {
  unsigned Instructions = 0; // debug intrinsics aside
  bool CallsSomething = false; // a call that is not an intrinsic (nor,
                               // seen through, of a helper that inlinesAway)
};

/// True when the inliner may inline \p Callee at all: it is not
/// `noinline` or `optnone`, and no other definition can replace it.
bool inlinable(const Function &Callee) {
  return !Callee.hasFnAttribute(Attribute::NoInline) &&
         !Callee.hasFnAttribute(Attribute::OptimizeNone) &&
         !Callee.isInterposable();
}

/// How deep inlinesAway follows the inline helpers a helper calls.
constexpr unsigned InlineHelperDepth = 3;

/// True when a call of \p Callee is no call once optimized: a header's
/// helper marked `inline`, under \p HelperMinSize IR instructions, that
/// calls nothing but intrinsics and such helpers (`sp_utf8_advance` in
/// `sp_utf8_byte_offset`'s loop). It disappears into its caller at -O2
/// with no frame of its own. \p Depth bounds the walk (and breaks cycles).
bool inlinesAway(const Function &Callee, unsigned HelperMinSize,
                 bool CompilingRuntimeLibrary, unsigned Depth) {
  // isGCFunctionName covers the collector's callbacks too.
  if (Depth == 0 || Callee.isDeclaration() ||
      !Callee.hasFnAttribute(Attribute::InlineHint) || !inlinable(Callee) ||
      isGCFunctionName(Callee.getName()) ||
      getDefinitionSite(Callee, CompilingRuntimeLibrary).IsProgramOwn)
    return false;
  unsigned Instructions = 0;
  for (const BasicBlock &BB : Callee)
    for (const Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (++Instructions >= HelperMinSize)
        return false;
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Next = Call ? Call->getCalledFunction() : nullptr;
      if (!Call || (Next && Next->isIntrinsic()))
        continue;
      if (!Next || Next == &Callee ||
          !inlinesAway(*Next, HelperMinSize, CompilingRuntimeLibrary,
                       Depth - 1))
        return false;
    }
  return true;
}

/// \p F's shape; with \p SeeThrough, a call of an inline helper that
/// inlinesAway is no call.
BodyShape measure(const Function &F, bool SeeThrough, unsigned HelperMinSize,
                  bool CompilingRuntimeLibrary) {
  BodyShape Shape;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      ++Shape.Instructions;
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (Call && !(Callee && (Callee->isIntrinsic() ||
                               (SeeThrough &&
                                inlinesAway(*Callee, HelperMinSize,
                                            CompilingRuntimeLibrary,
                                            InlineHelperDepth)))))
        Shape.CallsSomething = true;
    }
  return Shape;
}

/// The IR instructions (as counted before mem2reg) up to which a local
/// function that is not `inline` is still sure to be inlined at -O2.
constexpr unsigned TinyCalleeSize = 8;

} // namespace

/// Adds \p F's size, and that of the inline leaves it calls, to \p Size;
/// false as soon as it calls anything else or the total exceeds
/// LeafMaxSize. \p Depth bounds the walk (and breaks cycles of inline
/// functions).
bool FramePolicy::addLeafSize(const Function &F, unsigned Depth,
                              unsigned &Size) const {
  // A loop is where a function's time goes, and a push is paid once for
  // all its iterations: a leaf with one keeps its frame.
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  if (!BackEdges.empty())
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (++Size > LeafMaxSize)
        return false;
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      const Function *Callee = Call->getCalledFunction();
      if (Callee && Callee->isIntrinsic())
        continue;
      // Only a callee that disappears into this body at -O2 (no frame of
      // its own, and `inline` or a tiny local function such as Spinel's
      // `static void sp_gc_cleanup(int *p)`, the SP_GC_SAVE cleanup of
      // every method) keeps this a leaf; at -O0 every function is noinline.
      if (!Callee || Callee == &F || Depth == 0 || !isInstrumentable(*Callee) ||
          !inlinable(*Callee))
        return false;
      if (!Callee->hasFnAttribute(Attribute::InlineHint) &&
          !(Callee->hasLocalLinkage() &&
            Callee->getInstructionCount() <= TinyCalleeSize))
        return false;
      if (!getDefinitionSite(*Callee, CompilingRuntimeLibrary).IsProgramOwn &&
          keepsFrame(classify(*Callee)))
        return false;
      if (!addLeafSize(*Callee, Depth - 1, Size))
        return false;
    }
  return true;
}

bool FramePolicy::mayInlinePush(const Function &F, unsigned Depth) const {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || Callee == &F || !isInstrumentable(*Callee))
        continue; // Not a call, an indirect or native one, or recursion.
      // Another callback is judged by its own body, below.
      if (!isGCCallbackName(Callee->getName()) &&
          choose(*Callee) == FrameChoice::Push)
        return true;
      if (Depth && mayInlinePush(*Callee, Depth - 1))
        return true;
    }
  return false;
}

bool FramePolicy::isSmallLeaf(const Function &F) const {
  if (LeafMaxSize == 0 || F.getName() == "main")
    return false;
  unsigned Size = 0;
  return addLeafSize(F, /*Depth=*/3, Size);
}

bool isInstrumentable(const Function &F) {
  if (F.isDeclaration() || F.hasAvailableExternallyLinkage())
    return false;
  // A naked function has no prologue to put a push into.
  if (F.hasFnAttribute(Attribute::Naked))
    return false;
  if (F.getName().starts_with("__spinelprof"))
    return false;
  return !F.hasFnAttribute(InstrumentedAttr) && !F.hasFnAttribute(PcNamedAttr);
}

FrameReason FramePolicy::classify(const Function &F) const {
  // Wherever it is defined (Spinel writes a class's scanner in the
  // program's file): it runs only under the collector's marking frame.
  if (isGCCallbackName(F.getName()))
    return FrameReason::GCCallback;
  if (getDefinitionSite(F, CompilingRuntimeLibrary).IsProgramOwn)
    return F.hasFnAttribute(Attribute::InlineHint) ? FrameReason::TrivialMethod
                                                   : FrameReason::ProgramOwn;
  // A helper no Ruby method stands for (the table's "-", or absent) and
  // only ever called directly is plumbing inside the helper or method that
  // calls it (`sp_utf8_byte_offset` in `String#[]`): its calls of inline
  // helpers that vanish into it do not make it a calling helper, and
  // without a frame its time is its caller's (template: ~10 instructions
  // per `String#[]` of frames). A Ruby-named helper keeps its frame, being
  // what a Ruby developer reads (`String#length`, `Hash#[]`), and so does
  // one whose address is taken (a collector's scanner such as
  // `sp_StrArray_scan` runs as a function, named by its frame).
  bool GC = isGCFunctionName(F.getName());
  bool SeeThrough =
      !GC && !F.hasAddressTaken() && runtimeRubyName(F.getName()).empty();
  BodyShape Shape =
      measure(F, SeeThrough, HelperMinSize, CompilingRuntimeLibrary);
  if (GC)
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

bool keepsFrame(FrameReason Reason) {
  switch (Reason) {
  case FrameReason::ProgramOwn:
  case FrameReason::TrivialMethod:
  case FrameReason::GCEntry:
  case FrameReason::LargeHelper:
  case FrameReason::CallingHelper:
    return true;
  case FrameReason::GCCallback:
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
  if (StringRef(Options.LeafMaxSize.Value)
          .getAsInteger(10, Policy.LeafMaxSize))
    return createStringError(
        inconvertibleErrorCode(),
        "spinelprof: invalid leaf size '" + Options.LeafMaxSize.Value +
            "' in " + Options.LeafMaxSize.Origin +
            ": expected a number of IR instructions (0: no PC-named leaves)");
  Policy.HelperMinSize = Options.HelperMinSize;
  Policy.CompilingRuntimeLibrary = Options.CompilingRuntimeLibrary;
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

FrameChoice FramePolicy::choose(const Function &F) const {
  if (!isInstrumentable(F))
    return FrameChoice::None;
  StringRef Name = F.getName();
  if (Exclude && Exclude->match(Name))
    return FrameChoice::None;
  if (Include)
    return Include->match(Name) ? FrameChoice::Push : FrameChoice::None;
  if (AllFrames)
    return FrameChoice::Push;
  FrameReason Reason = classify(F);
  // A collector callback is called once per object marked (binary trees:
  // a push and pop per node and per pointer it marks, ~3 % of the
  // program's instructions), and always under the collector's own frames,
  // so the GC share and its marking part are the same without its push: a
  // sample whose PC is in it has it as the leaf. Not when a pushed frame
  // may be inlined into it (under UBSan even sp_gc_hdr_of calls out and
  // keeps one): a sample inside that frame would read the callback on top.
  if (Reason == FrameReason::GCCallback)
    return LeafMaxSize && !mayInlinePush(F, /*Depth=*/3) ? FrameChoice::PcNamed
                                                         : FrameChoice::Push;
  if ((Reason == FrameReason::ProgramOwn ||
       Reason == FrameReason::TrivialMethod) &&
      isSmallLeaf(F))
    return FrameChoice::PcNamed;
  if (Lean && Reason == FrameReason::TrivialMethod)
    return FrameChoice::None;
  return keepsFrame(Reason) ? FrameChoice::Push : FrameChoice::None;
}

} // namespace spinelprof
