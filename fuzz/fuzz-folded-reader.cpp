//===- fuzz-folded-reader.cpp - Fuzzes the folded-stacks reader -----------===//
//
// Any text: parseFoldedText returns a Profile or throws InputError. A
// Profile it returns survives being written back as folded stacks and read
// again with the same stacks and total.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"
#include "ProfileWriters.h"

using namespace spinelprof;
using namespace spinelprof::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Profile P;
  try {
    P = parseFoldedText(bytes(Data, Size), "fuzz.folded");
  } catch (const InputError &) {
    return 0;
  }
  checkProfileShape(P);
  std::string Again = renderFolded(P);
  Profile Q = parseFoldedText(Again, "again.folded"); // must not throw
  checkProfileShape(Q);
  check(Q.totalCount() == P.totalCount(), "folded round trip changed the total");
  check(renderFolded(Q) == Again, "folded round trip changed the stacks");
  return 0;
}
