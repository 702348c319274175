//===- DiffCommand.cpp - spinel-prof diff ---------------------------------===//
#include "CommandArgs.h"
#include "Commands.h"
#include "DiffReport.h"
#include "FlamegraphPage.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <cstdio>

namespace spinelprof {

int runDiffCommand(const std::vector<std::string> &Args) {
  ParsedArgs A = parseCommandArgs("diff", Args,
                                  {"-o", "--title", "--top", "--by", "--thread", "--focus", "--time"},
                                  {"--text", "--icicle", "--collapse-recursion"});
  if (A.Help) {
    std::fputs(commandHelp("diff").c_str(), stdout);
    return ExitSuccess;
  }
  if (A.Positionals.size() != 2)
    throw UsageError("diff", A.Positionals.size() < 2 ? "needs two profiles: BEFORE AFTER"
                                                      : "more than two profiles given");
  bool Text = A.has("--text");
  if (!Text && (A.has("--top") || A.has("--by")))
    throw UsageError("diff", "--top and --by go with --text");
  DiffTextOptions TextOptions;
  if (auto Top = A.get("--top"))
    TextOptions.Top = parseCountOption("diff", "--top", *Top);
  if (auto By = A.get("--by")) {
    if (*By != "self" && *By != "total")
      throw UsageError("diff", "--by needs 'self' or 'total', got '" + *By + "'");
    TextOptions.ByTotal = *By == "total";
  }
  if (A.Positionals[0] == "-" && A.Positionals[1] == "-")
    throw UsageError("diff", "only one profile can come from standard input");
  Profile Before = applySelection("diff", readProfileArg(A.Positionals[0]), A);
  Profile After = applySelection("diff", readProfileArg(A.Positionals[1]), A);
  // Bytes against samples would compare nothing.
  if (Before.Kind != After.Kind)
    throw InputError(fmt::format("{}: cannot compare an allocation profile with a CPU "
                                 "profile ({})",
                                 After.SourcePath, Before.SourcePath));
  if (Text) {
    writeOutput(A.get("-o"), renderDiffText(Before, After, TextOptions));
    return ExitSuccess;
  }
  FlamegraphOptions Options;
  Options.Title = A.get("--title").value_or("");
  Options.Icicle = A.has("--icicle");
  writeOutput(A.get("-o"), renderDiffPage(Before, After, Options));
  return ExitSuccess;
}

} // namespace spinelprof
