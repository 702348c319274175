//===- CommandArgs.h - One command-line parser for the subcommands -*- C++ -*-===//
//
// Subcommands share the conventions of `report`: options anywhere, `--opt V`
// and `--opt=V`, `-oFILE`, `--` ends options, `-` is a positional (stdin or
// stdout). A subcommand lists which options it knows; anything else is a
// UsageError naming the subcommand.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_COMMANDARGS_H
#define SPINELPROF_TOOLS_COMMANDARGS_H

#include "Profile.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace spinelprof {

struct ParsedArgs {
  std::vector<std::string> Positionals;
  /// Last value of each option given (flags get ""), by canonical name.
  std::map<std::string, std::string> Values;
  /// Where in the arguments each option was last given, for options that
  /// undo each other (the later one wins).
  std::map<std::string, size_t> LastIndex;
  bool Help = false;

  bool has(const std::string &Name) const { return Values.count(Name) != 0; }
  std::optional<std::string> get(const std::string &Name) const {
    auto It = Values.find(Name);
    if (It == Values.end())
      return std::nullopt;
    return It->second;
  }
  /// True when A was given, and after B if B was given too.
  bool givenAfter(const std::string &A, const std::string &B) const {
    return has(A) && (!has(B) || LastIndex.at(A) > LastIndex.at(B));
  }
};

/// Parses Args for Command. WithValue lists options that take a value
/// ("--to", "-o"), Flags those that do not ("--text"). "-o" also accepts
/// "--output" and "-oFILE". -h/--help sets Help and stops.
ParsedArgs parseCommandArgs(const std::string &Command, const std::vector<std::string> &Args,
                            const std::set<std::string> &WithValue,
                            const std::set<std::string> &Flags);

/// The one PROFILE positional of Command, or UsageError (none, or several).
const std::string &singleProfile(const std::string &Command, const ParsedArgs &Args);

/// A non-negative integer option value, or UsageError.
size_t parseCountOption(const std::string &Command, const std::string &Option,
                        const std::string &Value);

/// Reads a PROFILE argument, printing warnings to stderr.
Profile readProfileArg(const std::string &Path);

/// Writes Contents to Path ("-" or none: standard output) atomically.
void writeOutput(const std::optional<std::string> &Path, const std::string &Contents);

/// Applies the shared selection options (--time, --thread, --focus,
/// --collapse-recursion) that are present in Args, in that order.
Profile applySelection(const std::string &Command, Profile P, const ParsedArgs &Args);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_COMMANDARGS_H
