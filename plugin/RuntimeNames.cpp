//===- RuntimeNames.cpp - Spinel's runtime helpers by their Ruby names ----===//

#include "RuntimeNames.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace spinelprof {

namespace {

/// plugin/RuntimeNames.tsv as text.
constexpr const char RuntimeNamesTable[] =
#include "RuntimeNames.inc"
    ;

/// The table's "C name<TAB>Ruby name" lines; comments (#), blank lines and
/// "-" (kept under the C name) left out.
StringMap<std::string> parseTable() {
  StringMap<std::string> Names;
  SmallVector<StringRef, 512> Lines;
  StringRef(RuntimeNamesTable).split(Lines, '\n');
  for (StringRef Line : Lines) {
    if (Line.empty() || Line.starts_with("#"))
      continue;
    auto [CName, Ruby] = Line.split('\t');
    Ruby = Ruby.trim();
    if (!Ruby.empty() && Ruby != "-")
      Names[CName.trim()] = Ruby.str();
  }
  return Names;
}

} // namespace

std::string runtimeRubyName(StringRef CName) {
  static const StringMap<std::string> Names = parseTable();
  auto It = Names.find(CName);
  return It == Names.end() ? std::string() : It->second;
}

} // namespace spinelprof
