//===- CcCommand.cpp - spinel-prof cc -------------------------------------===//
#include "CcDriver.h"
#include "Commands.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace spinelprof {

int runCcCommand(const std::vector<std::string> &Args) {
  CcOptions Options = parseCcOptions(Args);
  if (Options.Help) {
    std::fputs(commandHelp("cc").c_str(), stdout);
    return ExitSuccess;
  }
  CompilerCommand Command =
      buildCompilerCommand(Options, locateInstallLayout(), matchingClangPath());
  if (const char *Verbose = std::getenv("SPINEL_PROF_VERBOSE");
      Verbose && *Verbose && std::string(Verbose) != "0")
    fmt::print(stderr, "spinel-prof: {}\n", formatCommandLine(Command));
  std::fflush(stderr);
  execCompiler(Command);
}

} // namespace spinelprof
