//===- spinelprof_folded_writer.cpp - The folded stacks file --------------===//
//
// Part of spinelprof. See spinelprof_folded_writer.h. Async-signal-safe
// throughout: memory from spinelprof_scratch.h, never malloc; std::sort,
// which allocates nothing.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_folded_writer.h"

#include "spinelprof_io.h"
#include "spinelprof_scratch.h"

#include "spinelprof/folded_name.h"

#include <errno.h>
#include <string.h>

namespace spinelprof {

namespace {

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

/// Appends a frame name escaped for a folded line (docs/formats.md).
static void appendFoldedName(ByteBuffer &Out, const char *Name) {
  folded::escapeName(Name, strlen(Name),
                     [&Out](const char *P, size_t N) { Out.append(P, N); });
}

/// One line per stack of P, in P's order, text in Pool. Allocation
/// profiles count bytes; CPU profiles samples or nanoseconds.
static void appendStackLines(const ProfileStacks &P, bool CountWeight,
                             ByteBuffer &Pool, FoldedLine *Lines) {
  for (size_t I = 0; I < P.StackCount; ++I) {
    const StackRecord &S = P.Stacks[I];
    size_t Start = Pool.Size;
    for (uint32_t F = 0; F < S.Length; ++F) {
      if (F)
        Pool.append(";", 1);
      appendFoldedName(Pool, displayName(S.Frames[F]));
    }
    Lines[I] = {Start, Pool.Size - Start, CountWeight ? S.WeightNs : S.Count};
  }
}

/// Sums the lines of equal text; returns how many lines are left.
static size_t mergeEqualLines(FoldedLine *Lines, size_t Count) {
  sortBy(Lines, Count, compareLineText);
  size_t LineCount = 0;
  for (size_t I = 0; I < Count; ++I) {
    if (LineCount && compareText(&Lines[LineCount - 1], &Lines[I]) == 0)
      Lines[LineCount - 1].Count += Lines[I].Count;
    else
      Lines[LineCount++] = Lines[I];
  }
  return LineCount;
}

/// Nanoseconds summed per line, rounded to microseconds; a line that
/// rounds to 0 is left out. Returns how many lines are left.
static size_t roundToMicroseconds(FoldedLine *Lines, size_t Count) {
  size_t Kept = 0;
  for (size_t I = 0; I < Count; ++I) {
    Lines[I].Count = (Lines[I].Count + 500) / 1000;
    if (Lines[I].Count)
      Lines[Kept++] = Lines[I];
  }
  return Kept;
}

int buildFoldedLines(const ProfileStacks &P, ProfileType Type,
                     const RunInfo &Run, FoldedLines &Out) {
  bool Alloc = Type == ProfileType::Alloc;
  Out.Lines = static_cast<FoldedLine *>(
      scratchAlloc((P.StackCount ? P.StackCount : 1) * sizeof(FoldedLine)));
  if (!Out.Lines)
    return ENOMEM;
  ByteBuffer Pool;
  appendStackLines(P, Alloc || Run.WeightTime, Pool, Out.Lines);
  Out.Text = Pool.Data;
  if (Pool.Failed)
    return ENOMEM;
  TextPool = Pool.Data;
  Out.LineCount = mergeEqualLines(Out.Lines, P.StackCount);
  if (Run.WeightTime && !Alloc)
    Out.LineCount = roundToMicroseconds(Out.Lines, Out.LineCount);
  sortBy(Out.Lines, Out.LineCount, compareLineCount);
  return 0;
}

void writeFoldedFile(BufferedFile &File, const void *Contents) {
  const auto &L = *static_cast<const FoldedLines *>(Contents);
  for (size_t I = 0; I < L.LineCount; ++I) {
    File.write(L.Text + L.Lines[I].Offset, L.Lines[I].Length);
    File.writeChar(' ');
    File.writeUnsigned(L.Lines[I].Count);
    File.writeChar('\n');
  }
}

void freeFoldedLines(FoldedLines &Lines) {
  scratchFree(Lines.Lines);
  scratchFree(Lines.Text);
  Lines = FoldedLines();
}

} // namespace spinelprof
