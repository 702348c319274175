//===- ProfileWriters.h - A Profile back to folded or .sprof ----*- C++ -*-===//
//
// `merge` writes what the runtime writes (docs/formats.md), so its output
// is read by every command and every folded-stacks tool.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_PROFILEWRITERS_H
#define SPINELPROF_TOOLS_PROFILEWRITERS_H

#include "Profile.h"

#include <string>

namespace spinelprof {

/// Escapes a name for a folded line: % ; newline and carriage return.
std::string encodeFoldedName(const std::string &Name);

/// Folded stacks, threads merged, largest count first, ties by stack text.
std::string renderFolded(const Profile &P);

/// A .sprof (JSON) with everything the Profile holds: version 1, or 2 for
/// several runs (keys and versions from spinelprof/sprof_format.inc).
std::string renderSprof(const Profile &P);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_PROFILEWRITERS_H
