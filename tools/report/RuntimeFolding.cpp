//===- RuntimeFolding.cpp - A Ruby programmer's view of a profile ---------===//
#include "RuntimeFolding.h"
#include "TimelineTransforms.h"

#include "KindSplit.h"

#include <map>
#include <tuple>
#include <utility>

namespace spinelprof {

namespace {

/// Interns frames of the folded profile by all their fields.
class FrameTable {
public:
  explicit FrameTable(std::vector<Frame> &Frames) : Frames(Frames) {}

  uint32_t intern(const Frame &F) {
    auto Key = std::make_tuple(F.Name, F.CName, int(F.Kind), F.File, F.Line);
    auto [It, Inserted] = Index.try_emplace(Key, uint32_t(Frames.size()));
    if (Inserted)
      Frames.push_back(F);
    return It->second;
  }

private:
  std::vector<Frame> &Frames;
  std::map<std::tuple<std::string, std::string, int, std::string, uint32_t>, uint32_t> Index;
};

} // namespace

Profile foldRuntimeFrames(const Profile &P) {
  Profile Out = headerOf(P);
  FrameTable Frames(Out.Frames);
  Frame GCFrame;
  GCFrame.Name = "[GC]";
  GCFrame.Kind = FrameKind::GC;

  std::map<std::tuple<uint32_t, int64_t, std::vector<uint32_t>>, size_t> SampleIndex;
  std::vector<int64_t> NewIndex; // For the timelines' events.
  NewIndex.reserve(P.Samples.size());
  for (const Sample &S : P.Samples) {
    std::vector<uint32_t> Stack;
    for (uint32_t Index : S.Stack) {
      const Frame &F = P.Frames[Index];
      FrameKind Kind = effectiveKind(F);
      if (Kind == FrameKind::GC) {
        Stack.push_back(Frames.intern(GCFrame));
        break;
      }
      // Runtime helpers and native leaves ("[native] strtol") alike: their
      // time goes to the Ruby frame that called them.
      if (Kind == FrameKind::Runtime)
        continue;
      Stack.push_back(Frames.intern(F));
    }
    // Only runtime frames (a thread that never entered Ruby code): keep the
    // leaf rather than lose the samples.
    if (Stack.empty() && !S.Stack.empty())
      Stack.push_back(Frames.intern(P.Frames[S.Stack.back()]));
    auto [It, Inserted] = SampleIndex.try_emplace({S.Run, S.Thread, Stack}, Out.Samples.size());
    NewIndex.push_back(static_cast<int64_t>(It->second));
    if (Inserted) {
      Sample Folded = S;
      Folded.Stack = std::move(Stack);
      Out.Samples.push_back(std::move(Folded));
      continue;
    }
    Sample &Into = Out.Samples[It->second];
    Into.Count += S.Count;
    if (Into.WeightNs && S.WeightNs)
      *Into.WeightNs += *S.WeightNs;
    else
      Into.WeightNs.reset();
    if (Into.Objects && S.Objects)
      *Into.Objects += *S.Objects;
    else
      Into.Objects.reset();
  }
  remapTimelines(P.Timelines, NewIndex, Out);
  return Out;
}

} // namespace spinelprof
