//===- ConvertCommand.cpp - spinel-prof convert ---------------------------===//
#include "CommandArgs.h"
#include "Commands.h"
#include "PprofWriter.h"
#include "ProfileWriters.h"
#include "RuntimeFolding.h"
#include "SpeedscopeWriter.h"
#include "ToolError.h"

#include <cstdio>
#include <unistd.h>

namespace spinelprof {

int runConvertCommand(const std::vector<std::string> &Args) {
  ParsedArgs A = parseCommandArgs("convert", Args, {"--to", "-o", "--thread", "--focus", "--time"},
                                  {"--collapse-recursion", "--fold-runtime"});
  if (A.Help) {
    std::fputs(commandHelp("convert").c_str(), stdout);
    return ExitSuccess;
  }
  const std::string &ProfilePath = singleProfile("convert", A);
  std::optional<std::string> To = A.get("--to");
  if (!To)
    throw UsageError("convert", "--to FORMAT is required (pprof, speedscope, folded or sprof)");
  if (*To != "pprof" && *To != "speedscope" && *To != "folded" && *To != "sprof")
    throw UsageError("convert", "--to needs pprof, speedscope, folded or sprof, got '" + *To + "'");
  std::optional<std::string> Out = A.get("-o");
  if (*To == "pprof" && (!Out || *Out == "-") && isatty(1))
    throw UsageError("convert", "pprof output is binary; give -o FILE (or redirect stdout)");

  Profile P = applySelection("convert", readProfileArg(ProfilePath), A);
  if (A.has("--fold-runtime"))
    P = foldRuntimeFrames(P);
  std::string Text;
  if (*To == "pprof")
    Text = renderPprof(P);
  else if (*To == "speedscope")
    Text = renderSpeedscope(P, toolVersion().substr(0, toolVersion().find(" (")));
  else if (*To == "folded")
    Text = renderFolded(P);
  else
    Text = renderSprof(P);
  writeOutput(Out, Text);
  return ExitSuccess;
}

} // namespace spinelprof
