//===- InputSniffer.cpp - What a file given as a profile looks like --------===//
#include "InputSniffer.h"
#include "ToolError.h"

#include <fmt/format.h>

namespace spinelprof {

namespace {

bool startsWith(std::string_view Text, std::string_view Prefix) {
  return Text.substr(0, Prefix.size()) == Prefix;
}

/// A control character no text profile has (tab, newline, vertical tab,
/// form feed and carriage return are text).
bool isBinaryByte(unsigned char C) {
  return (C < 0x20 && C != '\t' && C != '\n' && C != '\v' && C != '\f' && C != '\r') ||
         C == 0x7f;
}

/// The length of the valid UTF-8 sequence at the start of Text, or 0.
size_t utf8Length(std::string_view Text) {
  auto Byte = [&](size_t I) { return static_cast<unsigned char>(Text[I]); };
  unsigned char C = Byte(0);
  size_t Length;
  unsigned Min;
  if (C < 0x80)
    return 1;
  if ((C & 0xe0) == 0xc0)
    Length = 2, Min = 0x80;
  else if ((C & 0xf0) == 0xe0)
    Length = 3, Min = 0x800;
  else if ((C & 0xf8) == 0xf0)
    Length = 4, Min = 0x10000;
  else
    return 0;
  if (Text.size() < Length)
    return 0;
  unsigned Code = C & (0x7f >> Length);
  for (size_t I = 1; I < Length; ++I) {
    if ((Byte(I) & 0xc0) != 0x80)
      return 0;
    Code = (Code << 6) | (Byte(I) & 0x3f);
  }
  if (Code < Min || Code > 0x10ffff || (Code >= 0xd800 && Code <= 0xdfff))
    return 0;
  return Length;
}

/// Whether Text holds a byte no text profile has.
bool hasBinaryByte(std::string_view Text) {
  for (char C : Text)
    if (isBinaryByte(static_cast<unsigned char>(C)))
      return true;
  return false;
}

} // namespace

std::optional<std::string> describeBinaryInput(std::string_view Text) {
  static const struct {
    std::string_view Magic;
    const char *What;
  } Known[] = {
      {"\x1f\x8b", "gzip-compressed data (pprof's format, or a compressed file: "
                   "gunzip it if it holds folded stacks)"},
      {"\x28\xb5\x2f\xfd", "zstd-compressed data"},
      {std::string_view("\xfd" "7zXZ\0", 6), "xz-compressed data"},
      {"PK\x03\x04", "a zip archive"},
      {"\x7f" "ELF", "an ELF file (a program or library)"},
      {"PERFILE2", "perf.data (`perf script | stackcollapse-perf.pl` makes "
                   "folded stacks of it)"},
  };
  // perf.data's and bzip2's magic numbers are printable: a folded stack
  // could start with them, so binary bytes must follow (perf.data's header
  // size, a u64, has zero bytes; compressed data has control bytes).
  for (const auto &K : Known)
    if (startsWith(Text, K.Magic) &&
        (hasBinaryByte(K.Magic) || hasBinaryByte(Text.substr(K.Magic.size(), 64))))
      return std::string(K.What);
  if (Text.size() >= 10 && startsWith(Text, "BZh") && Text[3] >= '1' && Text[3] <= '9' &&
      Text.substr(4, 6) == "\x31\x41\x59\x26\x53\x59" && hasBinaryByte(Text.substr(10, 64)))
    return std::string("bzip2-compressed data");
  std::string_view Head = Text.substr(0, 8192);
  for (char C : Head)
    if (isBinaryByte(static_cast<unsigned char>(C))) {
      // A pprof profile's message starts with field 1 (sample_type), a
      // length-delimited field: byte 0x0a, then small binary lengths.
      if (Head[0] == '\x0a' && Head.size() > 2 && isBinaryByte(static_cast<unsigned char>(Head[2])))
        return std::string("binary data (perhaps an uncompressed pprof profile)");
      return std::string("binary data");
    }
  return std::nullopt;
}

void rejectBinaryInput(std::string_view Text, const std::string &Path) {
  if (std::optional<std::string> What = describeBinaryInput(Text))
    throw InputError(fmt::format(
        "{}: this is {}, not a profile spinel-prof reads; it reads folded stacks "
        "('STACK COUNT' lines) and .sprof files (JSON)",
        Path, *What));
}

std::string printableExcerpt(std::string_view Text, size_t MaxChars) {
  std::string Out;
  size_t Chars = 0;
  for (size_t I = 0; I < Text.size();) {
    if (Chars >= MaxChars) {
      Out += "...";
      break;
    }
    unsigned char C = static_cast<unsigned char>(Text[I]);
    size_t Length = utf8Length(Text.substr(I));
    if (Length == 0 || C < 0x20 || C == 0x7f) {
      Out += fmt::format("\\x{:02x}", C);
      I += 1;
    } else {
      Out.append(Text.substr(I, Length));
      I += Length;
    }
    ++Chars;
  }
  return Out;
}

} // namespace spinelprof
