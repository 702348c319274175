//===- Report.h - The top table of frames by self and total -----*- C++ -*-===//
//
// `spinel-prof report`: the profile's metadata in a header, then the frames
// that cost the most. Self counts samples where a frame is the leaf; total
// counts samples where it is anywhere on the stack, once per stack even when
// it recurses (otherwise a recursive method would exceed 100%).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_REPORT_H
#define SPINELPROF_TOOLS_REPORT_H

#include "Profile.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace spinelprof {

/// Sample counts attributed to one frame.
struct FrameCost {
  uint32_t FrameIndex = 0; ///< Index into Profile::Frames.
  uint64_t Self = 0;       ///< Samples with this frame at the leaf.
  uint64_t Total = 0;      ///< Samples with this frame on the stack.
};

/// Self and total for every frame that appears in some sample, in frame
/// index order. In an allocation profile self goes to the frame above the
/// "alloc TYPE" leaf: the code that allocated.
std::vector<FrameCost> computeFrameCosts(const Profile &P);

enum class ReportOrder { BySelf, ByTotal };

struct ReportOptions {
  /// Rows to print; 0 prints every frame.
  size_t Top = 20;
  ReportOrder Order = ReportOrder::BySelf;
  /// Longer names are cut with "..." so the columns stay aligned.
  size_t MaxNameWidth = 60;
  /// Printed between the header and the table (report's GC / runtime /
  /// Ruby split, computed before any folding of frames).
  std::string Preamble;
};

/// Allocation profiles: the bytes and objects of each allocated type (the
/// "alloc TYPE" leaves), largest first; printed where a CPU profile's report
/// prints its GC / runtime / Ruby split.
std::string renderAllocTypes(const Profile &P);

/// The whole report as text: header, table, and a note when rows were cut.
std::string renderReport(const Profile &P, const ReportOptions &Options);

/// Makes a name safe to print in one table cell: control characters become
/// %XX (as in folded files) and names wider than MaxWidth code points are
/// cut to MaxWidth with a trailing "...". MaxWidth 0 means no limit.
std::string displayName(const std::string &Name, size_t MaxWidth);

/// Display width of UTF-8 text, counted in code points.
size_t displayWidth(const std::string &Text);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_REPORT_H
