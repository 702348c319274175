//===- ProfileInput.cpp - Opens whatever PROFILE a command is given -------===//
#include "ProfileInput.h"
#include "FileIO.h"
#include "FoldedReader.h"
#include "NativeNames.h"
#include "SprofReader.h"
#include "ToolError.h"

#include "spinelprof/output.h"

#include <fmt/format.h>

#include <sys/stat.h>

namespace spinelprof {

std::string sprofPathForFolded(const std::string &FoldedPath) {
  std::string Out(output::sprofPathFor(nullptr, 0, FoldedPath.c_str()), '\0');
  output::sprofPathFor(Out.data(), Out.size() + 1, FoldedPath.c_str());
  return Out;
}

static Profile readProfileAsWritten(const std::string &Path, const WarningHandler &Warn) {
  if (output::endsWith(Path.c_str(), output::SprofSuffix)) {
    Profile Described = readSprofFile(Path);
    nameNativeFrames(Described, Warn);
    return Described;
  }
  // `perf script | stackcollapse-perf.pl | spinel-prof report -`
  if (Path == "-")
    return parseFoldedText(readWholeFile("/dev/stdin"), "<stdin>");

  // Read the folded file first: it is what was asked for, so its own errors
  // (missing, unreadable, malformed) come before anything about the .sprof.
  std::string FoldedText = readWholeFile(Path);
  Profile Folded = parseFoldedText(FoldedText, Path);

  std::string SprofPath = sprofPathForFolded(Path);
  struct stat St;
  if (::stat(SprofPath.c_str(), &St) != 0)
    return Folded;

  try {
    Profile Described = readSprofFile(SprofPath);
    const std::optional<uint64_t> &Bytes = Described.Metadata.FoldedBytes;
    if (Bytes && *Bytes == FoldedText.size()) {
      nameNativeFrames(Described, Warn);
      return Described;
    }
    Warn(fmt::format("{} does not match {} (it describes a {} folded file, this one "
                     "has {} bytes); using the folded stacks alone",
                     SprofPath, Path,
                     Bytes ? fmt::format("{}-byte", *Bytes) : std::string("different"),
                     FoldedText.size()));
  } catch (const InputError &E) {
    Warn(fmt::format("ignoring {}; using the folded stacks alone", E.what()));
  }
  return Folded;
}

Profile readProfile(const std::string &Path, const WarningHandler &Warn) {
  Profile P = readProfileAsWritten(Path, Warn);
  demangleNativeNames(P);
  return P;
}

} // namespace spinelprof
