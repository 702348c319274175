//===- RuntimeFolding.h - A Ruby programmer's view of a profile -*- C++ -*-===//
//
// Spinel's runtime helpers (sp_str_concat, sp_Fiber_resume, ...) and the
// collector's internals are noise to someone reading their Ruby program's
// profile. Folding charges each runtime frame to the Ruby frame that called
// it, so what is left is Ruby methods and blocks, plus [GC] and the
// synthetic leaves; native leaves ("[native] strtol", libc and other code
// without frames) go to their Ruby caller too: a Ruby-only view. A Profile ->
// Profile transform, so report, flamegraph and the converters can all offer
// it.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_RUNTIMEFOLDING_H
#define SPINELPROF_TOOLS_RUNTIMEFOLDING_H

#include "Profile.h"

namespace spinelprof {

/// Each sample's stack, rewritten root to leaf:
///  - user and block frames stay (so do frames of unknown kind);
///  - runtime frames are dropped: their time goes to the caller below them;
///    so are "[native] NAME" leaves (kind runtime: time outside
///    instrumented code);
///  - the first GC frame and everything above it become one "[GC]" frame
///    (kind gc): collection, marking, sweeping and allocation alike;
///  - synthetic frames ([truncated], [unknown]) stay.
/// A stack of runtime frames only keeps its leaf.
/// Samples that end up with equal (thread, stack) are summed (counts and
/// weights); frames no sample uses are dropped. Metadata is kept.
Profile foldRuntimeFrames(const Profile &P);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_RUNTIMEFOLDING_H
