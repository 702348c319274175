//===- DiffReport.h - The biggest movers between two profiles ---*- C++ -*-===//
//
// `diff --text`: frames compared by name (the only identity two runs of
// possibly different builds share), by their share of all samples, so runs
// of different lengths compare fairly.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_DIFFREPORT_H
#define SPINELPROF_TOOLS_DIFFREPORT_H

#include "Profile.h"

#include <string>

namespace spinelprof {

struct DiffTextOptions {
  size_t Top = 20;   ///< Rows; 0 prints all.
  bool ByTotal = false; ///< Rank by change of total share instead of self.
};

/// A header naming both profiles, then the frames whose self (or total)
/// share changed most, largest absolute change first.
std::string renderDiffText(const Profile &Before, const Profile &After,
                           const DiffTextOptions &Options);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_DIFFREPORT_H
