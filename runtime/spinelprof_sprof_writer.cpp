//===- spinelprof_sprof_writer.cpp - The .sprof profile -------------------===//
//
// Part of spinelprof. See spinelprof_sprof_writer.h. Every key is written
// from a row of spinelprof/sprof_format.inc: a value function per record
// (the top level, "folded", a frame, a thread, a sample) switches on the
// row. Async-signal-safe throughout: no malloc, stdio or locks.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_sprof_writer.h"

#include "spinelprof_io.h"
#include "spinelprof_native_addresses.h"
#include "spinelprof_scratch.h"
#include "spinelprof_signal.h"
#include "spinelprof_timeline.h"

#include <string.h>

namespace spinelprof {

namespace {

#define SPROF_VERSION(Name, Number) constexpr unsigned SprofVersion##Name = Number;
#include "spinelprof/sprof_format.inc"

/// Which profiles have a key (sprof_format.inc's Profile column).
enum class SprofProfile { Any, Cpu, Alloc, Runs, Native };

enum class TopField {
#define SPROF_FIELD(Member, Key, Type, Profile, Tool) Member,
#include "spinelprof/sprof_format.inc"
};
enum class FoldedField {
#define SPROF_FOLDED_FIELD(Member, Key, Type) Member,
#include "spinelprof/sprof_format.inc"
};
enum class FrameField {
#define SPROF_FRAME_FIELD(Member, Key, Type, Profile, Tool) Member,
#include "spinelprof/sprof_format.inc"
};
enum class ThreadField {
#define SPROF_THREAD_FIELD(Member, Key, Type, Profile, Tool) Member,
#include "spinelprof/sprof_format.inc"
};
enum class SampleField {
#define SPROF_SAMPLE_FIELD(Member, Key, Type, Profile, Tool) Member,
#include "spinelprof/sprof_format.inc"
};
enum class TimelineField {
#define SPROF_TIMELINE_FIELD(Member, Key, Type, Profile, Tool) Member,
#include "spinelprof/sprof_format.inc"
};

/// One key of a record, from a row of sprof_format.inc.
template <typename Field> struct FieldRow {
  Field Id;
  const char *Key;
  SprofProfile Profile;
};

constexpr FieldRow<TopField> TopRows[] = {
#define SPROF_FIELD(Member, Key, Type, Profile, Tool)                          \
  {TopField::Member, Key, SprofProfile::Profile},
#include "spinelprof/sprof_format.inc"
};
constexpr FieldRow<FoldedField> FoldedRows[] = {
#define SPROF_FOLDED_FIELD(Member, Key, Type)                                  \
  {FoldedField::Member, Key, SprofProfile::Any},
#include "spinelprof/sprof_format.inc"
};
constexpr FieldRow<FrameField> FrameRows[] = {
#define SPROF_FRAME_FIELD(Member, Key, Type, Profile, Tool)                    \
  {FrameField::Member, Key, SprofProfile::Profile},
#include "spinelprof/sprof_format.inc"
};
constexpr FieldRow<ThreadField> ThreadRows[] = {
#define SPROF_THREAD_FIELD(Member, Key, Type, Profile, Tool)                   \
  {ThreadField::Member, Key, SprofProfile::Profile},
#include "spinelprof/sprof_format.inc"
};
constexpr FieldRow<SampleField> SampleRows[] = {
#define SPROF_SAMPLE_FIELD(Member, Key, Type, Profile, Tool)                   \
  {SampleField::Member, Key, SprofProfile::Profile},
#include "spinelprof/sprof_format.inc"
};
constexpr FieldRow<TimelineField> TimelineRows[] = {
#define SPROF_TIMELINE_FIELD(Member, Key, Type, Profile, Tool)                 \
  {TimelineField::Member, Key, SprofProfile::Profile},
#include "spinelprof/sprof_format.inc"
};

/// The separators of a record's keys: Open before the first, Between the
/// others, Close after the last.
struct RecordLayout {
  const char *Open;
  const char *Between;
  const char *Close;
};
constexpr RecordLayout TopLevel = {"{\n  ", ",\n  ", "\n}\n"};
constexpr RecordLayout OneLine = {"{ ", ", ", " }"};

} // namespace

/// A profile written by the runtime (one run) has the rows for Any and
/// for its own kind; a frame has the Native rows when NativeAddress (its
/// descriptor is one of an address no symbol covered).
static bool hasKey(SprofProfile Profile, ProfileType Type,
                   bool NativeAddress = false) {
  switch (Profile) {
  case SprofProfile::Any: return true;
  case SprofProfile::Cpu: return Type == ProfileType::Cpu;
  case SprofProfile::Alloc: return Type == ProfileType::Alloc;
  case SprofProfile::Runs: return false;
  case SprofProfile::Native: return NativeAddress;
  }
  return false;
}

/// Writes a record: `"key": value` for each of Rows the record has
/// (hasKey with NativeAddress), with Layout's separators; Value(Field)
/// writes a value.
template <typename Field, size_t N, typename ValueWriter>
static void writeRecord(BufferedFile &File, const FieldRow<Field> (&Rows)[N],
                        ProfileType Type, const RecordLayout &Layout,
                        ValueWriter Value, bool NativeAddress = false) {
  bool First = true;
  for (const FieldRow<Field> &Row : Rows) {
    if (!hasKey(Row.Profile, Type, NativeAddress))
      continue;
    File.write(First ? Layout.Open : Layout.Between);
    File.writeChar('"');
    File.write(Row.Key);
    File.write("\": ");
    Value(Row.Id);
    First = false;
  }
  File.write(Layout.Close);
}

/// Writes a list of Count records, Entry(I) writing the I-th.
template <typename EntryWriter>
static void writeList(BufferedFile &File, size_t Count, EntryWriter Entry) {
  File.write("[");
  for (size_t I = 0; I < Count; ++I) {
    File.write(I ? ",\n    " : "\n    ");
    Entry(I);
  }
  File.write(Count ? "\n  ]" : "]");
}

static const char *kindName(uint32_t Kind) {
  switch (Kind) {
  case SPINELPROF_KIND_BLOCK: return "block";
  case SPINELPROF_KIND_RUNTIME: return "runtime";
  case SPINELPROF_KIND_GC: return "gc";
  case SPINELPROF_KIND_SYNTHETIC: return "synthetic";
  default: return "user";
  }
}

static void writeCommand(BufferedFile &File, const RunInfo &Run) {
  File.write("[");
  size_t I = 0;
  bool First = true;
  while (I < Run.CommandSize) {
    const char *Arg = Run.Command + I;
    size_t Len = strnlen(Arg, Run.CommandSize - I);
    if (!First)
      File.write(", ");
    First = false;
    if (I + Len < Run.CommandSize) {
      File.writeJsonString(Arg);
    } else {
      // An argument not NUL-terminated (cut short): copy it to terminate.
      char Tail[256];
      size_t N = Len < sizeof(Tail) - 1 ? Len : sizeof(Tail) - 1;
      memcpy(Tail, Arg, N);
      Tail[N] = '\0';
      File.writeJsonString(Tail);
    }
    I += Len + 1;
  }
  File.write("]");
}

/// Writes N as Width digits at P.
static void putDigits(char *P, uint64_t N, int Width) {
  for (int I = Width; I-- > 0; N /= 10)
    P[I] = char('0' + N % 10);
}

/// The start as "YYYY-MM-DDTHH:MM:SSZ", computed by hand: gmtime_r takes
/// glibc's time-zone lock and may malloc on first use, and the writer runs
/// in a copy of the process at SIGINT/SIGTERM. Async-signal-safe.
static void writeStartTime(BufferedFile &File, uint64_t StartTimeNs) {
  uint64_t Seconds = StartTimeNs / 1000000000u;
  int64_t Days = int64_t(Seconds / 86400);
  uint64_t Day = Seconds % 86400;
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  Days += 719468;
  int64_t Era = Days / 146097;
  uint64_t DayOfEra = uint64_t(Days - Era * 146097);
  uint64_t YearOfEra =
      (DayOfEra - DayOfEra / 1460 + DayOfEra / 36524 - DayOfEra / 146096) / 365;
  uint64_t DayOfYear = DayOfEra - (365 * YearOfEra + YearOfEra / 4 - YearOfEra / 100);
  uint64_t MonthIndex = (5 * DayOfYear + 2) / 153;
  uint64_t DayOfMonth = DayOfYear - (153 * MonthIndex + 2) / 5 + 1;
  uint64_t Month = MonthIndex < 10 ? MonthIndex + 3 : MonthIndex - 9;
  uint64_t Year = YearOfEra + uint64_t(Era) * 400 + (Month <= 2);
  char Text[] = "0000-00-00T00:00:00Z";
  putDigits(Text, Year, 4);
  putDigits(Text + 5, Month, 2);
  putDigits(Text + 8, DayOfMonth, 2);
  putDigits(Text + 11, Day / 3600, 2);
  putDigits(Text + 14, Day / 60 % 60, 2);
  putDigits(Text + 17, Day % 60, 2);
  File.writeJsonString(Text);
}

/// A rate with one decimal, independent of the program's LC_NUMERIC.
static void writeRate(BufferedFile &File, double Hz) {
  uint64_t Tenths = static_cast<uint64_t>(Hz * 10 + 0.5);
  File.writeUnsigned(Tenths / 10);
  File.writeChar('.');
  File.writeUnsigned(Tenths % 10);
}

static void writeFolded(BufferedFile &File, const SprofContents &C) {
  const char *Unit = C.Type == ProfileType::Alloc ? "bytes"
                     : C.Run->WeightTime          ? "microseconds"
                                                  : "samples";
  writeRecord(File, FoldedRows, C.Type, OneLine, [&](FoldedField F) {
    switch (F) {
    case FoldedField::Path: File.writeJsonString(C.FoldedPath); break;
    case FoldedField::Unit: File.writeJsonString(Unit); break;
    case FoldedField::Bytes: File.writeUnsigned(C.Result->FoldedBytes); break;
    }
  });
}

/// A frame; one of a native address no symbol covered (nativeAddressOf)
/// also has the object, its build-id and the address, for spinel-prof to
/// name from the object's debug file.
static void writeFrame(BufferedFile &File, ProfileType Type,
                       const FrameDescriptor *D) {
  const NativeObject *Object = nullptr;
  uint64_t Address = 0;
  bool Native = nativeAddressOf(D, &Object, &Address);
  auto Value = [&](FrameField F) {
    switch (F) {
    case FrameField::Name: File.writeJsonString(displayName(D)); break;
    case FrameField::CName:
      File.writeJsonString(D && D->c_name ? D->c_name : "");
      break;
    case FrameField::Kind:
      File.writeJsonString(D ? kindName(D->kind) : "synthetic");
      break;
    case FrameField::File:
      File.writeJsonString(D && D->file ? D->file : "");
      break;
    case FrameField::Line: File.writeUnsigned(D ? D->line : 0); break;
    case FrameField::Object: File.writeJsonString(Object->Path); break;
    case FrameField::BuildId: File.writeJsonString(Object->BuildId); break;
    case FrameField::Address: File.writeUnsigned(Address); break;
    }
  };
  writeRecord(File, FrameRows, Type, OneLine, Value, Native);
}

static void writeThread(BufferedFile &File, const SprofContents &C,
                        uint32_t Tid) {
  const ProfileStacks &P = *C.Stacks;
  uint64_t Count = 0, WeightNs = 0;
  for (size_t K = 0; K < P.StackCount; ++K)
    if (P.Stacks[K].Tid == Tid) {
      Count += P.Stacks[K].Count;
      WeightNs += P.Stacks[K].WeightNs;
    }
  writeRecord(File, ThreadRows, C.Type, OneLine, [&](ThreadField F) {
    switch (F) {
    case ThreadField::Run: break; // A profile of one run has none.
    case ThreadField::Tid: File.writeUnsigned(Tid); break;
    case ThreadField::Name: {
      char Name[16];
      threadName(Tid, Name);
      File.writeJsonString(Name);
      break;
    }
    case ThreadField::Samples: File.writeUnsigned(Count); break;
    case ThreadField::WeightNs: File.writeUnsigned(WeightNs); break;
    case ThreadField::Bytes: File.writeUnsigned(WeightNs); break;
    }
  });
}

static void writeSample(BufferedFile &File, const SprofContents &C,
                        const StackRecord &S) {
  writeRecord(File, SampleRows, C.Type, OneLine, [&](SampleField F) {
    switch (F) {
    case SampleField::Run: break; // A profile of one run has none.
    case SampleField::Thread: File.writeUnsigned(S.Tid); break;
    case SampleField::Stack:
      File.write("[");
      for (uint32_t I = 0; I < S.Length; ++I) {
        if (I)
          File.write(", ");
        File.writeUnsigned(frameNumber(*C.Stacks, S.Frames[I]));
      }
      File.write("]");
      break;
    case SampleField::Count: File.writeUnsigned(S.Count); break;
    case SampleField::WeightNs: File.writeUnsigned(S.WeightNs); break;
    case SampleField::Bytes: File.writeUnsigned(S.WeightNs); break;
    }
  });
}

//===----------------------------------------------------------------------===//
// The timeline
//===----------------------------------------------------------------------===//

namespace {
/// A thread record with a log, for the writer's walk by thread.
struct LogOwner {
  uint32_t Tid, Record;
};

/// One thread's timeline: the snapshots of its records' logs (several
/// when its tid was reused), oldest record first.
struct ThreadTimeline {
  static constexpr size_t MaxLogs = 16;
  TimelineSnapshot Logs[MaxLogs];
  size_t LogCount = 0;
  uint64_t BucketNs = 0, Merged = 0, Missing = 0;
};

/// The profile's stacks, and per stack a running sum the columns that
/// share a sample's totals out among its events need.
struct TimelineContext {
  const SprofContents &C;
  uint64_t *Running; // Per stack; zero between columns.
};
} // namespace

static int compareOwners(const void *PA, const void *PB) {
  const auto *A = static_cast<const LogOwner *>(PA);
  const auto *B = static_cast<const LogOwner *>(PB);
  if (A->Tid != B->Tid)
    return A->Tid < B->Tid ? -1 : 1;
  return A->Record < B->Record ? -1 : A->Record > B->Record ? 1 : 0;
}

static TimelineKind timelineKind(ProfileType Type) {
  return Type == ProfileType::Alloc ? TimelineKind::Alloc : TimelineKind::Cpu;
}

/// The stack event E names, or NoStack (its slot was not Ready when the
/// stacks were collected: a flush).
static uint32_t stackOf(const ProfileStacks &P, const TimelineEvent &E) {
  return stackOfSlot(P, E.Slot);
}

/// Calls Visit(Event, Stack) for each of T's events that names a stack.
template <typename Visitor>
static void forEachEvent(const ThreadTimeline &T, const ProfileStacks &P,
                         Visitor Visit) {
  for (size_t L = 0; L < T.LogCount; ++L)
    for (size_t I = 0; I < T.Logs[L].Events; ++I) {
      TimelineEvent E = T.Logs[L].event(I);
      uint32_t Stack = stackOf(P, E);
      if (Stack != ProfileStacks::NoStack)
        Visit(E, Stack);
    }
}

/// Event E's share of a total: Total * (the stack's running sum after E)
/// / Of, less the same before E, so the shares of a stack's events add up
/// to Total. Running holds the sum before E in Step's units.
static uint64_t shareOf(uint64_t &Running, uint64_t Step, uint64_t Total,
                        uint64_t Of) {
  if (!Of)
    return 0;
  auto Part = [&](uint64_t Sum) {
    return uint64_t((unsigned __int128)Total * Sum / Of);
  };
  uint64_t Before = Part(Running);
  Running += Step;
  return Part(Running) - Before;
}

/// Writes one column of T: F's value for each event.
static void writeColumn(BufferedFile &File, const ThreadTimeline &T,
                        TimelineField F, TimelineContext &X) {
  const ProfileStacks &P = *X.C.Stacks;
  bool Alloc = X.C.Type == ProfileType::Alloc, Wall = X.C.Run->Wall;
  uint64_t Previous = 0;
  bool First = true;
  File.write("[");
  forEachEvent(T, P, [&](const TimelineEvent &E, uint32_t Stack) {
    const StackRecord &S = P.Stacks[Stack];
    uint64_t Value = 0;
    switch (F) {
    case TimelineField::TimeNs:
      Value = E.TimeNs > Previous ? E.TimeNs - Previous : 0;
      Previous = E.TimeNs > Previous ? E.TimeNs : Previous;
      break;
    case TimelineField::Sample: Value = Stack; break;
    case TimelineField::Count:
      // Allocation events count 1/256 objects: rounded so that a stack's
      // events add up to its objects.
      Value = Alloc ? shareOf(X.Running[Stack], E.Count, 1, 256) : E.Count;
      break;
    case TimelineField::WeightNs:
      // Cpu mode: the sample's weight is its thread's CPU time shared
      // out by counts (collectStacks); its events share it out the same.
      Value = Wall ? E.Weight
                   : shareOf(X.Running[Stack], E.Count, S.WeightNs, S.Count);
      break;
    case TimelineField::Bytes: Value = E.Weight; break;
    default: break;
    }
    File.write(First ? "" : ",");
    File.writeUnsigned(Value);
    First = false;
  });
  File.write("]");
  forEachEvent(T, P, [&](const TimelineEvent &, uint32_t Stack) {
    X.Running[Stack] = 0;
  });
}

/// One entry of "timeline": thread Tid's events, in time order.
static void writeThreadTimeline(BufferedFile &File, uint32_t Tid,
                                const ThreadTimeline &T, TimelineContext &X) {
  uint64_t Unnamed = 0;
  for (size_t L = 0; L < T.LogCount; ++L)
    for (size_t I = 0; I < T.Logs[L].Events; ++I)
      if (stackOf(*X.C.Stacks, T.Logs[L].event(I)) == ProfileStacks::NoStack)
        ++Unnamed;
  writeRecord(File, TimelineRows, X.C.Type, OneLine, [&](TimelineField F) {
    switch (F) {
    case TimelineField::Run: break; // A profile of one run has none.
    case TimelineField::Thread: File.writeUnsigned(Tid); break;
    case TimelineField::BucketNs: File.writeUnsigned(T.BucketNs); break;
    case TimelineField::Merged: File.writeUnsigned(T.Merged); break;
    case TimelineField::Missing: File.writeUnsigned(T.Missing + Unnamed); break;
    default: writeColumn(File, T, F, X); break;
    }
  });
}

/// Snapshots the logs of Owners[First, Last) (one thread's) into T.
static void snapshotThread(const LogOwner *Owners, size_t First, size_t Last,
                           TimelineKind Kind, ThreadTimeline &T) {
  for (size_t K = First; K < Last; ++K) {
    TimelineSnapshot &S = T.Logs[T.LogCount];
    if (T.LogCount == ThreadTimeline::MaxLogs ||
        !snapshotTimeline(Owners[K].Record, Kind, S))
      continue;
    ++T.LogCount;
    T.BucketNs = S.BucketNs > T.BucketNs ? S.BucketNs : T.BucketNs;
    T.Merged += S.Merged;
    T.Missing += S.Missing;
  }
}

/// The thread records with logs of Kind, by thread; returns how many.
static size_t listLogOwners(TimelineKind Kind, LogOwner *Owners) {
  size_t N = 0;
  for (uint32_t R = 1, Limit = timelineRecordLimit(); R <= Limit; ++R)
    if (uint32_t Tid = timelineTid(R, Kind))
      Owners[N++] = {Tid, R};
  sortBy(Owners, N, compareOwners);
  return N;
}

/// "timeline": for each thread of the profile (ascending, as "threads")
/// with a log, its events.
static void writeTimeline(BufferedFile &File, const SprofContents &C) {
  const ProfileStacks &P = *C.Stacks;
  TimelineKind Kind = timelineKind(C.Type);
  uint32_t Limit = timelineRecordLimit();
  auto *Owners =
      static_cast<LogOwner *>(scratchAlloc((Limit + 1) * sizeof(LogOwner)));
  auto *Running = static_cast<uint64_t *>(
      scratchAlloc((P.StackCount + 1) * sizeof(uint64_t)));
  auto *T = static_cast<ThreadTimeline *>(scratchAlloc(sizeof(ThreadTimeline)));
  size_t OwnerCount = Owners && Running && T ? listLogOwners(Kind, Owners) : 0;
  if (Running)
    memset(Running, 0, (P.StackCount + 1) * sizeof(uint64_t));
  TimelineContext X = {C, Running};
  bool Any = false;
  File.write("[");
  for (size_t I = 0, K = 0; I < P.TidCount; ++I) {
    while (K < OwnerCount && Owners[K].Tid < P.Tids[I])
      ++K;
    size_t End = K;
    while (End < OwnerCount && Owners[End].Tid == P.Tids[I])
      ++End;
    if (End == K)
      continue;
    *T = ThreadTimeline();
    snapshotThread(Owners, K, End, Kind, *T);
    File.write(Any ? ",\n    " : "\n    ");
    writeThreadTimeline(File, P.Tids[I], *T, X);
    Any = true;
    for (size_t L = 0; L < T->LogCount; ++L)
      scratchFree(T->Logs[L].Words);
    K = End;
  }
  File.write(Any ? "\n  ]" : "]");
  scratchFree(T);
  scratchFree(Running);
  scratchFree(Owners);
}

/// The values of the lists at the top level.
static void writeTopList(BufferedFile &File, TopField F,
                         const SprofContents &C) {
  const ProfileStacks &P = *C.Stacks;
  switch (F) {
  case TopField::Frames:
    writeList(File, P.FrameCount,
              [&](size_t I) { writeFrame(File, C.Type, P.FrameOrder[I]); });
    break;
  case TopField::Threads:
    writeList(File, P.TidCount,
              [&](size_t I) { writeThread(File, C, P.Tids[I]); });
    break;
  case TopField::Samples:
    writeList(File, P.StackCount,
              [&](size_t I) { writeSample(File, C, P.Stacks[I]); });
    break;
  case TopField::Timeline: writeTimeline(File, C); break;
  default: break; // "runs": a profile of one run has none.
  }
}

/// The value of a top-level key.
static void writeTopValue(BufferedFile &File, TopField F,
                          const SprofContents &C) {
  const RunInfo &Run = *C.Run;
  const WriteResult &Result = *C.Result;
  switch (F) {
  case TopField::Format: File.writeJsonString("spinelprof"); break;
  case TopField::Version: File.writeUnsigned(SprofVersionTimeline); break;
  case TopField::Kind: File.writeJsonString("alloc"); break;
  case TopField::Command: writeCommand(File, Run); break;
  case TopField::Pid: File.format("%d", Run.Pid); break;
  case TopField::StartTime: writeStartTime(File, Run.StartTimeNs); break;
  case TopField::StartTimeNs: File.writeUnsigned(Run.StartTimeNs); break;
  case TopField::DurationNs: File.writeUnsigned(Run.DurationNs); break;
  case TopField::CpuTimeNs: File.writeUnsigned(Run.CpuTimeNs); break;
  case TopField::AllocRate: File.writeUnsigned(Run.AllocRate); break;
  case TopField::AllocBytes: File.writeUnsigned(Result.Bytes); break;
  case TopField::Mode: File.writeJsonString(Run.Wall ? "wall" : "cpu"); break;
  case TopField::Timer: File.writeJsonString(timerName(Run.Wall)); break;
  case TopField::Sampler: File.writeJsonString(samplerName()); break;
  case TopField::RequestedHz: File.format("%d", Run.RequestedHz); break;
  case TopField::AchievedHz: writeRate(File, Result.AchievedHz); break;
  case TopField::SampleCount: File.writeUnsigned(Result.SampleCount); break;
  case TopField::Dropped: File.writeUnsigned(Result.Dropped); break;
  case TopField::Truncated: File.writeUnsigned(Result.Truncated); break;
  case TopField::Folded: writeFolded(File, C); break;
  default: writeTopList(File, F, C); break;
  }
}

void writeSprofFile(BufferedFile &File, const void *Contents) {
  const auto &C = *static_cast<const SprofContents *>(Contents);
  writeRecord(File, TopRows, C.Type, TopLevel,
              [&](TopField F) { writeTopValue(File, F, C); });
}

} // namespace spinelprof
