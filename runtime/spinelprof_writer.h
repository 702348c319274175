//===- spinelprof_writer.h - Folded stacks and the .sprof profile -*- C++ -*-===//
//
// Turns a sample table into the two files of docs/formats.md: the CPU
// profile, or the allocation profile (<name>.alloc.folded/.sprof). Each is
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
};

/// The .sprof path for a folded path (docs/formats.md): a trailing ".folded"
/// replaced by ".sprof", else ".sprof" appended. Returns a malloc'd string.
char *sprofPathFor(const char *FoldedPath);

/// The temporary name a final path is written under before the rename,
/// "<final>.tmp-<pid>", into Out (Size bytes). Returns false if it does not
/// fit. Async-signal-safe.
bool formatTemporaryPath(char *Out, size_t Size, const char *FinalPath,
                         int Pid);

/// The same in a string from scratchAlloc (free it with scratchFree), or
/// null.
char *temporaryPathFor(const char *FinalPath, int Pid);

/// The allocation profile's folded path for the CPU profile's: a trailing
/// ".folded" replaced by ".alloc.folded", else ".alloc.folded" appended.
/// Returns a malloc'd string.
char *allocPathFor(const char *FoldedPath);

/// Writes both files of a profile from its table. Returns 0 or the errno of the
/// first failure (then no file is left behind and Out.FailedPath says
/// which). One writer at a time; sampling may still run (a periodic flush
/// sees the samples recorded so far); may allocate.
int writeProfile(const char *FoldedPath, const char *SprofPath,
                 const RunInfo &Run, WriteResult &Out,
                 ProfileType Type = ProfileType::Cpu);

} // namespace spinelprof

#endif // SPINELPROF_WRITER_H
