//===- ReportCommand.cpp - spinel-prof report -----------------------------===//
#include "Commands.h"
#include "FileIO.h"
#include "ProfileInput.h"
#include "Report.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <cstdio>
#include <optional>

namespace spinelprof {

namespace {

size_t parseTop(const std::string &Value) {
  if (Value.empty() || Value.find_first_not_of("0123456789") != std::string::npos ||
      Value.size() > 9)
    throw UsageError("report", "--top needs a non-negative integer, got '" + Value + "'");
  return std::stoul(Value);
}

} // namespace

int runReportCommand(const std::vector<std::string> &Args) {
  ReportOptions Options;
  std::optional<std::string> ProfilePath, OutputPath;
  bool OptionsEnded = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    if (OptionsEnded || Arg == "-" || Arg.empty() || Arg[0] != '-') {
      if (ProfilePath)
        throw UsageError("report", "more than one PROFILE given ('" + *ProfilePath +
                                       "' and '" + Arg + "')");
      ProfilePath = Arg;
      continue;
    }
    if (Arg == "--") {
      OptionsEnded = true;
      continue;
    }
    if (Arg == "-h" || Arg == "--help") {
      std::fputs(commandHelp("report").c_str(), stdout);
      return ExitSuccess;
    }
    size_t Eq = Arg.find('=');
    std::string Name = Arg.substr(0, Eq);
    auto Value = [&]() -> std::string {
      if (Eq != std::string::npos)
        return Arg.substr(Eq + 1);
      if (I + 1 >= Args.size())
        throw UsageError("report", Name + " needs a value");
      return Args[++I];
    };
    if (Name == "--top") {
      Options.Top = parseTop(Value());
    } else if (Name == "--by") {
      std::string By = Value();
      if (By == "self")
        Options.Order = ReportOrder::BySelf;
      else if (By == "total")
        Options.Order = ReportOrder::ByTotal;
      else
        throw UsageError("report", "--by needs 'self' or 'total', got '" + By + "'");
    } else if (Name == "-o" || Name == "--output") {
      OutputPath = Value();
    } else if (Arg.size() > 2 && Arg.compare(0, 2, "-o") == 0) { // -oFILE
      OutputPath = Arg.substr(2);
    } else {
      throw UsageError("report", "unknown option '" + Arg + "'");
    }
  }
  if (!ProfilePath)
    throw UsageError("report", "no PROFILE given");

  Profile P = readProfile(*ProfilePath, [](const std::string &Warning) {
    fmt::print(stderr, "spinel-prof: warning: {}\n", Warning);
  });
  std::string Text = renderReport(P, Options);
  if (OutputPath)
    writeFileAtomically(*OutputPath, Text);
  else
    writeStandardOutput(Text);
  return ExitSuccess;
}

} // namespace spinelprof
