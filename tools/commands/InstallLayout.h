//===- InstallLayout.h - Where spinel-prof finds its plugin and runtime -*- C++ -*-===//
//
// The build tree and an install prefix share one relative layout:
// <prefix>/bin/spinel-prof, <prefix>/lib/SpinelProf.so,
// <prefix>/lib/libspinelprof_rt.a and
// <prefix>/share/spinelprof/spinel-prof-symbols.rb. Finding the files next to the running
// executable makes both work without settings.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_INSTALLLAYOUT_H
#define SPINELPROF_TOOLS_INSTALLLAYOUT_H

#include <string>

namespace spinelprof {

/// The files spinel-prof cc adds to a compiler command line.
struct InstallLayout {
  std::string ExecutablePath; ///< The running spinel-prof (from /proc/self/exe).
  std::string LibraryDir;     ///< <dir of executable>/../lib, normalized.
  std::string PluginPath;     ///< LibraryDir/SpinelProf.so
  std::string RuntimePath;    ///< LibraryDir/libspinelprof_rt.a
  std::string RubySymbolsScript; ///< <prefix>/share/spinelprof/spinel-prof-symbols.rb
};

/// Locates the layout of the running executable. Throws InputError if the
/// executable's own path cannot be determined. Does not check that the
/// plugin or runtime exist; callers check what they need.
InstallLayout locateInstallLayout();

/// The clang the plugin was built for: $SPINEL_PROF_CLANG if set, else the
/// path configured at build time.
std::string matchingClangPath();

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_INSTALLLAYOUT_H
