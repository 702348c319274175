//===- spinelprof_sprof_writer.h - The .sprof profile -----------*- C++ -*-===//
//
// The .sprof of docs/formats.md, "Profile", from the profile's stacks
// (spinelprof_profile_stacks.h); its keys, their order and its version
// come from spinelprof/sprof_format.inc, the list spinel-prof reads by.
// Runs in the writer (at exit, a flush, or the copy of the process that
// writes for a signal): async-signal-safe, no memory of its own.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_SPROF_WRITER_H
#define SPINELPROF_SPROF_WRITER_H

#include "spinelprof_profile_stacks.h"

namespace spinelprof {

class BufferedFile;

/// What a .sprof says: the run, the summary and the stacks.
struct SprofContents {
  ProfileType Type;
  const char *FoldedPath; ///< "folded.path".
  const RunInfo *Run;
  const WriteResult *Result; ///< Counts, rate and the folded file's size.
  const ProfileStacks *Stacks;
};

/// Writes a version-4 .sprof (sprof_format.inc's Timeline: native
/// addresses and each thread's timeline). A writeOutput body: Contents is
/// a SprofContents. Async-signal-safe.
void writeSprofFile(BufferedFile &File, const void *Contents);

} // namespace spinelprof

#endif // SPINELPROF_SPROF_WRITER_H
