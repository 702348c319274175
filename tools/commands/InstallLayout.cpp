//===- InstallLayout.cpp - Where spinel-prof finds its plugin and runtime -===//
#include "InstallLayout.h"
#include "ToolError.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#ifndef SPINELPROF_CLANG
#error "SPINELPROF_CLANG must be defined by the build (tools/CMakeLists.txt)"
#endif

namespace spinelprof {

InstallLayout locateInstallLayout() {
  namespace fs = std::filesystem;
  std::error_code EC;
  // /proc/self/exe resolves symlinks, so a `spinel-prof` symlinked into
  // ~/bin still finds the lib/ beside the real binary.
  fs::path Exe = fs::read_symlink("/proc/self/exe", EC);
  if (EC)
    throw InputError("/proc/self/exe: cannot find the spinel-prof executable: " + EC.message());
  InstallLayout Layout;
  Layout.ExecutablePath = Exe.string();
  fs::path Lib = (Exe.parent_path() / ".." / "lib").lexically_normal();
  Layout.LibraryDir = Lib.string();
  Layout.PluginPath = (Lib / "SpinelProf.so").string();
  Layout.RuntimePath = (Lib / "libspinelprof_rt.a").string();
  Layout.RubySymbolsScript =
      (Exe.parent_path() / ".." / "share" / "spinelprof" / "spinel-prof-symbols.rb")
          .lexically_normal()
          .string();
  return Layout;
}

std::string matchingClangPath() {
  if (const char *Override = std::getenv("SPINEL_PROF_CLANG"); Override && *Override)
    return Override;
  return SPINELPROF_CLANG;
}

} // namespace spinelprof
