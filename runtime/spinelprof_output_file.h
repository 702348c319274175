//===- spinelprof_output_file.h - One file of the profile -------*- C++ -*-===//
//
// Where one file of the profile goes and how it is written
// (docs/formats.md, "Output paths", by spinelprof/output.h): a regular
// file under a temporary name beside its target, renamed onto the target
// by publishOutput; a device or FIFO in place. Every function here is
// async-signal-safe: the writer runs in the copy of the process at
// SIGINT/SIGTERM or a crash.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_OUTPUT_FILE_H
#define SPINELPROF_OUTPUT_FILE_H

#include "spinelprof/output.h"

#include <stdint.h>

namespace spinelprof {

class BufferedFile;

/// One file of the profile: its target and, for a regular file, the
/// temporary it is written under. From scratchAlloc: two PATH_MAX names
/// are too much for a small thread's stack.
struct OutputFile {
  output::Target Target;
  char Temp[PATH_MAX + 32];
};

/// Removes O's temporary, if it has one. Async-signal-safe.
void removeTemporary(const OutputFile &O);

/// Writes one file of the profile to O's target as its kind says: a
/// regular file under its temporary name (renamed later by
/// publishOutput), a device or FIFO in place, within
/// output::InPlaceDeadlineNs. Body(File, Contents) writes the bytes.
/// Returns 0 or an errno, with Problem set from output::describeProblem;
/// after a failure no temporary is left. Bytes, when not null, gets the
/// bytes written. Async-signal-safe when Body is.
int writeOutput(OutputFile &O, int Pid, uint64_t *Bytes, const char *&Problem,
                void (*Body)(BufferedFile &File, const void *Contents),
                const void *Contents);

/// Renames O's temporary onto its target (output::publish); on failure
/// removes the temporary. Returns 0 or an errno. Async-signal-safe.
int publishOutput(OutputFile &O);

} // namespace spinelprof

#endif // SPINELPROF_OUTPUT_FILE_H
