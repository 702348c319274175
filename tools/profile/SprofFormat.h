//===- SprofFormat.h - The .sprof rows, for spinel-prof ---------*- C++ -*-===//
//
// spinel-prof's expansion of spinelprof/sprof_format.inc, the one list of
// the .sprof's keys and versions shared with the runtime's writer: the
// version numbers and each record's keys as constants, for the reader
// (SprofReader.cpp) and merge's writer (ProfileWriters.cpp). The rows
// themselves are expanded in place where a reader or writer walks them.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_SPROFFORMAT_H
#define SPINELPROF_TOOLS_SPROFFORMAT_H

namespace spinelprof {
namespace sprof {

#define SPROF_VERSION(Name, Number) inline constexpr unsigned Version##Name = Number;
#include "spinelprof/sprof_format.inc"

/// Top-level keys.
namespace key {
#define SPROF_FIELD(Member, Key, Type, Profile, Tool) inline constexpr char Member[] = Key;
#include "spinelprof/sprof_format.inc"
} // namespace key

/// Keys of a "frames" entry.
namespace frame_key {
#define SPROF_FRAME_FIELD(Member, Key, Type, Profile, Tool)                    \
  inline constexpr char Member[] = Key;
#include "spinelprof/sprof_format.inc"
} // namespace frame_key

/// Keys of a "threads" entry.
namespace thread_key {
#define SPROF_THREAD_FIELD(Member, Key, Type, Profile, Tool)                   \
  inline constexpr char Member[] = Key;
#include "spinelprof/sprof_format.inc"
} // namespace thread_key

/// Keys of a "samples" entry.
namespace sample_key {
#define SPROF_SAMPLE_FIELD(Member, Key, Type, Profile, Tool)                   \
  inline constexpr char Member[] = Key;
#include "spinelprof/sprof_format.inc"
} // namespace sample_key

/// Keys of a "timeline" entry.
namespace timeline_key {
#define SPROF_TIMELINE_FIELD(Member, Key, Type, Profile, Tool)                 \
  inline constexpr char Member[] = Key;
#include "spinelprof/sprof_format.inc"
} // namespace timeline_key

} // namespace sprof
} // namespace spinelprof

#endif // SPINELPROF_TOOLS_SPROFFORMAT_H
