//===- spinelprof_writer.cpp - Folded stacks and the .sprof profile -------===//
//
// Part of spinelprof. See spinelprof_writer.h and docs/formats.md. Runs at
// exit (or for a flush, or in the copy of the process that writes for a
// signal), one writer at a time, after the last handler has finished. The
// pieces, each async-signal-safe: the stacks (spinelprof_profile_stacks.h),
// the folded file (spinelprof_folded_writer.h), the .sprof
// (spinelprof_sprof_writer.h), the files they go to
// (spinelprof_output_file.h). Memory from spinelprof_scratch.h, never
// malloc (see there).
//
//===----------------------------------------------------------------------===//
#include "spinelprof_writer.h"

#include "spinelprof_alloc.h"
#include "spinelprof_folded_writer.h"
#include "spinelprof_output_file.h"
#include "spinelprof_profile_stacks.h"
#include "spinelprof_sample_table.h"
#include "spinelprof_scratch.h"
#include "spinelprof_sprof_writer.h"

#include <errno.h>
#include <string.h>

namespace spinelprof {

namespace {
/// The files of one profile and where they go.
struct ProfileFiles {
  OutputFile Folded;
  OutputFile Sprof;
  bool HasSprof; ///< A .sprof is written beside the folded file.
};
} // namespace

/// Resolves the targets of the profile's files (docs/formats.md, "Output
/// paths"): the folded path's, and the .sprof's when the folded stacks go
/// to a regular file. Returns 0 or an errno, with Out's failure fields set.
static int resolveOutputs(const char *FoldedPath, const char *SprofPath,
                          ProfileFiles &Files, WriteResult &Out) {
  Files.Folded.Temp[0] = Files.Sprof.Temp[0] = '\0';
  Files.HasSprof = false;
  int Err = output::resolveTarget(FoldedPath, Files.Folded.Target);
  if (Err)
    return Err;
  Out.InPlace = !output::isRegular(Files.Folded.Target.Kind);
  if (Out.InPlace || !SprofPath)
    return 0;
  Files.HasSprof = true;
  Err = output::resolveTarget(SprofPath, Files.Sprof.Target);
  if (Err)
    Out.FailedPath = SprofPath;
  return Err;
}

/// Out's fields before anything is written: the table's drops and
/// truncations, the folded path as the one that failed until it is
/// written.
static void startResult(const char *FoldedPath, ProfileType Type,
                        WriteResult &Out) {
  bool Alloc = Type == ProfileType::Alloc;
  const SampleTable &Table = Alloc ? allocSamples() : cpuSamples();
  memset(&Out, 0, sizeof(Out));
  Out.FailedPath = FoldedPath;
  Out.Dropped = Alloc ? allocObjects(Table.dropped()) : Table.dropped();
  Out.Truncated = Alloc ? allocTruncated() : truncatedSamples();
}

/// Writes the folded file and the .sprof under their temporary names (or
/// the folded file in place), then renames them onto their targets: the
/// folded file first, which alone is still a complete, valid profile.
/// Returns 0 or an errno; after a failure no temporary is left.
static int writeAndPublish(ProfileFiles &Files, const FoldedLines &Lines,
                           const SprofContents &Sprof, const char *SprofPath,
                           WriteResult &Out) {
  int Pid = Sprof.Run->Pid;
  int Err = writeOutput(Files.Folded, Pid, &Out.FoldedBytes, Out.Problem,
                        writeFoldedFile, &Lines);
  if (!Err && Files.HasSprof) {
    Err = writeOutput(Files.Sprof, Pid, nullptr, Out.Problem, writeSprofFile,
                      &Sprof);
    if (Err) {
      Out.FailedPath = SprofPath;
      removeTemporary(Files.Folded);
    }
  }
  if (Err)
    return Err;
  if ((Err = publishOutput(Files.Folded)) != 0) {
    if (Files.HasSprof)
      removeTemporary(Files.Sprof);
  } else if (Files.HasSprof && (Err = publishOutput(Files.Sprof)) != 0) {
    Out.FailedPath = SprofPath;
  }
  return Err;
}

/// Builds the profile from its table and writes it to Files.
static int buildAndWrite(ProfileFiles &Files, const char *FoldedPath,
                         const char *SprofPath, const RunInfo &Run,
                         ProfileType Type, WriteResult &Out) {
  const SampleTable &Table =
      Type == ProfileType::Alloc ? allocSamples() : cpuSamples();
  ProfileStacks Stacks;
  FoldedLines Lines;
  int Err = collectStacks(Table, Type, Run, Stacks);
  if (!Err) {
    summarizeStacks(Stacks, Out);
    Err = buildFoldedLines(Stacks, Type, Run, Lines);
  }
  if (!Err)
    Err = numberFramesAndThreads(Stacks);
  if (!Err) {
    SprofContents Sprof = {Type, FoldedPath, &Run, &Out, &Stacks};
    Err = writeAndPublish(Files, Lines, Sprof, SprofPath, Out);
  }
  freeFoldedLines(Lines);
  freeProfileStacks(Stacks);
  return Err;
}

int writeProfile(const char *FoldedPath, const char *SprofPath,
                 const RunInfo &Run, WriteResult &Out, ProfileType Type,
                 bool Final) {
  startResult(FoldedPath, Type, Out);
  auto *Files = static_cast<ProfileFiles *>(scratchAlloc(sizeof(ProfileFiles)));
  if (!Files)
    return ENOMEM;
  int Err = resolveOutputs(FoldedPath, SprofPath, *Files, Out);
  if (!Err && !(Out.InPlace && !Final))
    Err = buildAndWrite(*Files, FoldedPath, SprofPath, Run, Type, Out);
  scratchFree(Files);
  return Err;
}

} // namespace spinelprof
