//===- Commands.h - The spinel-prof subcommands -----------------*- C++ -*-===//
//
// One entry point per subcommand, each taking the arguments after its name.
// They throw UsageError or InputError instead of exiting, so main() alone
// owns messages and exit statuses.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_COMMANDS_H
#define SPINELPROF_TOOLS_COMMANDS_H

#include <string>
#include <string_view>
#include <vector>

namespace spinelprof {

/// `spinel-prof cc`: execs the compiler; returns only for --help.
int runCcCommand(const std::vector<std::string> &Args);

/// `spinel-prof report`.
int runReportCommand(const std::vector<std::string> &Args);

/// `spinel-prof run`: Spinel build, run, profile and report in one step.
/// Returns the program's exit status (128+N for signal N), 127 without
/// Spinel, 125 when the build fails.
int runRunCommand(const std::vector<std::string> &Args);

/// `spinel-prof symbols`: the .rb locations of app.rb's C functions as a
/// symbol map (Ruby's parser, through RubySymbols).
int runSymbolsCommand(const std::vector<std::string> &Args);

/// `spinel-prof flamegraph`, `convert`, `diff`, `merge` (issue 5).
int runFlamegraphCommand(const std::vector<std::string> &Args);
int runConvertCommand(const std::vector<std::string> &Args);
int runDiffCommand(const std::vector<std::string> &Args);
int runMergeCommand(const std::vector<std::string> &Args);

/// Help of flamegraph, convert, diff and merge (OutputHelpText.cpp); empty
/// for any other name.
std::string outputCommandHelp(std::string_view Command);

/// Help text of a subcommand; empty if there is no such subcommand.
std::string commandHelp(std::string_view Command);

/// The top-level help text.
std::string toolHelp();

/// "spinel-prof VERSION (...)" for --version.
std::string toolVersion();

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_COMMANDS_H
