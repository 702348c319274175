//===- SprofReader.cpp - Reads a .sprof profile into a Profile ------------===//
#include "SprofReader.h"
#include "SprofFormat.h"
#include "FileIO.h"
#include "InputSniffer.h"
#include "ToolError.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <type_traits>
#include <utility>

namespace spinelprof {

namespace {

using Json = nlohmann::json;

// The member types sprof_format.inc's Type column stands for: a member the
// rows name has the type its row says, or this does not compile.
using SprofMemberString = std::optional<std::string>;
using SprofMemberInt = std::optional<int64_t>;
using SprofMemberUnsigned = std::optional<uint64_t>;
using SprofMemberNumber = std::optional<double>;
using SprofMemberStringList = std::vector<std::string>;
#define SPROF_CHECK(Struct, Member, Type)                                      \
  static_assert(std::is_same_v<decltype(Struct::Member), SprofMember##Type>,   \
                #Struct "::" #Member " is not the type sprof_format.inc says");
#define SPROF_CHECK_Kept(Member, Type) SPROF_CHECK(ProfileMetadata, Member, Type)
#define SPROF_CHECK_Derived(Member, Type) SPROF_CHECK(ProfileMetadata, Member, Type)
#define SPROF_CHECK_Read(Member, Type) SPROF_CHECK(ProfileMetadata, Member, Type)
#define SPROF_CHECK_Structure(Member, Type)
#define SPROF_CHECK_Ignored(Member, Type)
#define SPROF_FIELD(Member, Key, Type, Profile, Tool) SPROF_CHECK_##Tool(Member, Type)
#define SPROF_FOLDED_FIELD(Member, Key, Type) SPROF_CHECK(ProfileMetadata, Folded##Member, Type)
#include "spinelprof/sprof_format.inc"
#define SPROF_RUN_FIELD(Member, Key, Type) SPROF_CHECK(ProfileRun, Member, Type)
#include "spinelprof/sprof_format.inc"
#undef SPROF_CHECK_Kept
#undef SPROF_CHECK_Derived
#undef SPROF_CHECK_Read
#undef SPROF_CHECK_Structure
#undef SPROF_CHECK_Ignored
#undef SPROF_CHECK

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

// The line of Key's first occurrence as a key of the top-level object of
// Text, valid JSON; 1 if it has none.
size_t lineOfTopLevelKey(std::string_view Text, std::string_view Key) {
  size_t Line = 1, Depth = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n')
      ++Line;
    else if (C == '{' || C == '[')
      ++Depth;
    else if (C == '}' || C == ']')
      --Depth;
    if (C != '"')
      continue;
    size_t End = I + 1; // The closing quote.
    while (End < Text.size() && Text[End] != '"')
      End += Text[End] == '\\' ? 2 : 1;
    size_t After = Text.find_first_not_of(" \t\r\n", End + 1);
    if (Depth == 1 && Text.substr(I + 1, End - I - 1) == Key &&
        After != std::string_view::npos && Text[After] == ':')
      return Line;
    Line += static_cast<size_t>(std::count(Text.begin() + I, Text.begin() + std::min(End, Text.size()), '\n'));
    I = End;
  }
  return 1;
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

  // A value of the type its member holds: the readers above by type.
  void readValue(const Json &Object, const char *Key, const std::string &Prefix,
                 std::optional<int64_t> &Out) const {
    readOptional(Object, Key, Prefix, Out, &SprofValidator::integer);
  }
  void readValue(const Json &Object, const char *Key, const std::string &Prefix,
                 std::optional<uint64_t> &Out) const {
    readOptional(Object, Key, Prefix, Out, &SprofValidator::unsignedInteger);
  }
  void readValue(const Json &Object, const char *Key, const std::string &Prefix,
                 std::optional<double> &Out) const {
    readOptional(Object, Key, Prefix, Out, &SprofValidator::number);
  }
  void readValue(const Json &Object, const char *Key, const std::string &Prefix,
                 std::optional<std::string> &Out) const {
    readOptional(Object, Key, Prefix, Out, &SprofValidator::string);
  }
  void readValue(const Json &Object, const char *Key, const std::string &Prefix,
                 std::vector<std::string> &Out) const {
    const Json *List = optional(Object, Key);
    if (!List)
      return;
    array(*List, Prefix + Key);
    for (size_t I = 0; I < List->size(); ++I)
      Out.push_back(string((*List)[I], fmt::format("{}{}[{}]", Prefix, Key, I)));
  }

  /// The top level's Kept and Derived rows of sprof_format.inc, and
  /// "folded"'s.
  void readMetadata(const Json &Root, ProfileMetadata &M) const {
#define SPROF_READ_Kept(Member, Key) readValue(Root, Key, "", M.Member);
#define SPROF_READ_Derived(Member, Key) readValue(Root, Key, "", M.Member);
#define SPROF_READ_Read(Member, Key) readValue(Root, Key, "", M.Member);
#define SPROF_READ_Structure(Member, Key)
#define SPROF_READ_Ignored(Member, Key)
#define SPROF_FIELD(Member, Key, Type, Profile, Tool) SPROF_READ_##Tool(Member, Key)
#include "spinelprof/sprof_format.inc"
#undef SPROF_READ_Kept
#undef SPROF_READ_Derived
#undef SPROF_READ_Read
#undef SPROF_READ_Structure
#undef SPROF_READ_Ignored
    if (const Json *Folded = optional(Root, sprof::key::Folded)) {
      object(*Folded, sprof::key::Folded);
#define SPROF_FOLDED_FIELD(Member, Key, Type)                                  \
  readValue(*Folded, Key, "folded.", M.Folded##Member);
#include "spinelprof/sprof_format.inc"
    }
  }

  void readFrames(const Json &Root, std::vector<Frame> &Frames) const {
    const Json &List = array(require(Root, sprof::key::Frames, ""), sprof::key::Frames);
    for (size_t I = 0; I < List.size(); ++I) {
      std::string Prefix = fmt::format("frames[{}]", I);
      const Json &Entry = object(List[I], Prefix);
      Prefix += '.';
      Frame F;
      F.Name = string(require(Entry, sprof::frame_key::Name, Prefix), Prefix + sprof::frame_key::Name);
      if (const Json *V = optional(Entry, sprof::frame_key::CName))
        F.CName = string(*V, Prefix + sprof::frame_key::CName);
      if (const Json *V = optional(Entry, sprof::frame_key::Kind)) {
        std::string Kind = string(*V, Prefix + sprof::frame_key::Kind);
        std::optional<FrameKind> Parsed = parseFrameKind(Kind);
        if (!Parsed)
          fail(Prefix + sprof::frame_key::Kind, fmt::format("unknown kind \"{}\" (expected user, "
                                            "block, runtime, gc or synthetic)",
                                            printableExcerpt(Kind)));
        F.Kind = *Parsed;
      }
      if (const Json *V = optional(Entry, sprof::frame_key::File))
        F.File = string(*V, Prefix + sprof::frame_key::File);
      if (const Json *V = optional(Entry, sprof::frame_key::Line)) {
        uint64_t Line = unsignedInteger(*V, Prefix + sprof::frame_key::Line);
        if (Line > UINT32_MAX)
          fail(Prefix + sprof::frame_key::Line, "line number is too large");
        F.Line = static_cast<uint32_t>(Line);
      }
      readNativeAddress(Entry, Prefix, F);
      Frames.push_back(std::move(F));
    }
  }

  /// A frame's Native rows of sprof_format.inc (version 3): a native
  /// address the runtime left for the tool to name.
  void readNativeAddress(const Json &Entry, const std::string &Prefix, Frame &F) const {
    namespace key = sprof::frame_key;
    const Json *Object = optional(Entry, key::Object);
    if (!Object)
      return;
    NativeAddress A;
    A.Object = string(*Object, Prefix + key::Object);
    if (const Json *V = optional(Entry, key::BuildId))
      A.BuildId = string(*V, Prefix + key::BuildId);
    A.Address = unsignedInteger(require(Entry, key::Address, Prefix), Prefix + key::Address);
    F.Native = std::move(A);
  }

  /// Version 2's "runs": each run's command, pid, start and times.
  void readRuns(const Json &Root, std::vector<ProfileRun> &Runs) const {
    const Json *List = optional(Root, sprof::key::Runs);
    if (!List)
      return;
    array(*List, sprof::key::Runs);
    for (size_t I = 0; I < List->size(); ++I) {
      std::string Prefix = fmt::format("runs[{}]", I);
      const Json &Entry = object((*List)[I], Prefix);
      Prefix += '.';
      ProfileRun R;
#define SPROF_RUN_FIELD(Member, Key, Type) readValue(Entry, Key, Prefix, R.Member);
#include "spinelprof/sprof_format.inc"
      Runs.push_back(std::move(R));
    }
  }

  /// A thread's or sample's "run": an index into "runs" (absent: 0).
  uint32_t runIndex(const Json &Entry, const std::string &Prefix, size_t RunCount) const {
    const Json *V = optional(Entry, sprof::sample_key::Run);
    if (!V || RunCount == 0) // One run: there is nothing to index.
      return 0;
    uint64_t Run = unsignedInteger(*V, Prefix + sprof::sample_key::Run);
    if (Run >= RunCount)
      fail(Prefix + sprof::sample_key::Run, fmt::format("run index {} is out of range (\"runs\" has {} "
                                       "entries)",
                                       Run, RunCount));
    return static_cast<uint32_t>(Run);
  }

  void readThreads(const Json &Root, size_t RunCount, std::vector<ThreadInfo> &Threads) const {
    const Json *List = optional(Root, sprof::key::Threads);
    if (!List)
      return;
    array(*List, sprof::key::Threads);
    for (size_t I = 0; I < List->size(); ++I) {
      std::string Prefix = fmt::format("threads[{}]", I);
      const Json &Entry = object((*List)[I], Prefix);
      Prefix += '.';
      ThreadInfo T;
      T.Run = runIndex(Entry, Prefix, RunCount);
      T.Tid = integer(require(Entry, sprof::thread_key::Tid, Prefix), Prefix + sprof::thread_key::Tid);
      if (const Json *V = optional(Entry, sprof::thread_key::Name))
        T.Name = string(*V, Prefix + sprof::thread_key::Name);
      Threads.push_back(std::move(T));
    }
  }

  ProfileKind readKind(const Json &Root) const {
    const Json *V = optional(Root, sprof::key::Kind);
    if (!V)
      return ProfileKind::Cpu;
    std::string Kind = string(*V, sprof::key::Kind);
    if (Kind == "cpu")
      return ProfileKind::Cpu;
    if (Kind == "alloc")
      return ProfileKind::Alloc;
    fail(sprof::key::Kind, fmt::format("unknown profile \"{}\" (expected cpu or alloc)",
                                printableExcerpt(Kind)));
  }

  /// Allocation profiles: "bytes" is the value every command shows, the
  /// optional "count" the objects.
  void readSamples(const Json &Root, size_t FrameCount, size_t RunCount, ProfileKind Kind,
                   std::vector<Sample> &Samples) const {
    const Json &List = array(require(Root, sprof::key::Samples, ""), sprof::key::Samples);
    for (size_t I = 0; I < List.size(); ++I) {
      std::string Prefix = fmt::format("samples[{}]", I);
      const Json &Entry = object(List[I], Prefix);
      Prefix += '.';
      Sample S;
      const Json &Stack = array(require(Entry, sprof::sample_key::Stack, Prefix), Prefix + sprof::sample_key::Stack);
      for (size_t J = 0; J < Stack.size(); ++J) {
        std::string Key = fmt::format("{}{}[{}]", Prefix, sprof::sample_key::Stack, J);
        uint64_t Index = unsignedInteger(Stack[J], Key);
        if (Index >= FrameCount)
          fail(Key, fmt::format("frame index {} is out of range (\"frames\" has {} entries)",
                                Index, FrameCount));
        S.Stack.push_back(static_cast<uint32_t>(Index));
      }
      if (Kind == ProfileKind::Alloc) {
        S.Count = unsignedInteger(require(Entry, sprof::sample_key::Bytes, Prefix),
                                  Prefix + sprof::sample_key::Bytes);
        readValue(Entry, sprof::sample_key::Count, Prefix, S.Objects);
      } else {
        S.Count = unsignedInteger(require(Entry, sprof::sample_key::Count, Prefix),
                                  Prefix + sprof::sample_key::Count);
      }
      S.Run = runIndex(Entry, Prefix, RunCount);
      if (const Json *V = optional(Entry, sprof::sample_key::Thread))
        S.Thread = integer(*V, Prefix + sprof::sample_key::Thread);
      readValue(Entry, sprof::sample_key::WeightNs, Prefix, S.WeightNs);
      Samples.push_back(std::move(S));
    }
  }

  /// Version 4's "timeline": each thread's events, columns of one length,
  /// times made absolute. Allocation profiles: "bytes" is the event's
  /// Count and "count" its objects, as in "samples".
  void readTimelines(const Json &Root, size_t RunCount, ProfileKind Kind,
                     const std::vector<Sample> &Samples,
                     std::vector<ThreadTimeline> &Timelines) const {
    const Json *List = optional(Root, sprof::key::Timeline);
    if (!List)
      return;
    array(*List, sprof::key::Timeline);
    for (size_t I = 0; I < List->size(); ++I) {
      std::string Prefix = fmt::format("{}[{}]", sprof::key::Timeline, I);
      const Json &Entry = object((*List)[I], Prefix);
      Prefix += '.';
      Timelines.push_back(readTimeline(Entry, Prefix, RunCount, Kind, Samples));
      for (size_t J = 0; J + 1 < Timelines.size(); ++J)
        if (Timelines[J].Run == Timelines.back().Run && Timelines[J].Tid == Timelines.back().Tid)
          fail(Prefix + sprof::timeline_key::Thread,
               fmt::format("thread {} already has a timeline ({}[{}])", Timelines.back().Tid,
                           sprof::key::Timeline, J));
    }
  }

private:
  // One column of a timeline entry: an array of non-negative integers of
  // Length elements (Length unset: the first column sets it).
  std::vector<uint64_t> readColumn(const Json &Entry, const char *Key, const std::string &Prefix,
                                   std::optional<size_t> &Length) const {
    const Json &Column = array(require(Entry, Key, Prefix), Prefix + Key);
    if (Length && Column.size() != *Length)
      fail(Prefix + Key, fmt::format("has {} elements, \"{}\" has {}", Column.size(),
                                     sprof::timeline_key::TimeNs, *Length));
    Length = Column.size();
    std::vector<uint64_t> Values;
    Values.reserve(Column.size());
    for (size_t J = 0; J < Column.size(); ++J)
      Values.push_back(unsignedInteger(Column[J], fmt::format("{}{}[{}]", Prefix, Key, J)));
    return Values;
  }

  ThreadTimeline readTimeline(const Json &Entry, const std::string &Prefix, size_t RunCount,
                              ProfileKind Kind, const std::vector<Sample> &Samples) const {
    namespace key = sprof::timeline_key;
    ThreadTimeline T;
    T.Run = runIndex(Entry, Prefix, RunCount);
    T.Tid = integer(require(Entry, key::Thread, Prefix), Prefix + key::Thread);
    if (const Json *V = optional(Entry, key::BucketNs))
      T.BucketNs = unsignedInteger(*V, Prefix + key::BucketNs);
    if (const Json *V = optional(Entry, key::Merged))
      T.Merged = unsignedInteger(*V, Prefix + key::Merged);
    if (const Json *V = optional(Entry, key::Missing))
      T.Missing = unsignedInteger(*V, Prefix + key::Missing);
    std::optional<size_t> Length;
    std::vector<uint64_t> Times = readColumn(Entry, key::TimeNs, Prefix, Length);
    std::vector<uint64_t> Indexes = readColumn(Entry, key::Sample, Prefix, Length);
    bool Alloc = Kind == ProfileKind::Alloc;
    std::vector<uint64_t> Counts = readColumn(Entry, Alloc ? key::Bytes : key::Count, Prefix, Length);
    // The second value column is optional, as a sample's objects or weight.
    const char *SecondKey = Alloc ? key::Count : key::WeightNs;
    std::vector<uint64_t> Second;
    if (optional(Entry, SecondKey))
      Second = readColumn(Entry, SecondKey, Prefix, Length);
    uint64_t Time = 0;
    T.Events.resize(Times.size());
    for (size_t J = 0; J < Times.size(); ++J) {
      if (Times[J] > UINT64_MAX - Time)
        fail(fmt::format("{}{}[{}]", Prefix, key::TimeNs, J), "time overflows 64 bits");
      Time += Times[J]; // Delta-encoded: each from the previous.
      std::string SampleKey = fmt::format("{}{}[{}]", Prefix, key::Sample, J);
      if (Indexes[J] >= Samples.size())
        fail(SampleKey, fmt::format("sample index {} is out of range (\"samples\" has {} entries)",
                                    Indexes[J], Samples.size()));
      const Sample &S = Samples[Indexes[J]];
      if (S.Thread != T.Tid || S.Run != T.Run)
        fail(SampleKey, fmt::format("sample {} is thread {}'s, not this timeline's thread {}",
                                    Indexes[J], S.Thread, T.Tid));
      TimelineEvent &E = T.Events[J];
      E.TimeNs = Time;
      E.Sample = static_cast<uint32_t>(Indexes[J]);
      E.Count = Counts[J];
      if (!Second.empty())
        (Alloc ? E.Objects : E.WeightNs) = Second[J];
    }
    return T;
  }

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
  std::string Format = V.string(V.require(Root, sprof::key::Format, ""), sprof::key::Format);
  if (Format != "spinelprof")
    V.fail(sprof::key::Format, fmt::format("expected \"spinelprof\", found \"{}\"",
                                           printableExcerpt(Format)));
  uint64_t Version =
      V.unsignedInteger(V.require(Root, sprof::key::Version, ""), sprof::key::Version);
  if (Version < sprof::VersionOneRun || Version > sprof::VersionNewest)
    throw InputError(fmt::format("{}:{}: {}: unsupported version {} (this spinel-prof "
                                 "reads versions {} to {})",
                                 Path, lineOfTopLevelKey(Text, sprof::key::Version),
                                 sprof::key::Version, Version, sprof::VersionOneRun,
                                 sprof::VersionNewest));

  Profile Result;
  Result.SourcePath = Path;
  Result.SelfDescribing = true;
  Result.Kind = V.readKind(Root);
  V.readMetadata(Root, Result.Metadata);
  if (Version >= sprof::VersionRuns)
    V.readRuns(Root, Result.Runs);
  if (Result.Runs.size() == 1) // One run: the metadata says it all.
    Result.Runs.clear();
  size_t RunCount = Result.Runs.size();
  V.readFrames(Root, Result.Frames);
  V.readThreads(Root, RunCount, Result.Threads);
  V.readSamples(Root, Result.Frames.size(), RunCount, Result.Kind, Result.Samples);
  if (Version >= sprof::VersionTimeline)
    V.readTimelines(Root, RunCount, Result.Kind, Result.Samples, Result.Timelines);
  return Result;
}

Profile readSprofFile(const std::string &Path) {
  return parseSprofText(readWholeFile(Path), Path);
}

} // namespace spinelprof
