//===- FuzzInput.h - Shared pieces of the fuzz targets ----------*- C++ -*-===//
//
// Every target turns the fuzzer's bytes into a Profile the way the tool
// does (a .sprof when the text starts with '{', folded stacks otherwise),
// then checks a property. The readers promise InputError for bad input;
// any other exception escapes the target and libFuzzer reports it as a
// crash, which is the point.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_FUZZ_FUZZINPUT_H
#define SPINELPROF_FUZZ_FUZZINPUT_H

#include "FoldedReader.h"
#include "Profile.h"
#include "SprofReader.h"
#include "ToolError.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace spinelprof::fuzz {

/// Stops the run with a message: libFuzzer saves the input that did it.
[[noreturn]] inline void fail(const char *What) {
  std::fprintf(stderr, "fuzz property violated: %s\n", What);
  std::abort();
}

inline void check(bool Ok, const char *What) {
  if (!Ok)
    fail(What);
}

/// What every reader must guarantee about a Profile it returns.
inline void checkProfileShape(const Profile &P) {
  size_t Runs = P.Runs.empty() ? 1 : P.Runs.size();
  for (const Sample &S : P.Samples) {
    for (uint32_t F : S.Stack)
      check(F < P.Frames.size(), "sample refers to a frame that does not exist");
    check(S.Run < Runs, "sample refers to a run that does not exist");
  }
  for (const ThreadInfo &T : P.Threads)
    check(T.Run < Runs, "thread refers to a run that does not exist");
  for (const ThreadTimeline &T : P.Timelines) {
    check(T.Run < Runs, "timeline refers to a run that does not exist");
    uint64_t Previous = 0;
    for (const TimelineEvent &E : T.Events) {
      check(E.Sample < P.Samples.size(), "timeline event refers to a missing sample");
      check(P.Samples[E.Sample].Thread == T.Tid && P.Samples[E.Sample].Run == T.Run,
            "timeline event refers to another thread's sample");
      check(E.TimeNs >= Previous, "timeline events are not in time order");
      Previous = E.TimeNs;
    }
  }
}

/// The profile in Text, or nullopt when the reader rejected it cleanly.
inline std::optional<Profile> readProfileText(std::string_view Text) {
  size_t First = Text.find_first_not_of(" \t\r\n");
  try {
    Profile P = First != std::string_view::npos && Text[First] == '{'
                    ? parseSprofText(Text, "fuzz.sprof")
                    : parseFoldedText(Text, "fuzz.folded");
    checkProfileShape(P);
    return P;
  } catch (const InputError &) {
    return std::nullopt;
  }
}

inline std::string_view bytes(const uint8_t *Data, size_t Size) {
  return {reinterpret_cast<const char *>(Data), Size};
}

} // namespace spinelprof::fuzz

#endif // SPINELPROF_FUZZ_FUZZINPUT_H
