//===- spinelprof_writer.h - Folded stacks and the .sprof profile -*- C++ -*-===//
//
// Turns a sample table into the two files of docs/formats.md: the CPU
// profile, or the allocation profile (<name>.alloc.folded/.sprof). A file
// whose target is a regular file is written under a temporary name beside
// that target and renamed onto it, so a failed or interrupted write never
// leaves a half-written file; a device or FIFO is written in place.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_WRITER_H
#define SPINELPROF_WRITER_H

#include "spinelprof/output.h"

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
  uint64_t AllocRate; // SPINEL_PROFILE_ALLOC_RATE (allocation profile).
};

/// Which profile writeProfile writes.
enum class ProfileType {
  Cpu,   ///< The CPU (or wall) samples.
  Alloc, ///< The allocation samples: objects and bytes (spinelprof_alloc.h).
};

/// What was written, for the summary line.
struct WriteResult {
  uint64_t SampleCount; // Allocation profile: objects (estimated).
  uint64_t Bytes;       // Allocation profile: bytes (estimated).
  uint64_t Dropped;
  uint64_t Truncated;
  double AchievedHz;
  uint64_t FoldedBytes;
  const char *FailedPath; // On failure: the final path that was not written.
  /// On failure: words for it where strerror's would mislead (a FIFO with
  /// no reader, a socket), from output::describeProblem; else null.
  const char *Problem;
  /// The folded path's target is a character device or FIFO: the folded
  /// stacks went there (at exit), and nothing else was written.
  bool InPlace;
};

/// Removes the temporary file a writer with pid Pid may have left for
/// FinalPath: "<final target>.tmp-<pid>" (spinelprof/output.h), when the
/// target is a regular file. Async-signal-safe.
void removeTemporaryOf(const char *FinalPath, int Pid);

/// What Path's final target is (output::resolveTarget), with the target's
/// name in memory from scratchAlloc rather than on a small thread's stack.
/// Returns 0 or an errno. Async-signal-safe.
int targetKindOf(const char *Path, output::TargetKind &Kind);

/// Writes a profile from its table as docs/formats.md, "Output paths",
/// says: the folded stacks and, when the folded path's target is a regular
/// file and SprofPath is not null, the .sprof; a device or FIFO gets the
/// folded stacks alone, in place (Out.InPlace). Final is false for a
/// periodic flush, which writes regular files only (a device or FIFO gets
/// the profile once, at exit). Returns 0 or the errno of the first failure
/// (then no temporary is left, no regular file is half-written, and
/// Out.FailedPath and Out.Problem say which and why). One writer at a time;
/// sampling may still run (a periodic flush sees the samples recorded so
/// far); takes its memory from spinelprof_scratch.h.
int writeProfile(const char *FoldedPath, const char *SprofPath,
                 const RunInfo &Run, WriteResult &Out,
                 ProfileType Type = ProfileType::Cpu, bool Final = true);

} // namespace spinelprof

#endif // SPINELPROF_WRITER_H
