//===- CommandArgs.cpp - One command-line parser for the subcommands ------===//
#include "CommandArgs.h"
#include "FileIO.h"
#include "ProfileInput.h"
#include "ProfileTransforms.h"
#include "TimelineTransforms.h"
#include "ToolError.h"

#include <fmt/format.h>

namespace spinelprof {

ParsedArgs parseCommandArgs(const std::string &Command, const std::vector<std::string> &Args,
                            const std::set<std::string> &WithValue,
                            const std::set<std::string> &Flags) {
  ParsedArgs Out;
  bool OptionsEnded = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    if (OptionsEnded || Arg == "-" || Arg.empty() || Arg[0] != '-') {
      Out.Positionals.push_back(Arg);
      continue;
    }
    if (Arg == "--") {
      OptionsEnded = true;
      continue;
    }
    if (Arg == "-h" || Arg == "--help") {
      Out.Help = true;
      return Out;
    }
    size_t Eq = Arg.find('=');
    std::string Name = Arg.substr(0, Eq);
    if (Name == "--output")
      Name = "-o";
    if (WithValue.count("-o") && Name != "-o" && Arg.size() > 2 && Arg.compare(0, 2, "-o") == 0 &&
        Arg[2] != '-') { // -oFILE
      Out.Values["-o"] = Arg.substr(2);
      Out.LastIndex["-o"] = I;
      continue;
    }
    if (WithValue.count(Name)) {
      Out.LastIndex[Name] = I;
      if (Eq != std::string::npos)
        Out.Values[Name] = Arg.substr(Eq + 1);
      else if (I + 1 < Args.size())
        Out.Values[Name] = Args[++I];
      else
        throw UsageError(Command, Name + " needs a value");
      continue;
    }
    if (Flags.count(Name)) {
      if (Eq != std::string::npos)
        throw UsageError(Command, Name + " takes no value");
      Out.Values[Name] = "";
      Out.LastIndex[Name] = I;
      continue;
    }
    throw UsageError(Command, "unknown option '" + Arg + "'");
  }
  // A bad --time is a usage error before any PROFILE is read.
  if (auto Time = Out.get("--time"))
    parseTimeRange(Command, "--time", *Time);
  return Out;
}

const std::string &singleProfile(const std::string &Command, const ParsedArgs &Args) {
  if (Args.Positionals.empty())
    throw UsageError(Command, "no PROFILE given");
  if (Args.Positionals.size() > 1)
    throw UsageError(Command, "more than one PROFILE given ('" + Args.Positionals[0] + "' and '" +
                                  Args.Positionals[1] + "')");
  return Args.Positionals[0];
}

size_t parseCountOption(const std::string &Command, const std::string &Option,
                        const std::string &Value) {
  if (Value.empty() || Value.find_first_not_of("0123456789") != std::string::npos ||
      Value.size() > 9)
    throw UsageError(Command, Option + " needs a non-negative integer, got '" + Value + "'");
  return std::stoul(Value);
}

Profile readProfileArg(const std::string &Path) {
  return readProfile(Path, [](const std::string &Warning) {
    fmt::print(stderr, "spinel-prof: warning: {}\n", Warning);
  });
}

void writeOutput(const std::optional<std::string> &Path, const std::string &Contents) {
  if (!Path || *Path == "-")
    writeStandardOutput(Contents);
  else
    writeOutputFile(*Path, Contents);
}

Profile applySelection(const std::string &Command, Profile P, const ParsedArgs &Args) {
  // The stretch of time first: it rebuilds the samples the rest selects from.
  if (auto Time = Args.get("--time"))
    P = selectTimeRange(P, parseTimeRange(Command, "--time", *Time));
  if (auto Thread = Args.get("--thread"))
    P = selectThread(P, *Thread);
  if (auto Focus = Args.get("--focus"))
    P = focusOn(P, *Focus, Command);
  if (Args.has("--collapse-recursion"))
    P = collapseRecursion(P);
  return P;
}

} // namespace spinelprof
