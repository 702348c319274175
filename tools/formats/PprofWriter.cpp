//===- PprofWriter.cpp - A Profile as gzipped profile.proto ---------------===//
#include "PprofWriter.h"
#include "ProfileTransforms.h"
#include "ProtoEncoder.h"
#include "ShellQuote.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <unordered_map>

namespace spinelprof {

namespace {

// Field numbers from profile.proto.
enum ProfileField : uint32_t {
  SampleTypeField = 1, SampleField = 2, LocationField = 4, FunctionField = 5,
  StringTableField = 6, TimeNanosField = 9, DurationNanosField = 10,
  PeriodTypeField = 11, PeriodField = 12, CommentField = 13, DefaultSampleTypeField = 14,
};

class StringTable {
public:
  StringTable() { index(""); } // string_table[0] must be ""
  int64_t index(const std::string &S) {
    auto [It, Inserted] = Index.try_emplace(S, static_cast<int64_t>(Strings.size()));
    if (Inserted)
      Strings.push_back(S);
    return It->second;
  }
  const std::vector<std::string> &strings() const { return Strings; }

private:
  std::unordered_map<std::string, int64_t> Index;
  std::vector<std::string> Strings;
};

ProtoEncoder valueType(StringTable &Strings, const std::string &Type, const std::string &Unit) {
  ProtoEncoder E;
  E.int64(1, Strings.index(Type));
  E.int64(2, Strings.index(Unit));
  return E;
}

} // namespace

namespace {

/// What the samples hold: allocation (objects, bytes), or counts, plus
/// CPU or wall nanoseconds when the profile has weights.
struct SampleShape {
  bool Alloc;
  bool Weighted;
  std::string TimeType; // "cpu" or "wall"
};

SampleShape sampleShapeOf(const Profile &P) {
  bool Alloc = P.Kind == ProfileKind::Alloc;
  return {Alloc, !Alloc && hasWeights(P),
          P.Metadata.Mode.value_or("cpu") == "wall" ? "wall" : "cpu"};
}

/// The sample_type entries. Allocation profiles: objects and bytes, as
/// Go's heap profiles name them, so pprof's -sample_index=alloc_space
/// works as there.
void encodeSampleTypes(const SampleShape &Shape, StringTable &Strings, ProtoEncoder &Out) {
  if (Shape.Alloc) {
    Out.message(SampleTypeField, valueType(Strings, "alloc_objects", "count"));
    Out.message(SampleTypeField, valueType(Strings, "alloc_space", "bytes"));
  } else {
    Out.message(SampleTypeField, valueType(Strings, "samples", "count"));
  }
  if (Shape.Weighted)
    Out.message(SampleTypeField, valueType(Strings, Shape.TimeType, "nanoseconds"));
}

using ThreadNameMap = std::map<std::pair<uint32_t, int64_t>, std::string>;

/// A sample's labels: thread id and name, and the run's pid when known.
void encodeSampleLabels(const Profile &P, const Sample &S, const ThreadNameMap &ThreadNames,
                        StringTable &Strings, ProtoEncoder &E) {
  if (S.Thread != UnknownThread) {
    ProtoEncoder Id;
    Id.int64(1, Strings.index("thread_id"));
    Id.int64(3, S.Thread);
    E.message(3, Id);
    auto Name = ThreadNames.find({S.Run, S.Thread});
    if (Name != ThreadNames.end() && !Name->second.empty()) {
      ProtoEncoder L;
      L.int64(1, Strings.index("thread_name"));
      L.int64(2, Strings.index(Name->second));
      E.message(3, L);
    }
  }
  // Several runs: which process the samples are from.
  if (S.Run < P.Runs.size() && P.Runs[S.Run].Pid) {
    ProtoEncoder Pid;
    Pid.int64(1, Strings.index("pid"));
    Pid.int64(3, *P.Runs[S.Run].Pid);
    E.message(3, Pid);
  }
}

/// Every sample with a count or a weight: its locations (leaf first),
/// values and labels.
void encodeSamples(const Profile &P, const SampleShape &Shape, StringTable &Strings,
                   ProtoEncoder &Out) {
  ThreadNameMap ThreadNames;
  for (const ThreadInfo &T : P.Threads)
    ThreadNames[{T.Run, T.Tid}] = T.Name;
  for (const Sample &S : P.Samples) {
    if (S.Count == 0 && !S.WeightNs)
      continue;
    ProtoEncoder E;
    std::vector<uint64_t> Locations;
    for (auto It = S.Stack.rbegin(); It != S.Stack.rend(); ++It) // leaf first
      Locations.push_back(uint64_t(*It) + 1);
    E.packed(1, Locations);
    std::vector<int64_t> Values;
    if (Shape.Alloc) // Objects are unknown from a folded file: 0.
      Values.push_back(static_cast<int64_t>(S.Objects.value_or(0)));
    Values.push_back(static_cast<int64_t>(S.Count));
    if (Shape.Weighted)
      Values.push_back(static_cast<int64_t>(*S.WeightNs));
    E.packed(2, Values);
    encodeSampleLabels(P, S, ThreadNames, Strings, E);
    Out.message(SampleField, E);
  }
}

/// One location and one function per frame (ids: frame index + 1), with
/// the frame's file and line.
void encodeFrames(const Profile &P, StringTable &Strings, ProtoEncoder &Out) {
  for (size_t I = 0; I < P.Frames.size(); ++I) {
    const Frame &F = P.Frames[I];
    ProtoEncoder Line;
    Line.int64(1, int64_t(I) + 1);
    Line.int64IfSet(2, F.Line);
    ProtoEncoder Location;
    Location.int64(1, int64_t(I) + 1);
    Location.message(4, Line);
    Out.message(LocationField, Location);
  }
  for (size_t I = 0; I < P.Frames.size(); ++I) {
    const Frame &F = P.Frames[I];
    ProtoEncoder Function;
    Function.int64(1, int64_t(I) + 1);
    Function.int64(2, Strings.index(F.Name));
    Function.int64(3, Strings.index(F.CName.empty() ? F.Name : F.CName));
    Function.int64IfSet(4, Strings.index(F.File));
    Function.int64IfSet(5, F.Line);
    Out.message(FunctionField, Function);
  }
}

/// The comments' string indexes: the command, or each run's, and the
/// profile's path.
std::vector<int64_t> commentStrings(const Profile &P, StringTable &Strings) {
  std::vector<int64_t> Comments;
  if (P.Runs.empty() && !P.Metadata.Command.empty())
    Comments.push_back(Strings.index("command: " + shellJoin(P.Metadata.Command)));
  for (size_t I = 0; I < P.Runs.size(); ++I) {
    const ProfileRun &R = P.Runs[I];
    Comments.push_back(Strings.index(
        fmt::format("run {}: {}{}", I + 1, R.Command.empty() ? "?" : shellJoin(R.Command),
                    R.Pid ? fmt::format(" (pid {})", *R.Pid) : std::string())));
  }
  if (!P.SourcePath.empty())
    Comments.push_back(Strings.index("profile: " + P.SourcePath));
  return Comments;
}

/// period_type, period and default_sample_type.
struct PeriodInfo {
  ProtoEncoder Type;
  int64_t Period = 1;
  int64_t Default = 0;
};

PeriodInfo periodOf(const Profile &P, const SampleShape &Shape, StringTable &Strings) {
  PeriodInfo Info;
  const std::optional<double> &Hz = P.Metadata.RequestedHz;
  if (Shape.Alloc) {
    Info.Type = valueType(Strings, "alloc_space", "bytes");
    Info.Period = static_cast<int64_t>(P.Metadata.AllocRate.value_or(1));
    Info.Default = Strings.index("alloc_space");
  } else if (Shape.Weighted && Hz && *Hz > 0) {
    Info.Type = valueType(Strings, Shape.TimeType, "nanoseconds");
    Info.Period = static_cast<int64_t>(std::llround(1e9 / *Hz));
  } else {
    Info.Type = valueType(Strings, "samples", "count");
  }
  if (Shape.Weighted)
    Info.Default = Strings.index(Shape.TimeType);
  return Info;
}

} // namespace

std::string encodePprof(const Profile &P) {
  StringTable Strings;
  ProtoEncoder Out;
  SampleShape Shape = sampleShapeOf(P);
  encodeSampleTypes(Shape, Strings, Out);
  encodeSamples(P, Shape, Strings, Out);
  encodeFrames(P, Strings, Out);
  // Everything that refers to strings is built before the table is written.
  std::vector<int64_t> Comments = commentStrings(P, Strings);
  PeriodInfo Period = periodOf(P, Shape, Strings);
  for (const std::string &S : Strings.strings())
    Out.bytes(StringTableField, S);
  if (P.Metadata.StartTimeNs)
    Out.int64IfSet(TimeNanosField, *P.Metadata.StartTimeNs);
  if (P.Metadata.DurationNs)
    Out.int64IfSet(DurationNanosField, static_cast<int64_t>(*P.Metadata.DurationNs));
  Out.message(PeriodTypeField, Period.Type);
  Out.int64(PeriodField, Period.Period);
  for (int64_t C : Comments)
    Out.int64(CommentField, C);
  Out.int64IfSet(DefaultSampleTypeField, Period.Default);
  return Out.data();
}

std::string renderPprof(const Profile &P) { return gzipCompress(encodePprof(P)); }

} // namespace spinelprof
