//===- ReportCommand.cpp - spinel-prof report -----------------------------===//
#include "Commands.h"
#include "FileIO.h"
#include "KindSplit.h"
#include "ProfileTransforms.h"
#include "ProfileInput.h"
#include "Report.h"
#include "RuntimeFolding.h"
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
  bool FoldRuntime = false; // --fold-runtime; --all-frames (default) undoes
  std::optional<std::string> Focus, Thread; // --focus REGEX, --thread ID
  bool CollapseRecursion = false;
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
    if (Arg == "--collapse-recursion") {
      CollapseRecursion = true;
    } else if (Name == "--focus") {
      Focus = Value();
    } else if (Name == "--thread") {
      Thread = Value();
    } else if (Arg == "--fold-runtime") {
      FoldRuntime = true;
    } else if (Arg == "--all-frames") {
      FoldRuntime = false;
    } else if (Name == "--top") {
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
  // Selection first: the split and the table describe the same samples.
  if (Thread)
    P = selectThread(P, *Thread);
  if (Focus)
    P = focusOn(P, *Focus, "report");
  if (CollapseRecursion)
    P = collapseRecursion(P);
  // The split is of the whole stacks, whatever the table shows.
  Options.Preamble = renderKindSplit(P);
  if (FoldRuntime)
    P = foldRuntimeFrames(P);
  std::string Text = renderReport(P, Options);
  if (OutputPath)
    writeFileAtomically(*OutputPath, Text);
  else
    writeStandardOutput(Text);
  return ExitSuccess;
}

} // namespace spinelprof
