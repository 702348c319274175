//===- FoldedReader.cpp - Reads folded stacks into a Profile --------------===//
#include "FoldedReader.h"
#include "FileIO.h"
#include "InputSniffer.h"
#include "ToolError.h"

#include "spinelprof/folded_name.h"
#include "spinelprof/output.h"

#include <fmt/format.h>

#include <limits>
#include <map>
#include <unordered_map>

namespace spinelprof {

std::string decodeFoldedName(std::string_view Escaped) {
  std::string Name;
  Name.reserve(Escaped.size());
  for (size_t I = 0; I < Escaped.size(); ++I) {
    if (char Decoded = folded::decodeEscapeAt(Escaped.data() + I, Escaped.size() - I)) {
      Name += Decoded;
      I += 2;
      continue;
    }
    Name += Escaped[I];
  }
  return Name;
}

namespace {

bool isBlank(std::string_view Line) {
  return Line.find_first_not_of(" \t") == std::string_view::npos;
}

// Parses the count field: digits only, so "-3", "+3", "3.5" and "0x3" are
// all rejected with a message that says which problem it is.
uint64_t parseCount(std::string_view Field, const std::string &Where) {
  if (Field.empty())
    throw InputError(Where + ": missing sample count after the last space");
  if (Field[0] == '-' && Field.size() > 1 &&
      Field.find_first_not_of("0123456789", 1) == std::string_view::npos)
    throw InputError(fmt::format("{}: sample count '{}' is negative", Where,
                                 printableExcerpt(Field)));
  uint64_t Value = 0;
  for (char C : Field) {
    if (C < '0' || C > '9')
      throw InputError(fmt::format("{}: sample count '{}' is not a non-negative integer",
                                   Where, printableExcerpt(Field)));
    unsigned Digit = static_cast<unsigned>(C - '0');
    if (Value > (std::numeric_limits<uint64_t>::max() - Digit) / 10)
      throw InputError(fmt::format("{}: sample count '{}' is too large", Where,
                                   printableExcerpt(Field)));
    Value = Value * 10 + Digit;
  }
  return Value;
}

/// Builds a profile's frames and samples from folded lines: each name one
/// frame, each distinct stack one sample (repeated stacks add up).
class FoldedBuilder {
public:
  explicit FoldedBuilder(Profile &Result) : Result(Result) {}

  /// The stack of "a;b;c" (names decoded), its frames added as needed.
  std::vector<uint32_t> stack(std::string_view StackText) {
    std::vector<uint32_t> Stack;
    for (;;) {
      size_t Semi = StackText.find(';');
      std::string Name = decodeFoldedName(StackText.substr(0, Semi));
      auto [It, Inserted] =
          FrameIndex.try_emplace(Name, static_cast<uint32_t>(Result.Frames.size()));
      if (Inserted) {
        Frame F;
        F.Name = std::move(Name);
        Result.Frames.push_back(std::move(F));
      }
      Stack.push_back(It->second);
      if (Semi == std::string_view::npos)
        return Stack;
      StackText.remove_prefix(Semi + 1);
    }
  }

  void addSample(std::vector<uint32_t> Stack, uint64_t Count) {
    auto [It, Inserted] = SampleIndex.try_emplace(Stack, Result.Samples.size());
    if (!Inserted) {
      Result.Samples[It->second].Count += Count;
      return;
    }
    Sample S;
    S.Stack = std::move(Stack);
    S.Count = Count;
    Result.Samples.push_back(std::move(S));
  }

private:
  Profile &Result;
  std::unordered_map<std::string, uint32_t> FrameIndex;
  std::map<std::vector<uint32_t>, size_t> SampleIndex;
};

/// The next line of \p Text (removed from it), without its line end.
std::string_view takeLine(std::string_view &Text) {
  size_t End = Text.find('\n');
  std::string_view Line = Text.substr(0, End);
  Text.remove_prefix(End == std::string_view::npos ? Text.size() : End + 1);
  // Tolerate CRLF files; a carriage return inside a name is escaped.
  if (!Line.empty() && Line.back() == '\r')
    Line.remove_suffix(1);
  return Line;
}

} // namespace

Profile parseFoldedText(std::string_view Text, const std::string &Path) {
  rejectBinaryInput(Text, Path);
  Profile Result;
  Result.SourcePath = Path;
  // The runtime's allocation profile counts bytes (docs/formats.md).
  if (output::endsWith(Path.c_str(), output::AllocFoldedSuffix))
    Result.Kind = ProfileKind::Alloc;
  FoldedBuilder Builder(Result);
  for (size_t LineNumber = 1; !Text.empty(); ++LineNumber) {
    std::string_view Line = takeLine(Text);
    if (isBlank(Line))
      continue;
    std::string Where = fmt::format("{}:{}", Path, LineNumber);
    size_t LastSpace = Line.rfind(' ');
    if (LastSpace == std::string_view::npos)
      throw InputError(Where + ": no sample count (expected 'STACK COUNT')");
    uint64_t Count = parseCount(Line.substr(LastSpace + 1), Where);
    std::string_view StackText = Line.substr(0, LastSpace);
    // Some writers pad before the count; the stack itself keeps its spaces.
    while (!StackText.empty() && (StackText.back() == ' ' || StackText.back() == '\t'))
      StackText.remove_suffix(1);
    if (StackText.empty())
      throw InputError(Where + ": empty stack before the sample count");
    Builder.addSample(Builder.stack(StackText), Count);
  }
  return Result;
}

Profile readFoldedFile(const std::string &Path) {
  return parseFoldedText(readWholeFile(Path), Path);
}

} // namespace spinelprof
