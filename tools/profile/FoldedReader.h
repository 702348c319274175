//===- FoldedReader.h - Reads folded stacks into a Profile ------*- C++ -*-===//
//
// Folded stacks ("a;b;c 42") are the universal export: spinelprof's own
// runtime writes them, and so do perf's stackcollapse scripts, inferno and
// others. The reader accepts any of them (docs/formats.md, "Folded stacks").
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_FOLDEDREADER_H
#define SPINELPROF_TOOLS_FOLDEDREADER_H

#include "Profile.h"

#include <string>
#include <string_view>

namespace spinelprof {

/// Undoes the folded-name escaping: exactly %25, %3B, %0A and %0D become
/// '%', ';', newline and carriage return; anything else stays as written, so
/// a foreign name like "50%off" survives.
std::string decodeFoldedName(std::string_view Escaped);

/// Parses folded text. Frames are identified by name (a folded file has
/// nothing else), repeated stacks are summed, blank lines skipped. Path is
/// used in messages, and a name ending in ".alloc.folded" makes it an
/// allocation profile (counts are bytes). Throws InputError "PATH:LINE: problem".
Profile parseFoldedText(std::string_view Text, const std::string &Path);

/// Reads and parses the folded file at Path.
Profile readFoldedFile(const std::string &Path);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_FOLDEDREADER_H
