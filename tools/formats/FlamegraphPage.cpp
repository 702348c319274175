//===- FlamegraphPage.cpp - The self-contained interactive page -----------===//
#include "FlamegraphPage.h"
#include "ProfileTransforms.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <map>
#include <unordered_map>

namespace spinelprof {

namespace {

// Generated from tools/formats/flamegraph/page.html by tools/CMakeLists.txt.
const char PageTemplate[] =
#include "FlamegraphTemplate.inc"
    ;

using Json = nlohmann::json;

// The call tree in preorder. Node 0 is the root (all samples, depth 0).
struct CallTree {
  std::vector<uint32_t> Depth;
  std::vector<int64_t> FrameOf;     ///< -1 for the root.
  std::vector<uint32_t> SampleNode; ///< Per Profile::Samples entry.
};

// Rank of each frame in name order (ties by index): sorting stacks by rank
// sequence puts siblings in name order and makes shared prefixes adjacent.
std::vector<uint32_t> nameRanks(const Profile &P) {
  std::vector<uint32_t> Order(P.Frames.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    if (P.Frames[A].Name != P.Frames[B].Name)
      return P.Frames[A].Name < P.Frames[B].Name;
    return A < B;
  });
  std::vector<uint32_t> Rank(P.Frames.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Rank[Order[I]] = I;
  return Rank;
}

CallTree buildCallTree(const Profile &P) {
  std::vector<uint32_t> Rank = nameRanks(P);
  std::vector<uint32_t> Order(P.Samples.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    const std::vector<uint32_t> &SA = P.Samples[A].Stack, &SB = P.Samples[B].Stack;
    return std::lexicographical_compare(
        SA.begin(), SA.end(), SB.begin(), SB.end(),
        [&](uint32_t X, uint32_t Y) { return Rank[X] < Rank[Y]; });
  });
  CallTree T;
  T.Depth.push_back(0);
  T.FrameOf.push_back(-1);
  T.SampleNode.assign(P.Samples.size(), 0);
  std::vector<uint32_t> PathNodes{0}; // node at each depth of the previous stack
  const std::vector<uint32_t> *Previous = nullptr;
  for (uint32_t I : Order) {
    const std::vector<uint32_t> &Stack = P.Samples[I].Stack;
    size_t Common = 0;
    if (Previous)
      while (Common < Stack.size() && Common < Previous->size() &&
             Stack[Common] == (*Previous)[Common])
        ++Common;
    PathNodes.resize(Common + 1);
    for (size_t D = Common; D < Stack.size(); ++D) {
      PathNodes.push_back(static_cast<uint32_t>(T.Depth.size()));
      T.Depth.push_back(static_cast<uint32_t>(D + 1));
      T.FrameOf.push_back(Stack[D]);
    }
    T.SampleNode[I] = PathNodes[Stack.size()];
    Previous = &Stack;
  }
  return T;
}

// The tree as text, about 3 bytes a node instead of JSON's 9, because at
// 100 000 stacks the page's size is most of its time to first paint. Per
// node after the root: how many levels it climbs from the previous node
// (depth = previous depth + 1 - climb) and its frame index, as one number
// frame * 4 + min(climb, 3), followed by climb - 3 when climb >= 3. Each
// number is a little-endian base-32 varint: a character carries 5 bits plus
// a "more follows" bit (32), in the URL-safe base64 alphabet (never '<').
void putVarint(std::string &Out, uint64_t V) {
  static const char Alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  while (V >= 32) {
    Out += Alphabet[32 | (V & 31)];
    V >>= 5;
  }
  Out += Alphabet[V];
}

std::string encodeTree(const std::vector<uint32_t> &Depth, const std::vector<int64_t> &FrameOf) {
  std::string Out;
  Out.reserve(Depth.size() * 3);
  auto Put = [&Out](uint64_t V) { putVarint(Out, V); };
  for (size_t N = 1; N < Depth.size(); ++N) {
    uint64_t Climb = Depth[N - 1] + 1 - Depth[N];
    uint64_t Frame = static_cast<uint64_t>(FrameOf[N]);
    // Climbs are mostly 0 (a child) or small: they share the frame's number.
    Put(Frame * 4 + std::min<uint64_t>(Climb, 3));
    if (Climb >= 3)
      Put(Climb - 3);
  }
  return Out;
}

// Above this many nodes the page first draws a summary: the nodes at least
// 1/4000 of all samples wide (everything the first, unzoomed view draws: a
// pixel or wider on a canvas up to 4000 CSS pixels wide), with their totals,
// and decodes the whole tree (the last script element, after the page's
// code) once the graph is on screen. At 100 000 deep stacks the whole tree
// is millions of nodes; the summary is tens of thousands.
constexpr size_t SummaryAbove = 200000;
constexpr uint64_t SummaryFraction = 4000;

Json summaryJson(const Profile &P, const CallTree &T) {
  size_t N = T.Depth.size();
  std::vector<uint64_t> Total(N, 0);
  for (size_t I = 0; I < P.Samples.size(); ++I)
    Total[T.SampleNode[I]] += P.Samples[I].Count;
  std::vector<uint32_t> Parent(N, 0), Path{0};
  for (size_t I = 1; I < N; ++I) {
    Path.resize(T.Depth[I]);
    Parent[I] = Path.back();
    Path.push_back(static_cast<uint32_t>(I));
  }
  for (size_t I = N - 1; I > 0; --I)
    Total[Parent[I]] += Total[I];
  std::vector<uint32_t> Depth;
  std::vector<int64_t> FrameOf;
  std::vector<uint64_t> Totals;
  for (size_t I = 0; I < N; ++I) {
    // Ancestors are at least as wide, so the kept nodes form a subtree and
    // stay in preorder.
    if (I != 0 && Total[I] * SummaryFraction < Total[0])
      continue;
    Depth.push_back(T.Depth[I]);
    FrameOf.push_back(T.FrameOf[I]);
    Totals.push_back(Total[I]);
  }
  Json Summary;
  Summary["nodes"] = Depth.size();
  Summary["tree"] = encodeTree(Depth, FrameOf);
  Summary["total"] = std::move(Totals);
  return Summary;
}

// The timeline's time unit in the page: a microsecond is far finer than a
// pixel of the strip or a sampling interval, and keeps a 1 kHz thread's
// time steps to two characters.
constexpr uint64_t TimelineUnitNs = 1000;

// What the strip colours a sample by: the kind of its leaf frame.
char sampleKindClass(const Profile &P, const Sample &S) {
  if (S.Stack.empty())
    return '3';
  switch (P.Frames[S.Stack.back()].Kind) {
  case FrameKind::User:
  case FrameKind::Block:
    return '0'; // Ruby
  case FrameKind::Runtime:
    return '1';
  case FrameKind::GC:
    return '2';
  default:
    return '3'; // other: unknown, synthetic
  }
}

// One thread's events as text, in the tree's varint alphabet: per event
// varint(time step in TimelineUnitNs) then varint(sample * 2 + (count != 1))
// then, when count != 1, varint(count). About 5 characters an event at
// 1 kHz, against 20 or more as JSON arrays: at a million events the page's
// size is its time to first paint. Events the timeline lists out of order
// are sorted (the format says they are in order; the page relies on it).
std::string encodeTimelineEvents(const Profile &P, const ThreadTimeline &TL,
                                 uint64_t &EndUnits, uint64_t &Events) {
  std::vector<const TimelineEvent *> Order;
  Order.reserve(TL.Events.size());
  for (const TimelineEvent &E : TL.Events)
    if (E.Sample < P.Samples.size()) // a transform that dropped samples
      Order.push_back(&E);
  std::stable_sort(Order.begin(), Order.end(), [](const TimelineEvent *A, const TimelineEvent *B) {
    return A->TimeNs < B->TimeNs;
  });
  std::string Out;
  Out.reserve(Order.size() * 5);
  uint64_t Previous = 0;
  for (const TimelineEvent *E : Order) {
    uint64_t Time = E->TimeNs / TimelineUnitNs;
    putVarint(Out, Time - Previous);
    putVarint(Out, uint64_t(E->Sample) * 2 + (E->Count != 1));
    if (E->Count != 1)
      putVarint(Out, E->Count);
    Previous = Time;
  }
  EndUnits = std::max(EndUnits, Previous);
  Events = Order.size();
  return Out;
}

// The profile's timeline for the strip (see "timeline" in page.html), or
// null when it has none; each thread's events go to Events, in the order of
// the JSON's rows (the page reads them from their own element after its
// code, as it does the tree, so they do not delay the first paint).
// ThreadOf names a (run, tid)'s index in "threads".
template <typename ThreadIndexFn>
Json timelineJson(const Profile &P, ThreadIndexFn ThreadOf, std::vector<std::string> &Events) {
  if (P.Timelines.empty())
    return nullptr;
  std::string Kinds;
  Kinds.reserve(P.Samples.size());
  for (const Sample &S : P.Samples)
    Kinds += sampleKindClass(P, S);
  Json Rows = Json::array();
  uint64_t EndUnits = 0;
  for (const ThreadTimeline &TL : P.Timelines) {
    uint64_t Count = 0;
    Events.push_back(encodeTimelineEvents(P, TL, EndUnits, Count));
    Rows.push_back({{"thread", ThreadOf(TL.Run, TL.Tid)},
                    {"bucket_ns", TL.BucketNs},
                    {"merged", TL.Merged},
                    {"missing", TL.Missing},
                    {"events", Count}});
  }
  if (P.Metadata.DurationNs && P.Runs.empty())
    EndUnits = std::max(EndUnits, *P.Metadata.DurationNs / TimelineUnitNs);
  return {{"unit_ns", TimelineUnitNs}, {"end", EndUnits}, {"kinds", std::move(Kinds)},
          {"threads", std::move(Rows)}};
}

// The frames' columns: name, C name, kind, file, line.
Json framesJson(const Profile &P) {
  Json Names = Json::array(), CNames = Json::array(), Kinds = Json::array(),
       Files = Json::array(), Lines = Json::array();
  for (const Frame &F : P.Frames) {
    Names.push_back(F.Name);
    CNames.push_back(F.CName);
    Kinds.push_back(static_cast<int>(F.Kind));
    Files.push_back(F.File);
    Lines.push_back(F.Line);
  }
  return {{"name", std::move(Names)}, {"cname", std::move(CNames)}, {"kind", std::move(Kinds)},
          {"file", std::move(Files)}, {"line", std::move(Lines)}};
}

// A thread's index in the page's list, by (run, tid).
using ThreadIndexMap = std::map<std::pair<uint32_t, int64_t>, size_t>;

// The page's threads: the profile's, then any tid only samples or a
// timeline name; with the run (from 1) when there are several. Fills
// Index.
Json threadsJson(const Profile &P, ThreadIndexMap &Index) {
  Json Threads = Json::array();
  ThreadListing Listing;
  Listing.UnknownSamples = false;
  Listing.Timelines = true;
  for (const ThreadInfo &T : listThreads(P, Listing)) {
    Index.emplace(std::make_pair(T.Run, T.Tid), Threads.size());
    Json J = {{"tid", T.Tid}, {"name", T.Name}};
    if (!P.Runs.empty())
      J["run"] = T.Run + 1;
    Threads.push_back(std::move(J));
  }
  return Threads;
}

// The profile as the page's JSON (see "data" in page.html); a timeline's
// events, per thread, go to TimelineEvents.
Json profileJson(const Profile &P, const CallTree &T, std::vector<std::string> &TimelineEvents) {
  ThreadIndexMap ThreadIndex;
  Json Threads = threadsJson(P, ThreadIndex);
  bool Weighted = hasWeights(P);
  std::vector<int64_t> Samples;
  std::vector<uint64_t> Weights;
  Samples.reserve(P.Samples.size() * 3);
  for (size_t I = 0; I < P.Samples.size(); ++I) {
    const Sample &S = P.Samples[I];
    Samples.push_back(T.SampleNode[I]);
    Samples.push_back(S.Thread == UnknownThread
                          ? -1
                          : int64_t(ThreadIndex[std::make_pair(S.Run, S.Thread)]));
    Samples.push_back(static_cast<int64_t>(S.Count));
    if (Weighted)
      Weights.push_back(*S.WeightNs);
  }
  Json Data;
  Data["source"] = P.SourcePath;
  Data["frames"] = framesJson(P);
  Data["kinds"] = {"unknown", "user", "block", "runtime", "gc", "synthetic"};
  Data["threads"] = std::move(Threads);
  Data["nodes"] = T.Depth.size(); // the tree itself goes in its own element
  Data["samples"] = std::move(Samples);
  if (Weighted)
    Data["weights"] = std::move(Weights);
  if (P.Kind == ProfileKind::Alloc)
    Data["unit"] = "bytes allocated";
  Json Timeline = timelineJson(
      P, [&](uint32_t Run, int64_t Tid) { return ThreadIndex[std::make_pair(Run, Tid)]; },
      TimelineEvents);
  if (!Timeline.is_null())
    Data["timeline"] = std::move(Timeline);
  return Data;
}

// JSON inside <script>: no "<" at all, so neither "</script" nor "<!--" can
// end or change the element (a '<' only occurs inside JSON strings).
std::string scriptSafeJson(const Json &J) {
  std::string Text = J.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    if (C == '<')
      Out += "\\u003c";
    else
      Out += C;
  }
  return Out;
}

// The timeline's element: each thread's events, '.' between threads (not
// in the varint alphabet); nothing at all for a profile without a timeline,
// whose page stays as it was.
std::string timelineElement(const std::vector<std::string> &Events) {
  if (Events.empty())
    return "";
  std::string Out = "<script id=\"profile-timeline\" type=\"text/plain\">";
  for (size_t I = 0; I < Events.size(); ++I)
    Out += (I ? "." : "") + Events[I];
  return Out + "</script>\n";
}

std::string fillTemplate(const std::string &Title, const Json &Data, const CallTree &T,
                         const std::vector<std::string> &TimelineEvents) {
  std::string Page = PageTemplate;
  // Keys in page order, each searched after the previous value, so the
  // profile's own text is never searched for a key.
  size_t At = 0;
  auto ReplaceNext = [&Page, &At](const std::string &Key, const std::string &Value) {
    At = Page.find(Key, At);
    Page.replace(At, Key.size(), Value);
    At += Value.size();
  };
  ReplaceNext("@@TITLE@@", escapeHtml(Title));
  ReplaceNext("@@DATA@@", scriptSafeJson(Data));
  ReplaceNext("@@TIMELINE@@", timelineElement(TimelineEvents));
  ReplaceNext("@@TREE@@", encodeTree(T.Depth, T.FrameOf));
  return Page;
}

} // namespace

std::string escapeHtml(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    case '\'': Out += "&#39;"; break;
    default: Out += C;
    }
  }
  return Out;
}

std::string renderFlamegraphPage(const Profile &P, const FlamegraphOptions &Options) {
  CallTree T = buildCallTree(P);
  std::vector<std::string> TimelineEvents;
  Json Data = profileJson(P, T, TimelineEvents);
  Data["mode"] = "flame";
  Data["icicle"] = Options.Icicle;
  std::string Title = Options.Title.empty() ? P.SourcePath : Options.Title;
  Data["title"] = Title;
  // The environment override exists for the tests, which check the
  // summary path on small profiles.
  size_t Above = SummaryAbove;
  if (const char *Env = std::getenv("SPINELPROF_PAGE_SUMMARY_ABOVE"))
    Above = std::strtoull(Env, nullptr, 10);
  if (T.Depth.size() > Above)
    Data["summary"] = summaryJson(P, T);
  return fillTemplate(Title, Data, T, TimelineEvents);
}

/// Before's total under each node of After's call tree T (0 where Before
/// has no such frame), the root's first: a frame is "the same" in both when
/// its whole path of names from the root is.
static std::vector<uint64_t> beforeTotalsAlong(const Profile &Before,
                                               const Profile &After,
                                               const CallTree &T) {
  // Before's tree by name path: (parent node, name id) -> node.
  std::unordered_map<std::string, uint32_t> NameId;
  auto IdOf = [&NameId](const std::string &Name) {
    return NameId.emplace(Name, static_cast<uint32_t>(NameId.size())).first->second;
  };
  struct KeyHash {
    size_t operator()(const std::pair<uint32_t, uint32_t> &K) const {
      return std::hash<uint64_t>()((uint64_t(K.first) << 32) | K.second);
    }
  };
  std::unordered_map<std::pair<uint32_t, uint32_t>, uint32_t, KeyHash> Child;
  std::vector<uint64_t> BeforeTotal{0};
  for (const Sample &S : Before.Samples) {
    uint32_t Node = 0;
    BeforeTotal[0] += S.Count;
    for (uint32_t F : S.Stack) {
      auto [It, Inserted] = Child.try_emplace({Node, IdOf(Before.Frames[F].Name)},
                                              static_cast<uint32_t>(BeforeTotal.size()));
      if (Inserted)
        BeforeTotal.push_back(0);
      Node = It->second;
      BeforeTotal[Node] += S.Count;
    }
  }
  // Looked up along After's tree, depth first: Path holds the Before node
  // of each ancestor (-1: none).
  std::vector<uint64_t> Totals(T.Depth.size(), 0);
  std::vector<int64_t> Path{0};
  Totals[0] = BeforeTotal[0];
  for (size_t N = 1; N < T.Depth.size(); ++N) {
    Path.resize(T.Depth[N]);
    int64_t Parent = Path.back();
    int64_t Mapped = -1;
    if (Parent >= 0) {
      auto It = Child.find({static_cast<uint32_t>(Parent),
                            IdOf(After.Frames[T.FrameOf[N]].Name)});
      if (It != Child.end())
        Mapped = It->second;
    }
    Path.push_back(Mapped);
    Totals[N] = Mapped < 0 ? 0 : BeforeTotal[Mapped];
  }
  return Totals;
}

std::string renderDiffPage(const Profile &Before, const Profile &After,
                           const FlamegraphOptions &Options) {
  CallTree T = buildCallTree(After);
  std::vector<std::string> TimelineEvents;
  Json Data = profileJson(After, T, TimelineEvents);
  // A comparison has no one time axis.
  Data.erase("timeline");
  TimelineEvents.clear();

  std::vector<uint64_t> Totals = beforeTotalsAlong(Before, After, T);
  Json Base = Json::array();
  for (uint64_t V : Totals)
    Base.push_back(V);
  Data["mode"] = "diff";
  Data["icicle"] = Options.Icicle;
  Data["before"] = {{"source", Before.SourcePath}, {"total", Totals[0]},
                    {"nodeTotal", std::move(Base)}};
  std::string Title = Options.Title.empty()
                          ? Before.SourcePath + " \u2192 " + After.SourcePath
                          : Options.Title;
  Data["title"] = Title;
  return fillTemplate(Title, Data, T, TimelineEvents);
}

} // namespace spinelprof
