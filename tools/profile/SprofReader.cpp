//===- SprofReader.cpp - Reads a .sprof profile into a Profile ------------===//
#include "SprofReader.h"
#include "FileIO.h"
#include "InputSniffer.h"
#include "ToolError.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

namespace spinelprof {

namespace {

using Json = nlohmann::json;

// Turns nlohmann's byte position into the line and column people look for.
std::pair<size_t, size_t> lineAndColumn(std::string_view Text, size_t Byte) {
  // parse_error::byte is 1-based and may point one past the end at EOF.
  size_t Pos = std::min(Byte == 0 ? 0 : Byte - 1, Text.size());
  size_t Line = 1 + static_cast<size_t>(std::count(Text.begin(), Text.begin() + Pos, '\n'));
  size_t LineStart = Text.rfind('\n', Pos == 0 ? 0 : Pos - 1);
  if (Pos == 0 || LineStart == std::string_view::npos)
    LineStart = 0;
  else
    LineStart += 1;
  return {Line, Pos - LineStart + 1};
}

// nlohmann's message repeats its own position in its own words; keep only
// the description after "parse error at line L, column C: ".
std::string describeParseError(const Json::parse_error &E) {
  std::string What = E.what();
  size_t At = What.find("parse error");
  size_t Colon = At == std::string::npos ? At : What.find(": ", At);
  return Colon == std::string::npos ? What : What.substr(Colon + 2);
}

// Walks the document with the current key path, so every message says where.
class SprofValidator {
public:
  explicit SprofValidator(std::string Path) : Path(std::move(Path)) {}

  [[noreturn]] void fail(const std::string &Key, const std::string &Problem) const {
    throw InputError(fmt::format("{}: {}: {}", Path, Key, Problem));
  }

  [[noreturn]] void wrongType(const std::string &Key, const char *Expected,
                              const Json &Value) const {
    // JSON has one number type; say which kind of number was wrong.
    const char *Found = Value.type_name();
    if (Value.is_number_float())
      Found = "a non-integer number";
    else if (Value.is_number_integer() && !Value.is_number_unsigned())
      Found = "a negative integer";
    fail(Key, fmt::format("expected {}, found {}", Expected, Found));
  }

  const Json &require(const Json &Object, const char *Key, const std::string &Prefix) const {
    auto It = Object.find(Key);
    if (It == Object.end())
      fail(Prefix + Key, "required key is missing");
    return *It;
  }

  const Json *optional(const Json &Object, const char *Key) const {
    auto It = Object.find(Key);
    if (It == Object.end() || It->is_null())
      return nullptr;
    return &*It;
  }

  std::string string(const Json &Value, const std::string &Key) const {
    if (!Value.is_string())
      wrongType(Key, "a string", Value);
    return Value.get<std::string>();
  }

  uint64_t unsignedInteger(const Json &Value, const std::string &Key) const {
    if (!Value.is_number_unsigned())
      wrongType(Key, "a non-negative integer", Value);
    return Value.get<uint64_t>();
  }

  int64_t integer(const Json &Value, const std::string &Key) const {
    if (!Value.is_number_integer())
      wrongType(Key, "an integer", Value);
    if (Value.is_number_unsigned() && Value.get<uint64_t>() > INT64_MAX)
      fail(Key, "integer is too large");
    return Value.get<int64_t>();
  }

  double number(const Json &Value, const std::string &Key) const {
    if (!Value.is_number())
      wrongType(Key, "a number", Value);
    return Value.get<double>();
  }

  const Json &array(const Json &Value, const std::string &Key) const {
    if (!Value.is_array())
      wrongType(Key, "an array", Value);
    return Value;
  }

  const Json &object(const Json &Value, const std::string &Key) const {
    if (!Value.is_object())
      wrongType(Key, "an object", Value);
    return Value;
  }

  // Optional scalar members: absent (or null) leaves Out unset.
  template <typename T, typename Reader>
  void readOptional(const Json &Object, const char *Key, const std::string &Prefix,
                    std::optional<T> &Out, Reader Read) const {
    if (const Json *V = optional(Object, Key))
      Out = (this->*Read)(*V, Prefix + Key);
  }

  void readMetadata(const Json &Root, ProfileMetadata &M) const {
    if (const Json *Command = optional(Root, "command")) {
      array(*Command, "command");
      for (size_t I = 0; I < Command->size(); ++I)
        M.Command.push_back(string((*Command)[I], fmt::format("command[{}]", I)));
    }
    readOptional(Root, "pid", "", M.Pid, &SprofValidator::integer);
    readOptional(Root, "start_time", "", M.StartTime, &SprofValidator::string);
    readOptional(Root, "start_time_ns", "", M.StartTimeNs, &SprofValidator::integer);
    readOptional(Root, "duration_ns", "", M.DurationNs, &SprofValidator::unsignedInteger);
    readOptional(Root, "cpu_time_ns", "", M.CpuTimeNs, &SprofValidator::unsignedInteger);
    readOptional(Root, "mode", "", M.Mode, &SprofValidator::string);
    readOptional(Root, "timer", "", M.Timer, &SprofValidator::string);
    readOptional(Root, "requested_hz", "", M.RequestedHz, &SprofValidator::number);
    readOptional(Root, "achieved_hz", "", M.AchievedHz, &SprofValidator::number);
    readOptional(Root, "sample_count", "", M.SampleCount, &SprofValidator::unsignedInteger);
    readOptional(Root, "dropped", "", M.Dropped, &SprofValidator::unsignedInteger);
    readOptional(Root, "truncated", "", M.Truncated, &SprofValidator::unsignedInteger);
    readOptional(Root, "alloc_rate", "", M.AllocRate, &SprofValidator::unsignedInteger);
    if (const Json *Folded = optional(Root, "folded")) {
      object(*Folded, "folded");
      readOptional(*Folded, "path", "folded.", M.FoldedPath, &SprofValidator::string);
      readOptional(*Folded, "unit", "folded.", M.FoldedUnit, &SprofValidator::string);
      readOptional(*Folded, "bytes", "folded.", M.FoldedBytes, &SprofValidator::unsignedInteger);
    }
  }

  void readFrames(const Json &Root, std::vector<Frame> &Frames) const {
    const Json &List = array(require(Root, "frames", ""), "frames");
    for (size_t I = 0; I < List.size(); ++I) {
      std::string Prefix = fmt::format("frames[{}]", I);
      const Json &Entry = object(List[I], Prefix);
      Prefix += '.';
      Frame F;
      F.Name = string(require(Entry, "name", Prefix), Prefix + "name");
      if (const Json *V = optional(Entry, "c_name"))
        F.CName = string(*V, Prefix + "c_name");
      if (const Json *V = optional(Entry, "kind")) {
        std::string Kind = string(*V, Prefix + "kind");
        std::optional<FrameKind> Parsed = parseFrameKind(Kind);
        if (!Parsed)
          fail(Prefix + "kind", fmt::format("unknown kind \"{}\" (expected user, "
                                            "block, runtime, gc or synthetic)",
                                            printableExcerpt(Kind)));
        F.Kind = *Parsed;
      }
      if (const Json *V = optional(Entry, "file"))
        F.File = string(*V, Prefix + "file");
      if (const Json *V = optional(Entry, "line")) {
        uint64_t Line = unsignedInteger(*V, Prefix + "line");
        if (Line > UINT32_MAX)
          fail(Prefix + "line", "line number is too large");
        F.Line = static_cast<uint32_t>(Line);
      }
      Frames.push_back(std::move(F));
    }
  }

  /// Version 2's "runs": each run's command, pid, start and times.
  void readRuns(const Json &Root, std::vector<ProfileRun> &Runs) const {
    const Json *List = optional(Root, "runs");
    if (!List)
      return;
    array(*List, "runs");
    for (size_t I = 0; I < List->size(); ++I) {
      std::string Prefix = fmt::format("runs[{}]", I);
      const Json &Entry = object((*List)[I], Prefix);
      Prefix += '.';
      ProfileRun R;
      if (const Json *Command = optional(Entry, "command")) {
        array(*Command, Prefix + "command");
        for (size_t J = 0; J < Command->size(); ++J)
          R.Command.push_back(
              string((*Command)[J], fmt::format("{}command[{}]", Prefix, J)));
      }
      readOptional(Entry, "pid", Prefix, R.Pid, &SprofValidator::integer);
      readOptional(Entry, "start_time", Prefix, R.StartTime, &SprofValidator::string);
      readOptional(Entry, "start_time_ns", Prefix, R.StartTimeNs, &SprofValidator::integer);
      readOptional(Entry, "duration_ns", Prefix, R.DurationNs,
                   &SprofValidator::unsignedInteger);
      readOptional(Entry, "cpu_time_ns", Prefix, R.CpuTimeNs,
                   &SprofValidator::unsignedInteger);
      Runs.push_back(std::move(R));
    }
  }

  /// A thread's or sample's "run": an index into "runs" (absent: 0).
  uint32_t runIndex(const Json &Entry, const std::string &Prefix, size_t RunCount) const {
    const Json *V = optional(Entry, "run");
    if (!V || RunCount == 0) // One run: there is nothing to index.
      return 0;
    uint64_t Run = unsignedInteger(*V, Prefix + "run");
    if (Run >= RunCount)
      fail(Prefix + "run", fmt::format("run index {} is out of range (\"runs\" has {} "
                                       "entries)",
                                       Run, RunCount));
    return static_cast<uint32_t>(Run);
  }

  void readThreads(const Json &Root, size_t RunCount, std::vector<ThreadInfo> &Threads) const {
    const Json *List = optional(Root, "threads");
    if (!List)
      return;
    array(*List, "threads");
    for (size_t I = 0; I < List->size(); ++I) {
      std::string Prefix = fmt::format("threads[{}]", I);
      const Json &Entry = object((*List)[I], Prefix);
      Prefix += '.';
      ThreadInfo T;
      T.Run = runIndex(Entry, Prefix, RunCount);
      T.Tid = integer(require(Entry, "tid", Prefix), Prefix + "tid");
      if (const Json *V = optional(Entry, "name"))
        T.Name = string(*V, Prefix + "name");
      Threads.push_back(std::move(T));
    }
  }

  ProfileKind readKind(const Json &Root) const {
    const Json *V = optional(Root, "profile");
    if (!V)
      return ProfileKind::Cpu;
    std::string Kind = string(*V, "profile");
    if (Kind == "cpu")
      return ProfileKind::Cpu;
    if (Kind == "alloc")
      return ProfileKind::Alloc;
    fail("profile", fmt::format("unknown profile \"{}\" (expected cpu or alloc)",
                                printableExcerpt(Kind)));
  }

  /// Allocation profiles: "bytes" is the value every command shows, the
  /// optional "count" the objects.
  void readSamples(const Json &Root, size_t FrameCount, size_t RunCount, ProfileKind Kind,
                   std::vector<Sample> &Samples) const {
    const Json &List = array(require(Root, "samples", ""), "samples");
    for (size_t I = 0; I < List.size(); ++I) {
      std::string Prefix = fmt::format("samples[{}]", I);
      const Json &Entry = object(List[I], Prefix);
      Prefix += '.';
      Sample S;
      const Json &Stack = array(require(Entry, "stack", Prefix), Prefix + "stack");
      for (size_t J = 0; J < Stack.size(); ++J) {
        std::string Key = fmt::format("{}stack[{}]", Prefix, J);
        uint64_t Index = unsignedInteger(Stack[J], Key);
        if (Index >= FrameCount)
          fail(Key, fmt::format("frame index {} is out of range (\"frames\" has {} entries)",
                                Index, FrameCount));
        S.Stack.push_back(static_cast<uint32_t>(Index));
      }
      if (Kind == ProfileKind::Alloc) {
        S.Count = unsignedInteger(require(Entry, "bytes", Prefix), Prefix + "bytes");
        readOptional(Entry, "count", Prefix, S.Objects, &SprofValidator::unsignedInteger);
      } else {
        S.Count = unsignedInteger(require(Entry, "count", Prefix), Prefix + "count");
      }
      S.Run = runIndex(Entry, Prefix, RunCount);
      if (const Json *V = optional(Entry, "thread"))
        S.Thread = integer(*V, Prefix + "thread");
      readOptional(Entry, "weight_ns", Prefix, S.WeightNs, &SprofValidator::unsignedInteger);
      Samples.push_back(std::move(S));
    }
  }

private:
  std::string Path;
};

} // namespace

Profile parseSprofText(std::string_view Text, const std::string &Path) {
  rejectBinaryInput(Text, Path);
  Json Root;
  try {
    Root = Json::parse(Text.begin(), Text.end());
  } catch (const Json::parse_error &E) {
    auto [Line, Column] = lineAndColumn(Text, E.byte);
    // The message quotes the input ("last read: '...'"): printable only.
    throw InputError(fmt::format("{}:{}:{}: invalid JSON: {}", Path, Line, Column,
                                 printableExcerpt(describeParseError(E), 200)));
  } catch (const Json::out_of_range &E) {
    // A number too large for a double ("1e999"); the library gives no position.
    std::string What = E.what();
    size_t Bracket = What.find("] ");
    throw InputError(fmt::format("{}: invalid JSON: {}", Path,
                                 Bracket == std::string::npos ? What : What.substr(Bracket + 2)));
  }

  SprofValidator V(Path);
  if (!Root.is_object())
    throw InputError(fmt::format("{}: expected a JSON object at the top level, found {}",
                                 Path, Root.type_name()));
  std::string Format = V.string(V.require(Root, "format", ""), "format");
  if (Format != "spinelprof")
    V.fail("format", fmt::format("expected \"spinelprof\", found \"{}\"",
                                 printableExcerpt(Format)));
  uint64_t Version = V.unsignedInteger(V.require(Root, "version", ""), "version");
  if (Version < 1 || Version > SprofFormatVersion)
    V.fail("version", fmt::format("unsupported version {} (this spinel-prof reads versions "
                                  "1 to {})",
                                  Version, SprofFormatVersion));

  Profile Result;
  Result.SourcePath = Path;
  Result.SelfDescribing = true;
  Result.Kind = V.readKind(Root);
  V.readMetadata(Root, Result.Metadata);
  if (Version >= 2)
    V.readRuns(Root, Result.Runs);
  if (Result.Runs.size() == 1) // One run: the metadata says it all.
    Result.Runs.clear();
  size_t RunCount = Result.Runs.size();
  V.readFrames(Root, Result.Frames);
  V.readThreads(Root, RunCount, Result.Threads);
  V.readSamples(Root, Result.Frames.size(), RunCount, Result.Kind, Result.Samples);
  return Result;
}

Profile readSprofFile(const std::string &Path) {
  return parseSprofText(readWholeFile(Path), Path);
}

} // namespace spinelprof
