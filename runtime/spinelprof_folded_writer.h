//===- spinelprof_folded_writer.h - The folded stacks file ------*- C++ -*-===//
//
// The folded stacks of docs/formats.md, "Folded stacks", from the
// profile's stacks (spinelprof_profile_stacks.h): one line per distinct
// stack text, threads merged, names escaped by spinelprof/folded_name.h.
// Runs in the writer (at exit, a flush, or the copy of the process that
// writes for a signal): async-signal-safe, memory from
// spinelprof_scratch.h.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_FOLDED_WRITER_H
#define SPINELPROF_FOLDED_WRITER_H

#include "spinelprof_profile_stacks.h"

#include <stddef.h>
#include <stdint.h>

namespace spinelprof {

class BufferedFile;

/// One distinct line of the folded file: text in FoldedLines::Text.
struct FoldedLine {
  size_t Offset;
  size_t Length;
  uint64_t Count;
};

/// The folded file's lines in the order they are written (by count,
/// largest first; ties by stack text). Text and Lines are from
/// scratchAlloc; freeFoldedLines frees them.
struct FoldedLines {
  char *Text = nullptr;
  FoldedLine *Lines = nullptr;
  size_t LineCount = 0;
};

/// Builds the folded lines of P's stacks: counts in bytes (allocation
/// profile), microseconds (Run.WeightTime; a line that rounds to 0 left
/// out) or samples. Returns 0 or ENOMEM. One writer at a time.
int buildFoldedLines(const ProfileStacks &P, ProfileType Type,
                     const RunInfo &Run, FoldedLines &Out);

/// Writes the lines as "<stack> <count>\n". A writeOutput body: Contents
/// is a FoldedLines.
void writeFoldedFile(BufferedFile &File, const void *Contents);

/// Frees Lines' text and lines.
void freeFoldedLines(FoldedLines &Lines);

} // namespace spinelprof

#endif // SPINELPROF_FOLDED_WRITER_H
