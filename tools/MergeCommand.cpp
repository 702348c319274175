//===- MergeCommand.cpp - spinel-prof merge -------------------------------===//
#include "CommandArgs.h"
#include "Commands.h"
#include "ProfileTransforms.h"
#include "ProfileWriters.h"
#include "ToolError.h"

#include <cstdio>

namespace spinelprof {

namespace {
bool endsWith(const std::string &S, const std::string &Suffix) {
  return S.size() >= Suffix.size() && S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}
} // namespace

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
  std::string To = A.get("--to").value_or(Out && endsWith(*Out, ".sprof") ? "sprof" : "folded");
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
