//===- SprofReader.h - Reads a .sprof profile into a Profile ----*- C++ -*-===//
//
// The .sprof is the self-describing half of a profiled run (docs/formats.md,
// "Profile"). The reader is strict about what the format promises — required
// keys, types, stack indexes — because a silently misread profile would show
// plausible but wrong numbers; unknown keys are ignored so newer writers stay
// readable.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_SPROFREADER_H
#define SPINELPROF_TOOLS_SPROFREADER_H

#include "Profile.h"

#include <string>
#include <string_view>

namespace spinelprof {

/// Parses .sprof JSON text. Path is used in messages only. Throws InputError
/// "PATH:LINE:COLUMN: invalid JSON: ..." for syntax errors and
/// "PATH: KEY: problem" (KEY like "samples[3].stack[1]") for content errors,
/// "PATH:LINE: version: ..." for a version other than sprof::VersionOneRun
/// to sprof::VersionNewest (SprofFormat.h, from spinelprof/sprof_format.inc).
Profile parseSprofText(std::string_view Text, const std::string &Path);

/// Reads and parses the .sprof file at Path.
Profile readSprofFile(const std::string &Path);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_SPROFREADER_H
