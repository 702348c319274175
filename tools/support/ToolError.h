//===- ToolError.h - Errors that end a spinel-prof command ------*- C++ -*-===//
//
// The tool has two kinds of failure with different exit statuses (docs/architecture.md:
// 1 bad input or I/O, 2 bad usage). Library code throws one of these; only
// main() turns them into a message and a status, so the logic stays testable
// and never calls exit() itself.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_TOOLERROR_H
#define SPINELPROF_TOOLS_TOOLERROR_H

#include <stdexcept>
#include <string>

namespace spinelprof {

/// Exit statuses of spinel-prof itself (a wrapped compiler's status passes
/// through unchanged).
enum ExitStatus : int { ExitSuccess = 0, ExitInputError = 1, ExitUsageError = 2 };

/// Bad input or an I/O failure. The message already names the file and, where
/// known, the line or JSON key: "app.folded:3: count is negative".
class InputError : public std::runtime_error {
public:
  explicit InputError(const std::string &Message) : std::runtime_error(Message) {}
};

/// A command line the tool cannot understand. Command names the subcommand
/// ("report", or "" for the top level) so the hint can point at its --help.
class UsageError : public std::runtime_error {
public:
  UsageError(const std::string &Command, const std::string &Message)
      : std::runtime_error(Message), Command(Command) {}
  std::string Command;
};

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_TOOLERROR_H
