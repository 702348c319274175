//===- spinelprof_writer.h - Folded stacks and the .sprof profile -*- C++ -*-===//
//
// Turns the sample table into the two files of docs/formats.md. Each is
// written under a temporary name in its final directory and renamed into
// place, so a failed or interrupted write never leaves a half-written file.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_WRITER_H
#define SPINELPROF_WRITER_H

#include <stddef.h>
#include <stdint.h>

namespace spinelprof {

/// What the profile says about the run besides its samples.
struct RunInfo {
  const char *Command;   // /proc/self/cmdline: arguments separated by NULs.
  size_t CommandSize;
  int Pid;
  uint64_t StartTimeNs;  // CLOCK_REALTIME at start-up.
  uint64_t DurationNs;   // CLOCK_MONOTONIC from start-up to exit.
  uint64_t CpuTimeNs;    // CLOCK_PROCESS_CPUTIME_ID at exit.
  int RequestedHz;
  bool Wall;        // SPINEL_PROFILE_MODE=wall.
  bool WeightTime;  // SPINEL_PROFILE_WEIGHT=time: folded in microseconds.
};

/// What was written, for the summary line.
struct WriteResult {
  uint64_t SampleCount;
  uint64_t Dropped;
  uint64_t Truncated;
  double AchievedHz;
  uint64_t FoldedBytes;
  const char *FailedPath; // On failure: the final path that was not written.
};

/// The .sprof path for a folded path (docs/formats.md): a trailing ".folded"
/// replaced by ".sprof", else ".sprof" appended. Returns a malloc'd string.
char *sprofPathFor(const char *FoldedPath);

/// The temporary name a final path is written under before the rename.
/// Returns a malloc'd string.
char *temporaryPathFor(const char *FinalPath, int Pid);

/// Writes both files from the sample table. Returns 0 or the errno of the
/// first failure (then no file is left behind and Out.FailedPath says
/// which). One writer at a time; sampling may still run (a periodic flush
/// sees the samples recorded so far); may allocate.
int writeProfile(const char *FoldedPath, const char *SprofPath,
                 const RunInfo &Run, WriteResult &Out);

} // namespace spinelprof

#endif // SPINELPROF_WRITER_H
