//===- InputSniffer.h - What a file given as a profile looks like -*- C++ -*-===//
//
// The readers take folded stacks and .sprof JSON, both text. A binary file
// given instead (a pprof profile, a gzipped file, perf.data, a program)
// would make them quote its bytes in an error; it gets one line saying
// what it looks like and what is read instead. Quoted input in any other
// message goes through printableExcerpt.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_INPUTSNIFFER_H
#define SPINELPROF_TOOLS_INPUTSNIFFER_H

#include <optional>
#include <string>
#include <string_view>

namespace spinelprof {

/// What Text looks like when it is not text ("gzip-compressed data (...)",
/// "binary data"), judged by its magic number or by control bytes in its
/// first 8 KiB; nullopt when it looks like text.
std::optional<std::string> describeBinaryInput(std::string_view Text);

/// Throws InputError "PATH: this is WHAT, not a profile spinel-prof reads;
/// it reads ..." when Text is not text (describeBinaryInput).
void rejectBinaryInput(std::string_view Text, const std::string &Path);

/// Text as it may be printed: valid UTF-8 kept, control characters and
/// bytes that are not UTF-8 written \xNN, cut to about MaxChars characters
/// ("..." appended).
std::string printableExcerpt(std::string_view Text, size_t MaxChars = 60);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_INPUTSNIFFER_H
