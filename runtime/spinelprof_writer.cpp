//===- spinelprof_writer.cpp - Folded stacks and the .sprof profile -------===//
//
// Part of spinelprof. See spinelprof_writer.h and docs/formats.md. Runs at
// exit (or for a flush, or in the copy of the process that writes for a
// signal), one writer at a time, after the last handler has finished. Its
// memory comes from spinelprof_scratch.h, never malloc (see there), and it
// sorts with std::sort, which allocates nothing (glibc's qsort may
// malloc); nothing from libstdc++'s library.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_writer.h"

#include "spinelprof_alloc.h"
#include "spinelprof_crash.h"
#include "spinelprof_io.h"
#include "spinelprof_sample_table.h"
#include "spinelprof_scratch.h"
#include "spinelprof_signal.h"

#include <algorithm>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

namespace spinelprof {

namespace {
/// One file of the profile: its target and, for a regular file, the
/// temporary it is written under. From scratchAlloc: two PATH_MAX names
/// are too much for a small thread's stack.
struct OutputFile {
  output::Target Target;
  char Temp[PATH_MAX + 32];
};
} // namespace

/// Removes O's temporary, if it has one. Async-signal-safe.
static void removeTemporary(const OutputFile &O) {
  if (O.Temp[0])
    (void)unlink(O.Temp);
}

void removeTemporaryOf(const char *FinalPath, int Pid) {
  if (!FinalPath)
    return;
  auto *O = static_cast<OutputFile *>(scratchAlloc(sizeof(OutputFile)));
  if (O && output::resolveTarget(FinalPath, O->Target) == 0 &&
      output::isRegular(O->Target.Kind) &&
      output::temporaryPathFor(O->Temp, sizeof(O->Temp), O->Target.Path,
                               Pid) < sizeof(O->Temp))
    (void)unlink(O->Temp);
  scratchFree(O);
}

int targetKindOf(const char *Path, output::TargetKind &Kind) {
  auto *T = static_cast<output::Target *>(scratchAlloc(sizeof(output::Target)));
  if (!T)
    return ENOMEM;
  int Err = output::resolveTarget(Path, *T);
  Kind = T->Kind;
  scratchFree(T);
  return Err;
}

namespace {

/// One distinct (thread, stack), merged from the table's slots.
struct StackRecord {
  uint32_t Tid;
  uint32_t Length;
  const FrameDescriptor *const *Frames;
  uint64_t Count;
  uint64_t WeightNs;
};

/// Cpu mode: each thread's CPU time (threadCpu) shared out among its
/// stacks by their sample counts, which are what the random instants
/// measure (docs/design.md, Sampling); a thread without a recorded CPU
/// time keeps the weights recorded. Stacks is sorted by thread.
static void shareThreadCpu(StackRecord *Stacks, size_t Count) {
  for (size_t First = 0, Next; First < Count; First = Next) {
    uint64_t Samples = 0;
    for (Next = First; Next < Count && Stacks[Next].Tid == Stacks[First].Tid;
         ++Next)
      Samples += Stacks[Next].Count;
    uint64_t Cpu = threadCpu(Stacks[First].Tid);
    if (!Cpu || !Samples)
      continue;
    for (size_t I = First; I < Next; ++I)
      Stacks[I].WeightNs = uint64_t(
          (unsigned __int128)Cpu * Stacks[I].Count / Samples);
  }
}

/// One distinct line of the folded file: text in TextPool.
struct FoldedLine {
  size_t Offset;
  size_t Length;
  uint64_t Count;
};

/// A growable byte buffer; on allocation failure it sets Failed and stops.
struct ByteBuffer {
  char *Data = nullptr;
  size_t Size = 0;
  size_t Capacity = 0;
  bool Failed = false;

  void append(const char *P, size_t N) {
    if (Failed)
      return;
    if (N > Capacity - Size) {
      size_t NewCap = Capacity ? Capacity * 2 : 4096;
      while (NewCap - Size < N)
        NewCap *= 2;
      char *NewData = static_cast<char *>(scratchRealloc(Data, NewCap));
      if (!NewData) {
        Failed = true;
        return;
      }
      Data = NewData;
      Capacity = NewCap;
    }
    memcpy(Data + Size, P, N);
    Size += N;
  }
};

// The folded lines' text, for their comparisons; one writer at a time.
const char *TextPool;

} // namespace

/// Sorts N elements at A by a qsort-style comparison, allocating nothing.
template <typename T>
static void sortBy(T *A, size_t N, int (*Compare)(const void *, const void *)) {
  std::sort(A, A + N, [Compare](const T &X, const T &Y) {
    return Compare(&X, &Y) < 0;
  });
}

static const char *displayName(const FrameDescriptor *D) {
  if (!D)
    return "[unknown]";
  if (D->name && *D->name)
    return D->name;
  if (D->c_name && *D->c_name)
    return D->c_name;
  return "[unnamed]";
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

static int compareFrames(const FrameDescriptor *const *A,
                         const FrameDescriptor *const *B, uint32_t N) {
  for (uint32_t I = 0; I < N; ++I)
    if (A[I] != B[I])
      return reinterpret_cast<uintptr_t>(A[I]) <
                     reinterpret_cast<uintptr_t>(B[I])
                 ? -1
                 : 1;
  return 0;
}

/// Thread, then stack: brings a stack's duplicate slots together.
static int compareByThreadAndStack(const void *PA, const void *PB) {
  const auto *A = static_cast<const StackRecord *>(PA);
  const auto *B = static_cast<const StackRecord *>(PB);
  if (A->Tid != B->Tid)
    return A->Tid < B->Tid ? -1 : 1;
  if (A->Length != B->Length)
    return A->Length < B->Length ? -1 : 1;
  return compareFrames(A->Frames, B->Frames, A->Length);
}

/// The order of the profile's samples: most samples first.
static int compareByCount(const void *PA, const void *PB) {
  const auto *A = static_cast<const StackRecord *>(PA);
  const auto *B = static_cast<const StackRecord *>(PB);
  if (A->Count != B->Count)
    return A->Count > B->Count ? -1 : 1;
  return compareByThreadAndStack(PA, PB);
}

static int compareText(const FoldedLine *A, const FoldedLine *B) {
  size_t N = A->Length < B->Length ? A->Length : B->Length;
  int C = memcmp(TextPool + A->Offset, TextPool + B->Offset, N);
  if (C != 0)
    return C;
  return A->Length < B->Length ? -1 : A->Length > B->Length ? 1 : 0;
}

static int compareLineText(const void *PA, const void *PB) {
  return compareText(static_cast<const FoldedLine *>(PA),
                     static_cast<const FoldedLine *>(PB));
}

/// docs/formats.md: by count, largest first; ties by stack text.
static int compareLineCount(const void *PA, const void *PB) {
  const auto *A = static_cast<const FoldedLine *>(PA);
  const auto *B = static_cast<const FoldedLine *>(PB);
  if (A->Count != B->Count)
    return A->Count > B->Count ? -1 : 1;
  return compareText(A, B);
}

static int comparePointers(const void *PA, const void *PB) {
  uintptr_t A = reinterpret_cast<uintptr_t>(*static_cast<void *const *>(PA));
  uintptr_t B = reinterpret_cast<uintptr_t>(*static_cast<void *const *>(PB));
  return A < B ? -1 : A > B ? 1 : 0;
}

static int compareTids(const void *PA, const void *PB) {
  uint32_t A = *static_cast<const uint32_t *>(PA);
  uint32_t B = *static_cast<const uint32_t *>(PB);
  return A < B ? -1 : A > B ? 1 : 0;
}

/// Appends a frame name escaped for a folded line (docs/formats.md).
static void appendFoldedName(ByteBuffer &Out, const char *Name) {
  for (const char *P = Name; *P; ++P) {
    switch (*P) {
    case '%': Out.append("%25", 3); break;
    case ';': Out.append("%3B", 3); break;
    case '\n': Out.append("%0A", 3); break;
    case '\r': Out.append("%0D", 3); break;
    default: Out.append(P, 1); break;
    }
  }
}

/// Index of D among the sorted unique descriptors.
static size_t findDescriptor(const FrameDescriptor *const *Sorted, size_t N,
                             const FrameDescriptor *D) {
  size_t Lo = 0, Hi = N;
  while (Lo < Hi) {
    size_t Mid = Lo + (Hi - Lo) / 2;
    if (reinterpret_cast<uintptr_t>(Sorted[Mid]) <
        reinterpret_cast<uintptr_t>(D))
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo;
}

static void writeFoldedFile(BufferedFile &File, const ByteBuffer &Pool,
                            const FoldedLine *Lines, size_t LineCount) {
  for (size_t I = 0; I < LineCount; ++I) {
    File.write(Pool.Data + Lines[I].Offset, Lines[I].Length);
    File.writeChar(' ');
    File.writeUnsigned(Lines[I].Count);
    File.writeChar('\n');
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

static void writeSprofFile(BufferedFile &File, ProfileType Type,
                           const char *FoldedPath,
                           const RunInfo &Run, const WriteResult &Result,
                           const StackRecord *Stacks, size_t StackCount,
                           const FrameDescriptor *const *Sorted,
                           const uint32_t *IndexOfSorted,
                           const FrameDescriptor *const *FrameOrder,
                           size_t FrameCount, const uint32_t *Tids,
                           size_t TidCount) {
  bool Alloc = Type == ProfileType::Alloc;
  File.write("{\n  \"format\": \"spinelprof\",\n  \"version\": 1,\n");
  if (Alloc)
    File.write("  \"profile\": \"alloc\",\n");
  File.write("  \"command\": ");
  writeCommand(File, Run);
  File.format(",\n  \"pid\": %d,\n  \"start_time\": ", Run.Pid);
  writeStartTime(File, Run.StartTimeNs);
  File.format(",\n  \"start_time_ns\": %llu,\n  \"duration_ns\": %llu,\n"
              "  \"cpu_time_ns\": %llu,\n",
              (unsigned long long)Run.StartTimeNs,
              (unsigned long long)Run.DurationNs,
              (unsigned long long)Run.CpuTimeNs);
  if (Alloc) {
    File.format("  \"alloc_rate\": %llu,\n  \"alloc_bytes\": %llu,\n",
                (unsigned long long)Run.AllocRate,
                (unsigned long long)Result.Bytes);
  } else {
    File.format("  \"mode\": \"%s\",\n  \"timer\": ",
                Run.Wall ? "wall" : "cpu");
    File.writeJsonString(timerName(Run.Wall));
    File.format(",\n  \"sampler\": \"%s\",\n  \"requested_hz\": %d,\n"
                "  \"achieved_hz\": ",
                samplerName(), Run.RequestedHz);
    writeRate(File, Result.AchievedHz);
    File.write(",\n");
  }
  File.format("  \"sample_count\": %llu,\n  \"dropped\": %llu,\n"
              "  \"truncated\": %llu,\n",
              (unsigned long long)Result.SampleCount,
              (unsigned long long)Result.Dropped,
              (unsigned long long)Result.Truncated);
  File.write("  \"folded\": { \"path\": ");
  File.writeJsonString(FoldedPath);
  File.format(", \"unit\": \"%s\", \"bytes\": %llu },\n",
              Alloc ? "bytes" : Run.WeightTime ? "microseconds" : "samples",
              (unsigned long long)Result.FoldedBytes);

  File.write("  \"frames\": [");
  for (size_t I = 0; I < FrameCount; ++I) {
    const FrameDescriptor *D = FrameOrder[I];
    File.write(I ? ",\n    { \"name\": " : "\n    { \"name\": ");
    File.writeJsonString(displayName(D));
    File.write(", \"c_name\": ");
    File.writeJsonString(D && D->c_name ? D->c_name : "");
    File.write(", \"kind\": \"");
    File.write(D ? kindName(D->kind) : "synthetic");
    File.write("\", \"file\": ");
    File.writeJsonString(D && D->file ? D->file : "");
    File.write(", \"line\": ");
    File.writeUnsigned(D ? D->line : 0);
    File.write(" }");
  }
  File.write(FrameCount ? "\n  ],\n" : "],\n");

  File.write("  \"threads\": [");
  for (size_t I = 0; I < TidCount; ++I) {
    File.format(I ? ",\n    { \"tid\": %u, \"name\": "
                  : "\n    { \"tid\": %u, \"name\": ",
                Tids[I]);
    File.writeJsonString(threadName(Tids[I]));
    uint64_t Count = 0, WeightNs = 0;
    for (size_t K = 0; K < StackCount; ++K)
      if (Stacks[K].Tid == Tids[I]) {
        Count += Stacks[K].Count;
        WeightNs += Stacks[K].WeightNs;
      }
    File.format(Alloc ? ", \"samples\": %llu, \"bytes\": %llu }"
                      : ", \"samples\": %llu, \"weight_ns\": %llu }",
                (unsigned long long)Count, (unsigned long long)WeightNs);
  }
  File.write(TidCount ? "\n  ],\n" : "],\n");

  File.write("  \"samples\": [");
  for (size_t I = 0; I < StackCount; ++I) {
    const StackRecord &S = Stacks[I];
    File.format(I ? ",\n    { \"thread\": %u, \"stack\": ["
                  : "\n    { \"thread\": %u, \"stack\": [",
                S.Tid);
    for (uint32_t F = 0; F < S.Length; ++F) {
      if (F)
        File.write(", ");
      File.writeUnsigned(
          IndexOfSorted[findDescriptor(Sorted, FrameCount, S.Frames[F])]);
    }
    File.format(Alloc ? "], \"count\": %llu, \"bytes\": %llu }"
                      : "], \"count\": %llu, \"weight_ns\": %llu }",
                (unsigned long long)S.Count, (unsigned long long)S.WeightNs);
  }
  File.write(StackCount ? "\n  ]\n}\n" : "]\n}\n");
}

/// Writes one file of the profile to its target as its kind says: a
/// regular file under its temporary name (renamed later by
/// output::publish), a device or FIFO in place, within
/// output::InPlaceDeadlineNs. Returns 0 or an errno, with Problem set from
/// output::describeProblem; after a failure no temporary is left.
template <typename Body>
static int writeOutput(OutputFile &O, int Pid, uint64_t *Bytes,
                       const char *&Problem, Body Write) {
  uint64_t Deadline = output::monotonicNs() + output::InPlaceDeadlineNs;
  BufferedFile File(
      output::openForWriting(O.Target, Pid, O.Temp, sizeof(O.Temp)), Deadline);
  if (!File.error()) {
    Write(File);
    crashWriteTestPoint(); // Stress tests only: a fault while writing.
  }
  int Err = File.close();
  if (Bytes)
    *Bytes = File.bytesWritten();
  if (Err) {
    removeTemporary(O);
    Problem = output::describeProblem(Err, O.Target);
  }
  return Err;
}

/// Resolves the targets of the profile's files (docs/formats.md, "Output
/// paths"): the folded path's, and the .sprof's when the folded stacks go
/// to a regular file. Returns 0 or an errno, with Out's failure fields set.
static int resolveOutputs(const char *FoldedPath, const char *SprofPath,
                          OutputFile &Folded, OutputFile &Sprof,
                          bool &HasSprof, WriteResult &Out) {
  Folded.Temp[0] = Sprof.Temp[0] = '\0';
  HasSprof = false;
  int Err = output::resolveTarget(FoldedPath, Folded.Target);
  if (Err)
    return Err;
  Out.InPlace = !output::isRegular(Folded.Target.Kind);
  if (Out.InPlace || !SprofPath)
    return 0;
  HasSprof = true;
  Err = output::resolveTarget(SprofPath, Sprof.Target);
  if (Err)
    Out.FailedPath = SprofPath;
  return Err;
}

int writeProfile(const char *FoldedPath, const char *SprofPath,
                 const RunInfo &Run, WriteResult &Out, ProfileType Type,
                 bool Final) {
  bool Alloc = Type == ProfileType::Alloc;
  const SampleTable &Table = Alloc ? allocSamples() : cpuSamples();
  memset(&Out, 0, sizeof(Out));
  Out.FailedPath = FoldedPath;
  Out.Dropped = Alloc ? allocObjects(Table.dropped()) : Table.dropped();
  Out.Truncated = Alloc ? allocTruncated() : truncatedSamples();

  auto *Files = static_cast<OutputFile *>(scratchAlloc(2 * sizeof(OutputFile)));
  if (!Files)
    return ENOMEM;
  OutputFile &FoldedFile = Files[0], &SprofFile = Files[1];
  bool HasSprof;
  int Err = resolveOutputs(FoldedPath, SprofPath, FoldedFile, SprofFile,
                           HasSprof, Out);
  if (Err || (Out.InPlace && !Final)) {
    scratchFree(Files);
    return Err;
  }

  // Every Ready slot, then duplicates of a (thread, stack) merged.
  size_t SlotCount = Table.claimedCount(), StackCount = 0;
  StackRecord *Stacks = static_cast<StackRecord *>(
      scratchAlloc((SlotCount ? SlotCount : 1) * sizeof(StackRecord)));
  if (!Stacks) {
    scratchFree(Files);
    return ENOMEM;
  }
  for (size_t I = 0; I < SlotCount; ++I) {
    const SampleSlot *Claimed = Table.claimedSlot(I);
    if (!Claimed)
      continue;
    const SampleSlot &Slot = *Claimed;
    if (Slot.State.load(std::memory_order_acquire) != SampleSlot::Ready)
      continue;
    Stacks[StackCount++] = {Slot.Tid, Slot.Length, Table.frames(Slot),
                            Slot.Count.load(), Slot.WeightNs.load()};
  }
  sortBy(Stacks, StackCount, compareByThreadAndStack);
  size_t Merged = 0;
  for (size_t I = 0; I < StackCount; ++I) {
    if (Merged && compareByThreadAndStack(&Stacks[Merged - 1], &Stacks[I]) == 0) {
      Stacks[Merged - 1].Count += Stacks[I].Count;
      Stacks[Merged - 1].WeightNs += Stacks[I].WeightNs;
    } else {
      Stacks[Merged++] = Stacks[I];
    }
  }
  StackCount = Merged;
  if (!Alloc && !Run.Wall)
    shareThreadCpu(Stacks, StackCount);
  if (Alloc)
    for (size_t I = 0; I < StackCount; ++I)
      Stacks[I].Count = allocObjects(Stacks[I].Count);
  sortBy(Stacks, StackCount, compareByCount);

  size_t TotalFrames = 0;
  for (size_t I = 0; I < StackCount; ++I) {
    Out.SampleCount += Stacks[I].Count;
    Out.Bytes += Stacks[I].WeightNs;
    TotalFrames += Stacks[I].Length;
  }
  // Samples per second of the time they stand for (CPU time of the sampled
  // threads, or their wall time in wall mode).
  uint64_t TotalWeightNs = 0;
  for (size_t I = 0; I < StackCount; ++I)
    TotalWeightNs += Stacks[I].WeightNs;
  Out.AchievedHz = TotalWeightNs ? double(Out.SampleCount) * 1e9 /
                                       double(TotalWeightNs)
                                 : 0.0;

  // Folded lines: stack text merged across threads.
  ByteBuffer Pool;
  FoldedLine *Lines = static_cast<FoldedLine *>(
      scratchAlloc((StackCount ? StackCount : 1) * sizeof(FoldedLine)));
  // Descriptors: sorted and unique for lookup, numbered by first use.
  const FrameDescriptor **Sorted = static_cast<const FrameDescriptor **>(
      scratchAlloc((TotalFrames ? TotalFrames : 1) * sizeof(*Sorted)));
  uint32_t *IndexOfSorted = static_cast<uint32_t *>(
      scratchAlloc((TotalFrames ? TotalFrames : 1) * sizeof(uint32_t)));
  const FrameDescriptor **FrameOrder = static_cast<const FrameDescriptor **>(
      scratchAlloc((TotalFrames ? TotalFrames : 1) * sizeof(*FrameOrder)));
  uint32_t *Tids = static_cast<uint32_t *>(
      scratchAlloc((StackCount ? StackCount : 1) * sizeof(uint32_t)));
  if (!Lines || !Sorted || !IndexOfSorted || !FrameOrder || !Tids)
    Err = ENOMEM;

  size_t LineCount = 0, FrameCount = 0, TidCount = 0;
  if (!Err) {
    for (size_t I = 0; I < StackCount; ++I) {
      size_t Start = Pool.Size;
      for (uint32_t F = 0; F < Stacks[I].Length; ++F) {
        if (F)
          Pool.append(";", 1);
        appendFoldedName(Pool, displayName(Stacks[I].Frames[F]));
      }
      // Allocation profiles: bytes; CPU: samples or nanoseconds.
      Lines[I] = {Start, Pool.Size - Start,
                  Alloc || Run.WeightTime ? Stacks[I].WeightNs
                                          : Stacks[I].Count};
    }
    if (Pool.Failed)
      Err = ENOMEM;
  }
  if (!Err) {
    TextPool = Pool.Data;
    sortBy(Lines, StackCount, compareLineText);
    for (size_t I = 0; I < StackCount; ++I) {
      if (LineCount && compareText(&Lines[LineCount - 1], &Lines[I]) == 0)
        Lines[LineCount - 1].Count += Lines[I].Count;
      else
        Lines[LineCount++] = Lines[I];
    }
    if (Run.WeightTime && !Alloc) {
      // Nanoseconds summed per line, then rounded to microseconds; a line
      // that rounds to 0 is left out.
      size_t Kept = 0;
      for (size_t I = 0; I < LineCount; ++I) {
        Lines[I].Count = (Lines[I].Count + 500) / 1000;
        if (Lines[I].Count)
          Lines[Kept++] = Lines[I];
      }
      LineCount = Kept;
    }
    sortBy(Lines, LineCount, compareLineCount);

    size_t N = 0;
    for (size_t I = 0; I < StackCount; ++I)
      for (uint32_t F = 0; F < Stacks[I].Length; ++F)
        Sorted[N++] = Stacks[I].Frames[F];
    sortBy(Sorted, N, comparePointers);
    size_t Unique = 0;
    for (size_t I = 0; I < N; ++I)
      if (!Unique || Sorted[Unique - 1] != Sorted[I])
        Sorted[Unique++] = Sorted[I];
    for (size_t I = 0; I < Unique; ++I)
      IndexOfSorted[I] = UINT32_MAX;
    for (size_t I = 0; I < StackCount; ++I)
      for (uint32_t F = 0; F < Stacks[I].Length; ++F) {
        size_t K = findDescriptor(Sorted, Unique, Stacks[I].Frames[F]);
        if (IndexOfSorted[K] == UINT32_MAX) {
          IndexOfSorted[K] = static_cast<uint32_t>(FrameCount);
          FrameOrder[FrameCount++] = Sorted[K];
        }
      }

    for (size_t I = 0; I < StackCount; ++I)
      Tids[I] = Stacks[I].Tid;
    sortBy(Tids, StackCount, compareTids);
    for (size_t I = 0; I < StackCount; ++I)
      if (!TidCount || Tids[TidCount - 1] != Tids[I])
        Tids[TidCount++] = Tids[I];
  }

  if (!Err)
    Err = writeOutput(FoldedFile, Run.Pid, &Out.FoldedBytes, Out.Problem,
                      [&](BufferedFile &F) {
                        writeFoldedFile(F, Pool, Lines, LineCount);
                      });
  if (!Err && HasSprof) {
    Err = writeOutput(SprofFile, Run.Pid, nullptr, Out.Problem,
                      [&](BufferedFile &F) {
                        writeSprofFile(F, Type, FoldedPath, Run, Out, Stacks,
                                       StackCount, Sorted, IndexOfSorted,
                                       FrameOrder, FrameCount, Tids, TidCount);
                      });
    if (Err) {
      Out.FailedPath = SprofPath;
      removeTemporary(FoldedFile);
    }
  }
  if (!Err) {
    if ((Err = output::publish(FoldedFile.Target, FoldedFile.Temp)) != 0) {
      removeTemporary(FoldedFile);
      if (HasSprof)
        removeTemporary(SprofFile);
    } else if (HasSprof && (Err = output::publish(SprofFile.Target,
                                                  SprofFile.Temp)) != 0) {
      // The folded file alone is still a complete, valid profile.
      Out.FailedPath = SprofPath;
      removeTemporary(SprofFile);
    }
  }

  scratchFree(Files);
  scratchFree(Tids);
  scratchFree(FrameOrder);
  scratchFree(IndexOfSorted);
  scratchFree(Sorted);
  scratchFree(Lines);
  scratchFree(Pool.Data);
  scratchFree(Stacks);
  return Err;
}

} // namespace spinelprof
