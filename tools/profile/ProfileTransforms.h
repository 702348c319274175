//===- ProfileTransforms.h - Profile -> Profile filters and merging -*- C++ -*-===//
//
// What `report --focus/--thread/--collapse-recursion` and `merge` do to a
// profile, as plain functions so every command (report, flamegraph,
// convert) applies them the same way.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_PROFILETRANSFORMS_H
#define SPINELPROF_TOOLS_PROFILETRANSFORMS_H

#include "Profile.h"

#include <string>
#include <vector>

namespace spinelprof {

/// Keeps the samples of one thread. Spec is a tid ("4243") or a thread
/// name ("worker"), which in a profile of several runs keep that thread of
/// every run, or RUN:TID ("2:4243", runs counted from 1) for one. Throws
/// InputError naming the threads there are when no thread matches.
Profile selectThread(const Profile &P, const std::string &Spec);

/// Keeps the samples with at least one frame whose name matches Regex (an
/// ECMAScript regex, searched anywhere in the name). Throws UsageError for
/// a bad regex (Command names the subcommand for the hint).
Profile focusOn(const Profile &P, const std::string &Regex, const std::string &Command);

/// Collapses direct recursion: a run of the same frame (a;b;b;b;c) becomes
/// one (a;b;c). Samples that become equal are summed.
Profile collapseRecursion(const Profile &P);

/// Sums profiles: frames are the same when name, C name, kind, file and line
/// all are; samples when run, thread and stack are. Each profile is a run
/// of its own (a merged one brings its runs), with its command, pid, start
/// and times kept in Runs, and its threads and samples keyed by it: the
/// threads of two runs are never one thread. Metadata: counts (samples,
/// dropped, truncated, CPU time) are summed, the command, pid and start are
/// the first profile's, the duration the longest; the rest is dropped.
/// Profiles of different kinds (CPU, allocation) are an InputError.
Profile mergeProfiles(const std::vector<Profile> &Profiles);

/// Sums samples with equal (thread, stack) and drops frames no sample uses.
Profile normalizeProfile(const Profile &P);

/// True when every sample carries a CPU/wall-time weight.
bool hasWeights(const Profile &P);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_PROFILETRANSFORMS_H
