//===- FileIO.h - Reading inputs whole, writing outputs atomically -*- C++ -*-===//
//
// Every input error must name its file; every output written with -o must
// be complete or absent, never half-written (a reader of a killed run's
// report would otherwise trust a truncated table).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_FILEIO_H
#define SPINELPROF_TOOLS_FILEIO_H

#include <string>
#include <string_view>

namespace spinelprof {

/// Returns the whole file; throws InputError "PATH: problem" on failure.
std::string readWholeFile(const std::string &Path);

/// Writes Contents to Path through a temporary file in the same directory
/// and rename(2); on failure throws InputError and leaves Path untouched.
void writeFileAtomically(const std::string &Path, std::string_view Contents);

/// Writes Contents to standard output; throws InputError on a write error
/// (a full disk or a closed pipe must not look like success).
void writeStandardOutput(std::string_view Contents);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_FILEIO_H
