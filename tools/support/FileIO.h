//===- FileIO.h - Reading inputs whole, writing outputs atomically -*- C++ -*-===//
//
// Every input error must name its file; every output written with -o to a
// file must be complete or absent, never half-written (a reader of a killed
// run's report would otherwise trust a truncated table).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_FILEIO_H
#define SPINELPROF_TOOLS_FILEIO_H

#include <string>
#include <string_view>

namespace spinelprof {

/// Returns the whole file; throws InputError "PATH: problem" on failure.
std::string readWholeFile(const std::string &Path);

/// Writes Contents to Path as docs/formats.md, "Output paths", says for
/// what Path finally names (spinelprof/output.h): a regular or new file
/// through a temporary beside that target and rename(2), so a symlink
/// stays and a file is whole or untouched; a character device or FIFO in
/// place, within a few seconds; nothing else. On failure throws InputError.
void writeOutputFile(const std::string &Path, std::string_view Contents);

/// Writes Contents to standard output; throws InputError on a write error
/// (a full disk or a closed pipe must not look like success).
void writeStandardOutput(std::string_view Contents);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_FILEIO_H
