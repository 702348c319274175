//===- fuzz-sprof-reader.cpp - Fuzzes the .sprof reader -------------------===//
//
// Any text: parseSprofText returns a Profile or throws InputError (never a
// JSON library exception, never a crash). A Profile it returns survives
// being written as a .sprof and read again.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"
#include "ProfileWriters.h"

using namespace spinelprof;
using namespace spinelprof::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Profile P;
  try {
    P = parseSprofText(bytes(Data, Size), "fuzz.sprof");
  } catch (const InputError &) {
    return 0;
  }
  checkProfileShape(P);
  std::string Again = renderSprof(P);
  Profile Q = parseSprofText(Again, "again.sprof"); // must not throw
  checkProfileShape(Q);
  check(Q.Frames.size() == P.Frames.size(), "sprof round trip changed the frames");
  check(Q.Samples.size() == P.Samples.size(), "sprof round trip changed the samples");
  check(Q.totalCount() == P.totalCount(), "sprof round trip changed the total");
  check(renderSprof(Q) == Again, "sprof round trip is not stable");
  return 0;
}
