//===- ProfileInput.h - Opens whatever PROFILE a command is given -*- C++ -*-===//
//
// Every command takes PROFILE as a .sprof, a folded file with its .sprof
// beside it, or a plain folded file from elsewhere (docs/formats.md). This is
// the one place that decides which, so all commands agree.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_PROFILEINPUT_H
#define SPINELPROF_TOOLS_PROFILEINPUT_H

#include "Profile.h"

#include <functional>
#include <string>
#include <string_view>

namespace spinelprof {

/// The .sprof that belongs to a folded path: a trailing ".folded" replaced
/// by ".sprof", else ".sprof" appended (output::sprofPathFor).
std::string sprofPathForFolded(const std::string &FoldedPath);

/// Receives a warning that does not stop the command.
using WarningHandler = std::function<void(const std::string &)>;

/// Reads PROFILE. A path ending in ".sprof" is read as a .sprof; "-" reads
/// folded stacks from standard input. Any other
/// path is a folded file; its .sprof is used instead when it exists, parses,
/// and records the folded file's exact size (folded.bytes). Otherwise Warn is
/// called once (only if the .sprof exists) and the folded file is read alone,
/// so a stale profile never lends its metadata to another run's stacks.
Profile readProfile(const std::string &Path, const WarningHandler &Warn);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_PROFILEINPUT_H
