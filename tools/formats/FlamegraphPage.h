//===- FlamegraphPage.h - The self-contained interactive page ---*- C++ -*-===//
//
// `flamegraph` and `diff` write one HTML file with no network access: the
// template (tools/formats/flamegraph/page.html, embedded at build time) plus the
// profile as a call tree in JSON. The tree is sent in preorder as (depth,
// frame) pairs — stacks sorted by frame name, so siblings come out in name
// order and shared prefixes are sent once — and the samples as (node,
// thread, count) so the page can select a thread and fold runtime frames
// without the tool writing one tree per view. A profile with a timeline
// also sends, per thread, its events (time step, sample, count) as compact
// text, so the page draws the strip above the graph and recomputes the graph
// for a selected time range itself.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_FLAMEGRAPHPAGE_H
#define SPINELPROF_TOOLS_FLAMEGRAPHPAGE_H

#include "Profile.h"

#include <string>

namespace spinelprof {

struct FlamegraphOptions {
  std::string Title;   ///< Page title; the profile path when empty.
  bool Icicle = false; ///< Start with the root at the top.
};

/// The page for one profile.
std::string renderFlamegraphPage(const Profile &P, const FlamegraphOptions &Options);

/// A differential page: the shape (widths) of After, each frame coloured by
/// the change of its share of all samples from Before to After.
std::string renderDiffPage(const Profile &Before, const Profile &After,
                           const FlamegraphOptions &Options);

/// Escapes text for HTML element content and attribute values.
std::string escapeHtml(const std::string &Text);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_FLAMEGRAPHPAGE_H
