//===- ElfSymbols.h - Function symbols of an ELF file -----------*- C++ -*-===//
//
// A small reader of 64-bit little-endian ELF files: the functions of the
// .symtab (a separate debug file's, e.g. libc6-dbg's), the build-id note
// and the .gnu_debuglink name. Used to name native addresses the runtime
// could not (NativeNames.h); no LLVM libraries.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_ELF_SYMBOLS_H
#define SPINELPROF_TOOLS_ELF_SYMBOLS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spinelprof {

class ElfSymbols {
public:
  /// Reads Image, the contents of the file Path. Throws InputError naming
  /// Path and the problem when it is not a 64-bit little-endian ELF file or
  /// a header, table or name lies outside it.
  static ElfSymbols parse(std::string_view Image, const std::string &Path);

  /// The function whose [value, value + size) holds Address (an address in
  /// the object's ELF virtual addresses), without a clone suffix (".isra.0",
  /// ".cold"); among aliases the global one, then one without a leading
  /// underscore, then the shorter, then the first in byte order (the
  /// runtime's rule). "" when no function symbol covers it.
  std::string_view functionAt(uint64_t Address) const;

  /// NT_GNU_BUILD_ID in lower-case hex; "" when the file has none.
  const std::string &buildId() const { return BuildId; }
  /// The file name in .gnu_debuglink; "" when the file has none.
  const std::string &debugLink() const { return DebugLink; }
  /// True when the file has a .symtab (a debug file, an unstripped object).
  bool hasSymtab() const { return HasSymtab; }

private:
  struct Function {
    uint64_t Start;
    uint64_t End;
    size_t Name;   // offset of its NUL-terminated name in Names
    size_t Length; // without the clone suffix
  };
  std::string Names; // the .strtab, NUL-terminated names
  std::vector<Function> Functions; // sorted by Start, one per start address
  std::string BuildId;
  std::string DebugLink;
  bool HasSymtab = false;

  friend class ElfParser;
};

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_ELF_SYMBOLS_H
