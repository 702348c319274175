//===- SpinelLocator.h - Finding the Spinel compiler ------------*- C++ -*-===//
//
// `spinel-prof run` builds with the user's Spinel. It is found the way the
// docs say (docs/spinel.md): --spinel, else $SPINEL, each naming the
// `spinel` script or the directory that holds it, else `spinel` on PATH.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_SPINELLOCATOR_H
#define SPINELPROF_TOOLS_SPINELLOCATOR_H

#include <optional>
#include <string>
#include <vector>

namespace spinelprof {

struct SpinelSearch {
  /// The executable `spinel` script, absolute; empty when not found.
  std::string Script;
  /// What was tried, in order, for the message when nothing was found:
  /// "--spinel /opt/x (no executable spinel there)", "$PATH", ...
  std::vector<std::string> Tried;
};

/// The first executable file named \p Name in $PATH's directories (an
/// empty entry is the current directory), as that directory joined with
/// Name; empty when there is none.
std::string findOnPath(const std::string &Name);

/// Looks for Spinel. \p Option is --spinel's value, if given; when it is
/// given and names no executable, the search stops there (an explicit
/// choice is not silently replaced by another Spinel). Likewise $SPINEL.
SpinelSearch locateSpinel(const std::optional<std::string> &Option);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_SPINELLOCATOR_H
