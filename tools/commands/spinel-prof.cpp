//===- spinel-prof.cpp - The spinel-prof command --------------------------===//
//
// Dispatches to a subcommand and turns its errors into a message and an exit
// status (0 success, 1 bad input or I/O, 2 bad usage). The work lives in the
// spinelprof_tool library.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

using namespace spinelprof;

namespace {

int runCommand(const std::string &Name, const std::vector<std::string> &Args) {
  if (Name == "cc")
    return runCcCommand(Args);
  if (Name == "report")
    return runReportCommand(Args);
  if (Name == "run")
    return runRunCommand(Args);
  if (Name == "symbols")
    return runSymbolsCommand(Args);
  if (Name == "flamegraph")
    return runFlamegraphCommand(Args);
  if (Name == "convert")
    return runConvertCommand(Args);
  if (Name == "diff")
    return runDiffCommand(Args);
  if (Name == "merge")
    return runMergeCommand(Args);
  if (Name == "help") {
    if (Args.empty()) {
      std::fputs(toolHelp().c_str(), stdout);
      return ExitSuccess;
    }
    std::string Help = commandHelp(Args[0]);
    if (Help.empty())
      throw UsageError("", "unknown command '" + Args[0] + "'");
    std::fputs(Help.c_str(), stdout);
    return ExitSuccess;
  }
  if (Name == "-h" || Name == "--help") {
    std::fputs(toolHelp().c_str(), stdout);
    return ExitSuccess;
  }
  if (Name == "--version") {
    std::fputs(toolVersion().c_str(), stdout);
    return ExitSuccess;
  }
  if (!Name.empty() && Name[0] == '-')
    throw UsageError("", "unknown option '" + Name + "'");
  throw UsageError("", "unknown command '" + Name + "'");
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    fmt::print(stderr, "spinel-prof: no command given\nTry 'spinel-prof --help'.\n");
    return ExitUsageError;
  }
  std::string Name = Argv[1];
  std::vector<std::string> Args(Argv + 2, Argv + Argc);
  try {
    int Status = runCommand(Name, Args);
    if (std::fflush(stdout) != 0) {
      fmt::print(stderr, "spinel-prof: <stdout>: cannot write\n");
      return ExitInputError;
    }
    return Status;
  } catch (const UsageError &E) {
    std::string Prefix = E.Command.empty() ? "" : E.Command + ": ";
    std::string Hint = E.Command.empty() ? "spinel-prof --help" : "spinel-prof " + E.Command + " --help";
    fmt::print(stderr, "spinel-prof: {}{}\nTry '{}'.\n", Prefix, E.what(), Hint);
    return ExitUsageError;
  } catch (const InputError &E) {
    fmt::print(stderr, "spinel-prof: {}\n", E.what());
    return ExitInputError;
  } catch (const std::exception &E) {
    fmt::print(stderr, "spinel-prof: internal error: {}\n", E.what());
    return ExitInputError;
  }
}
