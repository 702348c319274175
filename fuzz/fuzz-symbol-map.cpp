//===- fuzz-symbol-map.cpp - Fuzzes the plugin's symbol-map reader --------===//
//
// The symbol map is the one file the plugin reads (from Spinel, or a user):
// any text gives a map or an error naming the source, never a crash, and a
// map's entries are what lookup returns.
//
//===----------------------------------------------------------------------===//
#include "SymbolMap.h"

#include "llvm/Support/Error.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<spinelprof::SymbolMap> Map =
      spinelprof::SymbolMap::parse(Text, "fuzz.symbols.json");
  if (!Map) {
    std::string Message = llvm::toString(Map.takeError());
    if (llvm::StringRef(Message).starts_with("fuzz.symbols.json"))
      return 0;
    std::fprintf(stderr, "fuzz property violated: error without the source: %s\n",
                 Message.c_str());
    std::abort();
  }
  (void)Map->lookup("sp_main");
  (void)Map->lookup("");
  return 0;
}
