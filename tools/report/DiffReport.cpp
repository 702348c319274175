//===- DiffReport.cpp - The biggest movers between two profiles -----------===//
#include "DiffReport.h"
#include "TimelineTransforms.h"
#include "Report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace spinelprof {

namespace {

struct Shares {
  uint64_t Self = 0, Total = 0;
};

std::map<std::string, Shares> costsByName(const Profile &P) {
  std::map<std::string, Shares> Out;
  for (const FrameCost &C : computeFrameCosts(P)) {
    Shares &S = Out[P.Frames[C.FrameIndex].Name];
    S.Self += C.Self;
    S.Total = std::max(S.Total, C.Total); // same-named frames may share stacks
  }
  return Out;
}

std::string signedPoints(double V) { return fmt::format("{:+.2f}", V); }

/// One frame name's shares in the two profiles, in percent.
struct DiffRow {
  std::string Name;
  double SelfBefore, SelfAfter, TotalBefore, TotalAfter;
  double change(bool ByTotal) const {
    return ByTotal ? TotalAfter - TotalBefore : SelfAfter - SelfBefore;
  }
};

/// Every frame name of either profile, the largest change (of total time
/// when \p ByTotal, else of self time) first, a rise before an equal fall.
std::vector<DiffRow> diffRows(const Profile &Before, const Profile &After,
                              bool ByTotal) {
  std::map<std::string, Shares> B = costsByName(Before), A = costsByName(After);
  double BT = static_cast<double>(Before.totalCount()), AT = static_cast<double>(After.totalCount());
  auto Share = [](uint64_t V, double Whole) { return Whole > 0 ? 100.0 * V / Whole : 0.0; };
  std::map<std::string, DiffRow> Rows;
  for (const auto &[Name, S] : B)
    Rows[Name] = {Name, Share(S.Self, BT), 0, Share(S.Total, BT), 0};
  for (const auto &[Name, S] : A) {
    auto [It, Inserted] = Rows.try_emplace(Name, DiffRow{Name, 0, 0, 0, 0});
    It->second.SelfAfter = Share(S.Self, AT);
    It->second.TotalAfter = Share(S.Total, AT);
  }
  std::vector<DiffRow> Sorted;
  for (auto &[Name, R] : Rows)
    Sorted.push_back(R);
  std::stable_sort(Sorted.begin(), Sorted.end(), [ByTotal](const DiffRow &X, const DiffRow &Y) {
    double DX = std::fabs(X.change(ByTotal)), DY = std::fabs(Y.change(ByTotal));
    if (std::fabs(DX - DY) > 1e-9)
      return DX > DY;
    return X.change(ByTotal) > Y.change(ByTotal);
  });
  return Sorted;
}

/// The table's lines: every column but the last right-aligned to its
/// widest cell, two spaces between.
std::string renderRightAligned(const std::vector<std::vector<std::string>> &Table) {
  std::vector<size_t> W(Table.front().size(), 0);
  for (const auto &Cells : Table)
    for (size_t K = 0; K < Cells.size(); ++K)
      W[K] = std::max(W[K], displayWidth(Cells[K]));
  std::string Out;
  for (const auto &Cells : Table) {
    std::string Line;
    for (size_t K = 0; K + 1 < Cells.size(); ++K)
      Line += std::string(W[K] - displayWidth(Cells[K]), ' ') + Cells[K] + "  ";
    Line += Cells.back();
    Out += Line + '\n';
  }
  return Out;
}

} // namespace

std::string renderDiffText(const Profile &Before, const Profile &After,
                           const DiffTextOptions &Options) {
  bool ByTotal = Options.ByTotal;
  std::vector<DiffRow> Sorted = diffRows(Before, After, ByTotal);
  size_t Shown = Options.Top == 0 ? Sorted.size() : std::min(Options.Top, Sorted.size());

  std::string Out;
  Out += fmt::format("Before:   {} ({} {})\n", displayName(Before.SourcePath, 0),
                     Before.totalCount(), Before.unit());
  Out += fmt::format("After:    {} ({} {})\n", displayName(After.SourcePath, 0),
                     After.totalCount(), After.unit());
  if (After.Range)
    Out += fmt::format("Time:     {} of each run (--time)\n", describeTimeRange(*After.Range));
  Out += fmt::format("Shares are percent of each profile's {}; change in points, "
                     "ranked by {} change.\n\n",
                     After.unit(), ByTotal ? "total" : "self");
  std::vector<std::vector<std::string>> Table;
  Table.push_back({"self before", "self after", "change", "total before", "total after",
                   "change", "name"});
  for (size_t I = 0; I < Shown; ++I) {
    const DiffRow &R = Sorted[I];
    Table.push_back({fmt::format("{:.2f}%", R.SelfBefore), fmt::format("{:.2f}%", R.SelfAfter),
                     signedPoints(R.SelfAfter - R.SelfBefore),
                     fmt::format("{:.2f}%", R.TotalBefore), fmt::format("{:.2f}%", R.TotalAfter),
                     signedPoints(R.TotalAfter - R.TotalBefore), displayName(R.Name, 60)});
  }
  Out += renderRightAligned(Table);
  if (Shown < Sorted.size())
    Out += fmt::format("\n({} of {} frames shown; --top 0 shows all)\n", Shown, Sorted.size());
  return Out;
}

} // namespace spinelprof
