//===- CcDriver.h - spinel-prof cc: clang plus plugin plus runtime -*- C++ -*-===//
//
// A drop-in C compiler: the same command line as clang, with the plugin added
// when a C-family source is compiled and the runtime archive added when an
// executable is linked. It must survive arbitrary build systems (Spinel's
// `--cc`, make, CMake), so it never drops or reorders the user's arguments;
// it only adds in front (so the user's own -g wins) and at the end (so the
// runtime is searched after the user's libraries).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_CCDRIVER_H
#define SPINELPROF_TOOLS_CCDRIVER_H

#include "InstallLayout.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spinelprof {

/// spinel-prof's own options, which come before the compiler's arguments.
struct CcOptions {
  std::optional<std::string> SymbolsPath; ///< --symbols FILE
  std::optional<std::string> Include;     ///< --include REGEX
  std::optional<std::string> Exclude;     ///< --exclude REGEX
  bool AllFrames = false;                 ///< --all-frames
  bool Help = false;
  std::vector<std::string> CompilerArgs; ///< Everything after our options.
};

/// Splits `cc` arguments. Our options are recognized only at the front (up
/// to the first other argument, or `--`), so clang's own options — even
/// clang's `--include` — pass through when they come later. Throws
/// UsageError for a missing option value.
CcOptions parseCcOptions(const std::vector<std::string> &Args);

/// What a compiler command line does, as far as spinel-prof cares.
struct CompilerJob {
  bool Compiles = false;       ///< Generates code from C, C++, ObjC or IR.
  bool Links = false;          ///< Produces an executable.
  bool HasDebugLevel = false;  ///< The user chose a -g level themselves.
  bool SharedObject = false;   ///< -shared: its code goes into a library.
};

/// Classifies clang arguments. -E, -M, -MM and -fsyntax-only generate no
/// code; -c and -S do not link; -shared and -r link something that is not an
/// executable, which gets its runtime when the executable is linked.
CompilerJob classifyCompilerArgs(const std::vector<std::string> &Args);

/// A program to exec with its arguments and added environment.
struct CompilerCommand {
  std::string Program;
  std::vector<std::string> Args; ///< Without argv[0].
  std::vector<std::pair<std::string, std::string>> Environment;
};

/// Builds the final clang command. Throws InputError when the plugin or
/// runtime it needs is missing, or the --symbols file cannot be read.
CompilerCommand buildCompilerCommand(const CcOptions &Options, const InstallLayout &Layout,
                                     const std::string &Clang);

/// The command as one shell-quoted line, environment first (for
/// SPINEL_PROF_VERBOSE).
std::string formatCommandLine(const CompilerCommand &Command);

/// Replaces this process with the compiler, so the compiler's exit status
/// and signals are the caller's. Returns only by throwing InputError.
[[noreturn]] void execCompiler(const CompilerCommand &Command);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_CCDRIVER_H
