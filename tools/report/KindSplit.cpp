//===- KindSplit.cpp - Where the samples went: GC, runtime or Ruby --------===//
#include "KindSplit.h"

#include "NativeNames.h"
#include "Report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>

namespace spinelprof {

FrameKind effectiveKind(const Frame &F) {
  if (F.Kind != FrameKind::Unknown)
    return F.Kind;
  if (F.Name.rfind(NativePrefix, 0) == 0 || F.Name == "[native]")
    return FrameKind::Runtime;
  if (F.Name == "[GC]")
    return FrameKind::GC;
  if (F.Name == "[truncated]" || F.Name == "[unknown]")
    return FrameKind::Synthetic;
  return FrameKind::User;
}

bool isAllocatorFrame(const Frame &F) {
  if (effectiveKind(F) != FrameKind::Runtime)
    return false;
  std::string_view Name = F.CName.empty() ? F.Name : F.CName;
  if (Name == "sp_str_alloc" || Name == "sp_str_alloc_raw" || Name == "sp_lam_alloc")
    return true;
  // sp_<Elem>Array_new, sp_<Key><Value>Hash_new, sp_String_new.
  if (Name.rfind("sp_", 0) != 0 || Name.size() < 8 ||
      Name.compare(Name.size() - 4, 4, "_new") != 0)
    return false;
  std::string_view Type = Name.substr(3, Name.size() - 7);
  auto EndsWith = [Type](std::string_view Suffix) {
    return Type.size() >= Suffix.size() &&
           Type.compare(Type.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
  };
  return Type == "String" || EndsWith("Array") || EndsWith("Hash");
}

/// A frame that makes its sample GC: the collector's, or an allocator's.
static bool isGCOrAllocatorFrame(const Frame &F) {
  return effectiveKind(F) == FrameKind::GC || isAllocatorFrame(F);
}

SampleClass classifySample(const Profile &P, const Sample &S) {
  for (uint32_t F : S.Stack)
    if (isGCOrAllocatorFrame(P.Frames[F]))
      return SampleClass::GC;
  if (S.Stack.empty())
    return SampleClass::Synthetic;
  switch (effectiveKind(P.Frames[S.Stack.back()])) {
  case FrameKind::Runtime:
    return SampleClass::Runtime;
  case FrameKind::Synthetic:
    return SampleClass::Synthetic;
  default:
    return SampleClass::Ruby;
  }
}

namespace {

bool isRubyFrame(const Frame &F) {
  FrameKind K = effectiveKind(F);
  return K == FrameKind::User || K == FrameKind::Block;
}

/// The Ruby frames below the first GC frame, root first: the last one is
/// the nearest Ruby frame to the GC (the entry), the rest its call path.
std::vector<uint32_t> rubyPathIntoGC(const Profile &P, const Sample &S) {
  std::vector<uint32_t> Path;
  for (uint32_t F : S.Stack) {
    if (isGCOrAllocatorFrame(P.Frames[F]))
      break;
    if (isRubyFrame(P.Frames[F]))
      Path.push_back(F);
  }
  return Path;
}

/// True when every GC frame of the stack is an allocation function (an
/// allocator helper of the runtime is one).
bool isAllocationOnly(const Profile &P, const Sample &S) {
  for (uint32_t F : S.Stack) {
    const Frame &Fr = P.Frames[F];
    if (effectiveKind(Fr) != FrameKind::GC)
      continue;
    const std::string &Name = Fr.CName.empty() ? Fr.Name : Fr.CName;
    if (Name.find("alloc") == std::string::npos)
      return false;
  }
  return true;
}

std::string percent(uint64_t Part, uint64_t Whole) {
  return fmt::format("{:.2f}%", Whole ? 100.0 * double(Part) / double(Whole) : 0.0);
}

/// GC samples by their entry (the nearest Ruby frame below the GC; -1:
/// none), each entry's count and its paths above that frame.
using GCEntryPaths =
    std::map<int64_t, std::pair<uint64_t, std::map<std::vector<uint32_t>, uint64_t>>>;

void addGCSample(const Profile &P, const Sample &S, GCEntryPaths &Entries) {
  std::vector<uint32_t> Path = rubyPathIntoGC(P, S);
  int64_t Entry = Path.empty() ? -1 : int64_t(Path.back());
  if (!Path.empty())
    Path.pop_back();
  auto &[Count, Paths] = Entries[Entry];
  Count += S.Count;
  Paths[Path] += S.Count;
}

/// One GCEntry per entry, with its most common path (ties: the first by
/// name), the largest first (ties: by name, then frame).
std::vector<GCEntry> rankGCEntries(const Profile &P, const GCEntryPaths &Entries) {
  auto PathText = [&P](const std::vector<uint32_t> &Path) {
    std::string Text;
    for (uint32_t F : Path)
      Text += P.Frames[F].Name + ";";
    return Text;
  };
  std::vector<GCEntry> Ranked;
  for (const auto &[Frame, Entry] : Entries) {
    const auto &[Count, Paths] = Entry;
    GCEntry E{Frame, Count, {}, Paths.size()};
    uint64_t Best = 0;
    for (const auto &[Path, PathCount] : Paths)
      if (PathCount > Best ||
          (PathCount == Best && PathText(Path) < PathText(E.CommonPath))) {
        Best = PathCount;
        E.CommonPath = Path;
      }
    Ranked.push_back(std::move(E));
  }
  auto NameOf = [&P](const GCEntry &E) {
    return E.Frame < 0 ? std::string() : P.Frames[size_t(E.Frame)].Name;
  };
  std::sort(Ranked.begin(), Ranked.end(), [&](const GCEntry &A, const GCEntry &B) {
    if (A.Count != B.Count)
      return A.Count > B.Count;
    if (NameOf(A) != NameOf(B))
      return NameOf(A) < NameOf(B);
    return A.Frame < B.Frame;
  });
  return Ranked;
}

} // namespace

KindSplitCounts computeKindSplit(const Profile &P) {
  KindSplitCounts C;
  GCEntryPaths Entries;
  for (const Sample &S : P.Samples) {
    C.Total += S.Count;
    switch (classifySample(P, S)) {
    case SampleClass::GC:
      C.GC += S.Count;
      if (isAllocationOnly(P, S))
        C.GCAllocationOnly += S.Count;
      addGCSample(P, S, Entries);
      break;
    case SampleClass::Runtime:
      C.Runtime += S.Count;
      break;
    case SampleClass::Ruby:
      C.Ruby += S.Count;
      break;
    case SampleClass::Synthetic:
      C.Synthetic += S.Count;
      break;
    }
  }
  C.GCEntries = rankGCEntries(P, Entries);
  return C;
}

namespace {

/// The path every sample of \p E shares above its Ruby frame, direct
/// recursion as one frame with a count ("Object#fib (x3)"), and how many
/// other paths there are.
std::string viaPath(const Profile &P, const GCEntry &E) {
  std::string Via;
  for (size_t I = 0; I < E.CommonPath.size();) {
    size_t Run = 1;
    while (I + Run < E.CommonPath.size() && E.CommonPath[I + Run] == E.CommonPath[I])
      ++Run;
    Via += (Via.empty() ? "" : " > ") + P.Frames[E.CommonPath[I]].Name +
           (Run > 1 ? fmt::format(" (x{})", Run) : "");
    I += Run;
  }
  if (E.PathCount > 1)
    Via += fmt::format(" (and {} other path{})", E.PathCount - 1, E.PathCount > 2 ? "s" : "");
  return Via;
}

/// The GC's share and where it is reached from, at most \p MaxEntries
/// entries (0: all), counts right-aligned to \p CountWidth.
std::string renderGCEntries(const Profile &P, const KindSplitCounts &C, size_t MaxEntries,
                            size_t CountWidth) {
  std::string Out = fmt::format("\n{} of samples in GC; reached from (nearest Ruby frame below "
                                "the first GC frame):\n",
                                percent(C.GC, C.Total));
  size_t Shown = 0;
  for (const GCEntry &E : C.GCEntries) {
    if (MaxEntries && Shown == MaxEntries)
      break;
    ++Shown;
    std::string Name = "(no Ruby frame)";
    std::string Where;
    if (E.Frame >= 0) {
      const Frame &F = P.Frames[size_t(E.Frame)];
      Name = displayName(F.Name, 60);
      if (!F.File.empty())
        Where = F.Line ? fmt::format("  {}:{}", F.File, F.Line) : "  " + F.File;
    }
    Out += fmt::format("  {:>7}  {:>{}}  {}{}\n", percent(E.Count, C.Total), E.Count,
                       CountWidth, Name, displayName(Where, 0));
    if (!E.CommonPath.empty())
      Out += fmt::format("  {:>7}  {:>{}}  via {}\n", "", "", CountWidth,
                         displayName(viaPath(P, E), 0));
  }
  if (Shown < C.GCEntries.size())
    Out += fmt::format("  ({} more)\n", C.GCEntries.size() - Shown);
  return Out;
}

} // namespace

std::string renderKindSplit(const Profile &P, size_t MaxEntries) {
  bool AnyKind = false;
  for (const Frame &F : P.Frames)
    AnyKind |= F.Kind != FrameKind::Unknown;
  KindSplitCounts C = computeKindSplit(P);
  if (!AnyKind || C.Total == 0)
    return {};

  struct Line {
    const char *Label;
    uint64_t Count;
    const char *Meaning;
  };
  const Line Lines[] = {
      {"GC", C.GC, "a GC or allocator frame on the stack (collection, sweeping, allocation)"},
      {"  collect", C.GC - C.GCAllocationOnly, "marking, sweeping, scanning (under sp_gc_collect)"},
      {"  alloc", C.GCAllocationOnly,
       "allocating without collecting (sp_gc_alloc, sp_str_alloc, Array/Hash/String.new)"},
      {"runtime", C.Runtime, "leaf in the runtime or native code, no GC or allocator frame"},
      {"Ruby", C.Ruby, "leaf in a Ruby method or block, no GC or allocator frame"},
      {"other", C.Synthetic, "leaf [truncated] or [unknown]"},
  };
  size_t CountWidth = fmt::format("{}", C.Total).size();
  std::string Out = "Split:\n";
  for (const Line &L : Lines) {
    // The GC's two parts only when there is GC; "other" only when nonzero.
    if ((L.Label[0] == ' ' && C.GC == 0) || (L.Count == 0 && L.Label == std::string("other")))
      continue;
    Out += fmt::format("  {:<10} {:>7}  {:>{}}  {}\n", L.Label, percent(L.Count, C.Total),
                       L.Count, CountWidth, L.Meaning);
  }
  if (C.GC)
    Out += renderGCEntries(P, C, MaxEntries, CountWidth);
  return Out;
}

} // namespace spinelprof
