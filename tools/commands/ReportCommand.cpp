//===- ReportCommand.cpp - spinel-prof report -----------------------------===//
#include "CommandArgs.h"
#include "Commands.h"
#include "KindSplit.h"
#include "Report.h"
#include "RuntimeFolding.h"
#include "ToolError.h"

#include <cstdio>

namespace spinelprof {

int runReportCommand(const std::vector<std::string> &Args) {
  ParsedArgs A = parseCommandArgs("report", Args, {"--top", "--by", "-o", "--thread", "--focus", "--time"},
                                  {"--collapse-recursion", "--fold-runtime", "--all-frames"});
  if (A.Help) {
    std::fputs(commandHelp("report").c_str(), stdout);
    return ExitSuccess;
  }
  const std::string &ProfilePath = singleProfile("report", A);
  ReportOptions Options;
  if (auto Top = A.get("--top"))
    Options.Top = parseCountOption("report", "--top", *Top);
  if (auto By = A.get("--by")) {
    if (*By == "self")
      Options.Order = ReportOrder::BySelf;
    else if (*By == "total")
      Options.Order = ReportOrder::ByTotal;
    else
      throw UsageError("report", "--by needs 'self' or 'total', got '" + *By + "'");
  }

  // Selection first: the split and the table describe the same samples.
  Profile P = applySelection("report", readProfileArg(ProfilePath), A);
  // The split is of the whole stacks, whatever the table shows; an
  // allocation profile's leaves are its types instead.
  Options.Preamble = P.Kind == ProfileKind::Alloc ? renderAllocTypes(P) : renderKindSplit(P);
  // --all-frames (the default) undoes an earlier --fold-runtime.
  if (A.givenAfter("--fold-runtime", "--all-frames"))
    P = foldRuntimeFrames(P);
  writeOutput(A.get("-o"), renderReport(P, Options));
  return ExitSuccess;
}

} // namespace spinelprof
