//===- fuzz-profile-input.cpp - Fuzzes how PROFILE arguments are read -----===//
//
// readProfile takes a folded file and, when it is there, the .sprof beside
// it (docs/formats.md). The input is the folded file, a NUL byte, then the
// .sprof; without a NUL there is no .sprof. Whatever the pair, the result
// is a Profile or InputError, and a .sprof that does not describe this
// folded file (folded.bytes) is never used.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"
#include "ProfileInput.h"

#include <fstream>
#include <string>
#include <unistd.h>

using namespace spinelprof;
using namespace spinelprof::fuzz;

static const std::string &workDir() {
  static std::string Dir = [] {
    char Template[] = "/tmp/spinelprof-fuzz-XXXXXX";
    check(mkdtemp(Template) != nullptr, "cannot make a temporary directory");
    return std::string(Template);
  }();
  return Dir;
}

static void writeFile(const std::string &Path, std::string_view Text) {
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  Out.write(Text.data(), std::streamsize(Text.size()));
  check(bool(Out), "cannot write the input file");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Input = bytes(Data, Size);
  size_t Nul = Input.find('\0');
  std::string Folded = workDir() + "/p.folded";
  std::string Sprof = sprofPathForFolded(Folded);
  writeFile(Folded, Input.substr(0, Nul));
  if (Nul != std::string_view::npos)
    writeFile(Sprof, Input.substr(Nul + 1));
  else
    unlink(Sprof.c_str());
  try {
    Profile P = readProfile(Folded, [](const std::string &Warning) {
      check(!Warning.empty(), "empty warning");
    });
    checkProfileShape(P);
    if (P.SelfDescribing)
      check(Nul != std::string_view::npos && P.Metadata.FoldedBytes &&
                *P.Metadata.FoldedBytes == Nul,
            "a .sprof was used that does not describe the folded file");
  } catch (const InputError &) {
  }
  return 0;
}
