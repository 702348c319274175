//===- Report.cpp - The top table of frames by self and total -------------===//
#include "Report.h"
#include "ShellQuote.h"
#include "TimelineTransforms.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace spinelprof {

std::vector<FrameCost> computeFrameCosts(const Profile &P) {
  std::vector<FrameCost> Costs(P.Frames.size());
  for (uint32_t I = 0; I < Costs.size(); ++I)
    Costs[I].FrameIndex = I;
  // LastSeen[F] == sample number + 1 marks F as already counted in this
  // stack, so recursion adds to total once; no per-stack set needed.
  std::vector<size_t> LastSeen(P.Frames.size(), 0);
  for (size_t N = 0; N < P.Samples.size(); ++N) {
    const Sample &S = P.Samples[N];
    if (S.Stack.empty())
      continue;
    // An allocation's self is the frame that allocated, not the type leaf
    // under it ("Foo.new;alloc Foo"): the table then answers which code
    // allocates, and the types have their own list.
    size_t SelfAt = S.Stack.size() - 1;
    if (P.Kind == ProfileKind::Alloc && SelfAt > 0)
      --SelfAt;
    Costs[S.Stack[SelfAt]].Self += S.Count;
    for (uint32_t F : S.Stack) {
      if (LastSeen[F] == N + 1)
        continue;
      LastSeen[F] = N + 1;
      Costs[F].Total += S.Count;
    }
  }
  // A frame listed in the profile but in no sample has nothing to report.
  Costs.erase(std::remove_if(Costs.begin(), Costs.end(),
                             [](const FrameCost &C) { return C.Total == 0; }),
              Costs.end());
  return Costs;
}

size_t displayWidth(const std::string &Text) {
  size_t Width = 0;
  for (unsigned char C : Text)
    if ((C & 0xC0) != 0x80) // not a UTF-8 continuation byte
      ++Width;
  return Width;
}

std::string displayName(const std::string &Name, size_t MaxWidth) {
  std::string Safe;
  for (unsigned char C : Name) {
    if (C < 0x20 || C == 0x7F)
      Safe += fmt::format("%{:02X}", C);
    else
      Safe += static_cast<char>(C);
  }
  if (MaxWidth < 4 || displayWidth(Safe) <= MaxWidth) // too narrow to cut
    return Safe;
  // Cut on a code point boundary, leaving room for the ellipsis.
  size_t Keep = MaxWidth - 3, Seen = 0, Cut = 0;
  for (; Cut < Safe.size(); ++Cut) {
    if ((static_cast<unsigned char>(Safe[Cut]) & 0xC0) != 0x80) {
      if (Seen == Keep)
        break;
      ++Seen;
    }
  }
  return Safe.substr(0, Cut) + "...";
}

namespace {

std::string padRight(const std::string &Text, size_t Width) {
  size_t W = displayWidth(Text);
  return W >= Width ? Text : Text + std::string(Width - W, ' ');
}

std::string padLeft(const std::string &Text, size_t Width) {
  size_t W = displayWidth(Text);
  return W >= Width ? Text : std::string(Width - W, ' ') + Text;
}

std::string percent(uint64_t Part, uint64_t Whole) {
  double P = Whole ? 100.0 * static_cast<double>(Part) / static_cast<double>(Whole) : 0.0;
  return fmt::format("{:.2f}%", P);
}

std::string seconds(uint64_t Ns) { return fmt::format("{:.3f} s", Ns / 1e9); }

std::string hertz(double Hz) {
  if (std::floor(Hz) == Hz && std::fabs(Hz) < 1e15)
    return fmt::format("{} Hz", static_cast<int64_t>(Hz));
  return fmt::format("{:.1f} Hz", Hz);
}

/// One line per thread: its share of the samples and the time they stand
/// for, so a multi-threaded profile shows where each thread spent it.
void renderThreadShares(const Profile &P, std::string &Out) {
  uint64_t Total = P.totalCount();
  bool Wall = P.Metadata.Mode && *P.Metadata.Mode == "wall";
  for (const ThreadInfo &T : P.Threads) {
    uint64_t Count = 0, WeightNs = 0;
    bool HasWeight = false;
    for (const Sample &S : P.Samples)
      if (S.Thread == T.Tid && S.Run == T.Run) {
        Count += S.Count;
        if (S.WeightNs) {
          WeightNs += *S.WeightNs;
          HasWeight = true;
        }
      }
    double Share = Total ? 100.0 * double(Count) / double(Total) : 0.0;
    std::string Name = displayName(T.Name.empty() ? "?" : T.Name, 16);
    Out += fmt::format("{:<10}{:>8} {:<16} {:>6.2f}% {:>8} {}", "",
                       threadLabel(P, T.Run, T.Tid), Name, Share, Count, P.unit());
    if (HasWeight)
      Out += fmt::format(", {} {}", seconds(WeightNs), Wall ? "wall" : "CPU");
    Out += '\n';
  }
}

template <typename LineFn>
void renderAllocHeader(const Profile &P, LineFn &Line) {
  const ProfileMetadata &M = P.Metadata;
  std::string Allocated = fmt::format("{} bytes", P.totalCount());
  if (std::optional<uint64_t> Objects = P.totalObjects())
    Allocated += fmt::format(" in {} objects", *Objects);
  if (M.AllocRate)
    Allocated += *M.AllocRate == 1
                     ? std::string(" (every allocation recorded)")
                     : fmt::format(" (estimated from samples every {} bytes on average)",
                                   *M.AllocRate);
  if (M.Dropped.value_or(0) || M.Truncated.value_or(0))
    Allocated += fmt::format(" (dropped {} objects, truncated {} stacks)",
                             M.Dropped.value_or(0), M.Truncated.value_or(0));
  Line("Total:", Allocated);
  Line("Unit:", "bytes allocated (self: by the frame itself, total: by it and its callees)");
}

/// Under this many samples a share's statistical error passes ±7 points,
/// which a reader should be told: at the default 100 Hz a run of under
/// two CPU-seconds has so few.
constexpr uint64_t FewSamples = 200;

/// How far a share of N samples is from the truth by chance alone (two
/// standard errors of a share of 50 %, the widest: 100/sqrt(N) points),
/// or that a run had none, and the remedy: a faster rate, or, at 1 kHz
/// already, more runs.
std::string fewSamplesNote(uint64_t N, double RequestedHz) {
  std::string Remedy = RequestedHz < 1000
                           ? "sample a short run faster: spinel-prof run --hz 1000, or "
                             "SPINEL_PROFILE_HZ=1000"
                           : "run longer, or merge several runs' profiles (spinel-prof merge)";
  if (N == 0)
    return "no samples: the run was too short for the rate; " + Remedy;
  return fmt::format("few samples: a share may be off by ±{:.0f} points by chance (2 standard "
                     "errors); {}",
                     100.0 / std::sqrt(double(N)), Remedy);
}

template <typename LineFn>
void renderSampleHeader(const Profile &P, LineFn &Line) {
  const ProfileMetadata &M = P.Metadata;
  if (M.Mode || M.Timer) {
    std::string Mode = M.Mode.value_or("?");
    if (M.Timer)
      Mode += " (" + *M.Timer + ")";
    Line("Mode:", Mode);
  }
  if (M.RequestedHz || M.AchievedHz) {
    std::string Rate;
    if (M.RequestedHz)
      Rate = hertz(*M.RequestedHz) + " requested";
    if (M.AchievedHz)
      Rate += (Rate.empty() ? "" : ", ") + hertz(*M.AchievedHz) + " achieved";
    Line("Rate:", Rate);
  }
  uint64_t Total = M.SampleCount.value_or(P.totalCount());
  std::string Samples = fmt::format("{}", Total);
  if (M.SelectedFrom)
    Samples += fmt::format(" of {} ({})", *M.SelectedFrom, M.Selection);
  if (M.FoldedUnit && *M.FoldedUnit != "samples")
    Samples += fmt::format(" (folded unit: {})", *M.FoldedUnit);
  if (M.Dropped || M.Truncated)
    // Counted for the whole run: the runtime does not say whose they were.
    Samples += fmt::format(" ({}dropped {}, truncated {})",
                           M.SelectedFrom ? "whole run: " : "", M.Dropped.value_or(0),
                           M.Truncated.value_or(0));
  if (!P.SelfDescribing)
    Samples += fmt::format(" in {} distinct stacks", P.Samples.size());
  Line("Samples:", Samples);
  // None in a selection (--thread, --focus, --time), or none kept of
  // some taken (all dropped), says nothing of the run's length.
  bool NoneForLength =
      Total == 0 && (M.SelectedFrom || P.Range || M.Dropped.value_or(0) > 0);
  if (M.SampleCount && M.RequestedHz && Total < FewSamples && !NoneForLength)
    Line("Note:", fewSamplesNote(Total, *M.RequestedHz));
}

/// "1.234 s wall, 1.200 s CPU", either part missing when unknown.
std::string durationText(const std::optional<uint64_t> &Wall,
                         const std::optional<uint64_t> &Cpu) {
  std::string Text;
  if (Wall)
    Text = seconds(*Wall) + " wall";
  if (Cpu)
    Text += (Text.empty() ? "" : ", ") + seconds(*Cpu) + " CPU";
  return Text;
}

/// What ran: the command, start and duration; several runs (merge) each
/// on its own line, numbered as threads are.
template <typename LineFn>
void renderRunsHeader(const Profile &P, LineFn &Line, std::string &Out) {
  const ProfileMetadata &M = P.Metadata;
  if (P.Runs.empty()) {
    if (!M.Command.empty())
      Line("Command:", shellJoin(M.Command));
    if (M.StartTime || M.Pid)
      Line("Started:", M.StartTime.value_or("?") +
                           (M.Pid ? fmt::format(" (pid {})", *M.Pid) : std::string()));
    if (M.DurationNs || M.CpuTimeNs)
      Line("Duration:", durationText(M.DurationNs, M.CpuTimeNs));
    return;
  }
  Line("Runs:", fmt::format("{}", P.Runs.size()));
  for (size_t I = 0; I < P.Runs.size(); ++I) {
    const ProfileRun &R = P.Runs[I];
    std::string Text = R.Command.empty() ? "?" : shellJoin(R.Command);
    if (R.Pid)
      Text += fmt::format(" (pid {})", *R.Pid);
    if (R.StartTime)
      Text += ", started " + *R.StartTime;
    if (std::string D = durationText(R.DurationNs, R.CpuTimeNs); !D.empty())
      Text += ", " + D;
    Out += fmt::format("{:<10}{}: {}\n", "", I + 1, displayName(Text, 0));
  }
  if (M.CpuTimeNs)
    Line("Duration:", seconds(*M.CpuTimeNs) + " CPU in all");
}

/// The threads: how many, named when few, their shares when several.
template <typename LineFn>
void renderThreadsHeader(const Profile &P, LineFn &Line, std::string &Out) {
  if (P.Threads.empty())
    return;
  std::string Threads = fmt::format("{}", P.Threads.size());
  if (P.Threads.size() <= 4) {
    std::string List;
    for (const ThreadInfo &T : P.Threads)
      List += fmt::format("{}{}{}", List.empty() ? "" : ", ", threadLabel(P, T.Run, T.Tid),
                          T.Name.empty() ? "" : " " + T.Name);
    Threads += " (" + List + ")";
  }
  Line("Threads:", Threads);
  if (P.Threads.size() > 1)
    renderThreadShares(P, Out);
}

void renderHeader(const Profile &P, std::string &Out) {
  auto Line = [&Out](const char *Label, const std::string &Value) {
    Out += fmt::format("{:<10}{}\n", Label, displayName(Value, 0));
  };
  Line("Profile:", P.SelfDescribing ? P.SourcePath
                                    : P.SourcePath + " (folded stacks, no metadata)");
  renderRunsHeader(P, Line, Out);
  if (P.Range) // --time: what follows counts that stretch only.
    Line("Time:", describeTimeRange(*P.Range) +
                      (P.Runs.empty() ? " of the run (--time)" : " of each run (--time)"));
  if (P.Kind == ProfileKind::Alloc) {
    renderAllocHeader(P, Line);
  } else {
    renderSampleHeader(P, Line);
  }
  renderThreadsHeader(P, Line, Out);
}

std::string location(const Frame &F) {
  if (F.File.empty())
    return F.Line ? fmt::format("?:{}", F.Line) : std::string();
  return F.Line ? fmt::format("{}:{}", F.File, F.Line) : F.File;
}

} // namespace

std::string renderAllocTypes(const Profile &P) {
  struct TypeCost {
    uint64_t Bytes = 0;
    std::optional<uint64_t> Objects = 0;
  };
  std::map<std::string, TypeCost> Types;
  for (const Sample &S : P.Samples) {
    if (S.Stack.empty())
      continue;
    TypeCost &T = Types[P.Frames[S.Stack.back()].Name];
    T.Bytes += S.Count;
    if (T.Objects && S.Objects)
      *T.Objects += *S.Objects;
    else
      T.Objects.reset();
  }
  std::vector<std::pair<std::string, TypeCost>> Sorted(Types.begin(), Types.end());
  std::stable_sort(Sorted.begin(), Sorted.end(), [](const auto &A, const auto &B) {
    return A.second.Bytes > B.second.Bytes;
  });
  uint64_t Whole = P.totalCount();
  size_t BytesWidth = 5, ObjectsWidth = 7;
  for (const auto &[Name, T] : Sorted) {
    BytesWidth = std::max(BytesWidth, fmt::format("{}", T.Bytes).size());
    if (T.Objects)
      ObjectsWidth = std::max(ObjectsWidth, fmt::format("{}", *T.Objects).size());
  }
  std::string Out = "Allocated types:\n";
  Out += fmt::format("  {:>7}  {:>{}}  {:>{}}  type\n", "bytes%", "bytes", BytesWidth,
                     "objects", ObjectsWidth);
  for (const auto &[Name, T] : Sorted)
    Out += fmt::format("  {:>7}  {:>{}}  {:>{}}  {}\n", percent(T.Bytes, Whole), T.Bytes,
                       BytesWidth, T.Objects ? fmt::format("{}", *T.Objects) : "?",
                       ObjectsWidth, displayName(Name, 0));
  return Out;
}

/// When some Ruby frames (user or block) are located in a .rb file: how
/// many others are not (a symbol map had no entry for them), or "".
static std::string rbLocationNote(const Profile &P) {
  size_t InRb = 0, Elsewhere = 0;
  for (const Frame &F : P.Frames) {
    if (F.Kind != FrameKind::User && F.Kind != FrameKind::Block)
      continue;
    bool Rb = F.File.size() > 3 && F.File.compare(F.File.size() - 3, 3, ".rb") == 0;
    ++(Rb ? InRb : Elsewhere);
  }
  if (InRb == 0 || Elsewhere == 0)
    return {};
  return fmt::format("({} of {} Ruby frames have no .rb location and keep the C file's)\n",
                     Elsewhere, InRb + Elsewhere);
}

namespace {

/// Sorts \p Costs by self or total, then the other, then name (then
/// frame index: two static functions may share a name).
void sortFrameCosts(const Profile &P, std::vector<FrameCost> &Costs, bool BySelf) {
  auto NameOf = [&P](const FrameCost &C) -> const std::string & {
    return P.Frames[C.FrameIndex].Name;
  };
  std::sort(Costs.begin(), Costs.end(), [&](const FrameCost &A, const FrameCost &B) {
    uint64_t A1 = BySelf ? A.Self : A.Total, B1 = BySelf ? B.Self : B.Total;
    uint64_t A2 = BySelf ? A.Total : A.Self, B2 = BySelf ? B.Total : B.Self;
    if (A1 != B1)
      return A1 > B1;
    if (A2 != B2)
      return A2 > B2;
    if (NameOf(A) != NameOf(B))
      return NameOf(A) < NameOf(B);
    return A.FrameIndex < B.FrameIndex;
  });
}

/// One line of the top table, its cells as printed.
struct ReportRow {
  std::string Rank, SelfPct, Self, TotalPct, Total, Kind, Name, Location;
};

/// The table, its header first: columns only as wide as their widest
/// cell; kind left out unless \p AnyKind, location unless a row has one
/// (a plain folded file knows neither).
std::string renderTable(const std::vector<ReportRow> &Rows, bool AnyKind) {
  bool AnyLocation = false;
  for (size_t I = 1; I < Rows.size(); ++I)
    AnyLocation |= !Rows[I].Location.empty();
  size_t W[8] = {};
  for (const ReportRow &R : Rows) {
    const std::string *Cells[8] = {&R.Rank, &R.SelfPct, &R.Self, &R.TotalPct,
                                   &R.Total, &R.Kind, &R.Name, &R.Location};
    for (size_t K = 0; K < 8; ++K)
      W[K] = std::max(W[K], displayWidth(*Cells[K]));
  }
  std::string Out;
  for (const ReportRow &R : Rows) {
    std::string Line = padLeft(R.Rank, W[0]) + "  " + padLeft(R.SelfPct, W[1]) + "  " +
                       padLeft(R.Self, W[2]) + "  " + padLeft(R.TotalPct, W[3]) + "  " +
                       padLeft(R.Total, W[4]);
    if (AnyKind)
      Line += "  " + padRight(R.Kind, W[5]);
    Line += "  " + (AnyLocation ? padRight(R.Name, W[6]) + "  " + R.Location : R.Name);
    while (!Line.empty() && Line.back() == ' ')
      Line.pop_back();
    Out += Line + '\n';
  }
  return Out;
}

} // namespace

std::string renderReport(const Profile &P, const ReportOptions &Options) {
  std::string Out;
  renderHeader(P, Out);
  Out += '\n';
  if (!Options.Preamble.empty())
    Out += Options.Preamble + '\n';

  std::vector<FrameCost> Costs = computeFrameCosts(P);
  if (Costs.empty()) {
    // A run too short for one sample still gets a readable answer.
    Out += "(no samples)\n";
    return Out;
  }
  sortFrameCosts(P, Costs, Options.Order == ReportOrder::BySelf);
  size_t Shown = Options.Top == 0 ? Costs.size() : std::min(Options.Top, Costs.size());
  uint64_t Whole = P.totalCount();
  std::vector<ReportRow> Rows;
  Rows.push_back({"rank", "self%", "self", "total%", "total", "kind", "name", "location"});
  bool AnyKind = false;
  for (size_t I = 0; I < Shown; ++I) {
    const FrameCost &C = Costs[I];
    const Frame &F = P.Frames[C.FrameIndex];
    Rows.push_back({fmt::format("{}", I + 1), percent(C.Self, Whole), fmt::format("{}", C.Self),
                    percent(C.Total, Whole), fmt::format("{}", C.Total),
                    std::string(frameKindName(F.Kind)), displayName(F.Name, Options.MaxNameWidth),
                    displayName(location(F), 0)});
    AnyKind |= F.Kind != FrameKind::Unknown;
  }
  Out += renderTable(Rows, AnyKind);
  if (Shown < Costs.size())
    Out += fmt::format("\n({} of {} frames shown; --top 0 shows all)\n", Shown, Costs.size());
  return Out + rbLocationNote(P);
}

} // namespace spinelprof
