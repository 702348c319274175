//===- FlamegraphCommand.cpp - spinel-prof flamegraph ---------------------===//
#include "CommandArgs.h"
#include "Commands.h"
#include "FlamegraphPage.h"
#include "ToolError.h"

#include <cstdio>

namespace spinelprof {

int runFlamegraphCommand(const std::vector<std::string> &Args) {
  ParsedArgs A = parseCommandArgs("flamegraph", Args, {"-o", "--title", "--thread", "--focus", "--time"},
                                  {"--icicle", "--collapse-recursion"});
  if (A.Help) {
    std::fputs(commandHelp("flamegraph").c_str(), stdout);
    return ExitSuccess;
  }
  Profile P = applySelection("flamegraph", readProfileArg(singleProfile("flamegraph", A)), A);
  FlamegraphOptions Options;
  Options.Title = A.get("--title").value_or("");
  Options.Icicle = A.has("--icicle");
  writeOutput(A.get("-o"), renderFlamegraphPage(P, Options));
  return ExitSuccess;
}

} // namespace spinelprof
