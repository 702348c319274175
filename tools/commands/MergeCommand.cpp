//===- MergeCommand.cpp - spinel-prof merge -------------------------------===//
#include "CommandArgs.h"
#include "Commands.h"
#include "ProfileTransforms.h"
#include "ProfileWriters.h"
#include "ToolError.h"

#include "spinelprof/output.h"

#include <cstdio>

namespace spinelprof {

int runMergeCommand(const std::vector<std::string> &Args) {
  ParsedArgs A = parseCommandArgs("merge", Args, {"-o", "--to"}, {});
  if (A.Help) {
    std::fputs(commandHelp("merge").c_str(), stdout);
    return ExitSuccess;
  }
  if (A.Positionals.empty())
    throw UsageError("merge", "no PROFILE given");
  int StdinCount = 0;
  for (const std::string &P : A.Positionals)
    StdinCount += P == "-";
  if (StdinCount > 1)
    throw UsageError("merge", "only one profile can come from standard input");
  std::optional<std::string> Out = A.get("-o");
  // The format: --to, else the output's name (.sprof), else folded.
  std::string To = A.get("--to").value_or(
      Out && output::endsWith(Out->c_str(), output::SprofSuffix) ? "sprof" : "folded");
  if (To != "sprof" && To != "folded")
    throw UsageError("merge", "--to needs 'sprof' or 'folded', got '" + To + "'");
  std::vector<Profile> Profiles;
  for (const std::string &Path : A.Positionals)
    Profiles.push_back(readProfileArg(Path));
  Profile Merged = mergeProfiles(Profiles);
  writeOutput(Out, To == "sprof" ? renderSprof(Merged) : renderFolded(Merged));
  return ExitSuccess;
}

} // namespace spinelprof
