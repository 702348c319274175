//===- SymbolMap.h - Spinel's C symbol to Ruby name map ------------------===//
//
// Spinel can write a JSON map from each emitted C symbol to its Ruby name
// (`--emit-symbol-map`). When one is given, it wins over the naming rules.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_SYMBOLMAP_H
#define SPINELPROF_PLUGIN_SYMBOLMAP_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace spinelprof {

/// What a symbol map says about one C symbol.
struct SymbolMapEntry {
  /// Empty for a location-only entry (the frame keeps its rule-given name).
  std::string RubyName;
  /// Empty when the map gives no file.
  std::string File;
  /// Set only when the map gives a line.
  std::optional<unsigned> Line;
};

/// A parsed symbol map. Accepted shapes:
///   {"sp_Foo_bar": "Foo#bar", ...}
///   {"sp_Foo_bar": {"name"|"ruby": "Foo#bar", "file": "app.rb", "line": 3}}
///   [{"c"|"cname"|"symbol": "sp_Foo_bar", "ruby"|"name": "Foo#bar",
///     "file": "app.rb", "line": 3}, ...]
/// and either of the last two wrapped as {"symbols": ...}. A record with
/// "file" or "line" and no name gives a location only.
class SymbolMap {
public:
  /// Parses \p Text; \p Source names the map in error messages, which read
  /// "<Source>:<line>:<column>: <problem>" when the JSON parser gives a
  /// position and "<Source>: <problem>" otherwise.
  static llvm::Expected<SymbolMap> parse(llvm::StringRef Text,
                                         llvm::StringRef Source);

  /// Reads and parses the file at \p Path.
  static llvm::Expected<SymbolMap> load(llvm::StringRef Path);

  /// The entry for \p CName, or null.
  const SymbolMapEntry *lookup(llvm::StringRef CName) const;

  size_t size() const { return Entries.size(); }

private:
  llvm::StringMap<SymbolMapEntry> Entries;
};

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_SYMBOLMAP_H
