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

/// Help text of a subcommand; empty if there is no such subcommand.
std::string commandHelp(std::string_view Command);

/// The top-level help text.
std::string toolHelp();

/// "spinel-prof VERSION (...)" for --version.
std::string toolVersion();

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_COMMANDS_H
