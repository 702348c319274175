//===- TimelineTransformsTest.cpp - Transforms keep timelines true --------===//
//
// Every transform that renumbers, drops or sums Profile::Samples leaves
// each timeline event pointing at the sample with its stack and thread
// (remapTimelines), and --time's selectTimeRange rebuilds the samples from
// the events in [FROM, TO). GoogleTest.
//
//===----------------------------------------------------------------------===//
#include "ProfileTransforms.h"
#include "RuntimeFolding.h"
#include "TimelineTransforms.h"
#include "ToolError.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace spinelprof;

namespace {

Frame frame(const char *Name, FrameKind Kind) {
  Frame F;
  F.Name = Name;
  F.Kind = Kind;
  return F;
}

Sample sample(int64_t Thread, std::vector<uint32_t> Stack, uint64_t Count) {
  Sample S;
  S.Thread = Thread;
  S.Stack = std::move(Stack);
  S.Count = Count;
  S.WeightNs = Count * 100;
  return S;
}

TimelineEvent event(uint64_t TimeNs, uint32_t Sample) {
  TimelineEvent E;
  E.TimeNs = TimeNs;
  E.Sample = Sample;
  E.Count = 1;
  E.WeightNs = 100;
  return E;
}

// Thread 1: main;fib;fib (2 events), main;fib (1), main;fib;helper
// (runtime, 1); thread 2: main;work (2).
Profile makeProfile() {
  Profile P;
  P.SourcePath = "t.sprof";
  P.SelfDescribing = true;
  P.Metadata.Command = {"./t"};
  P.Frames = {frame("main", FrameKind::User), frame("fib", FrameKind::User),
              frame("helper", FrameKind::Runtime), frame("work", FrameKind::User)};
  P.Threads = {{0, 1, "main"}, {0, 2, "worker"}};
  P.Samples = {sample(1, {0, 1, 1}, 2), sample(1, {0, 1}, 1), sample(1, {0, 1, 2}, 1),
               sample(2, {0, 3}, 2)};
  ThreadTimeline T1;
  T1.Tid = 1;
  T1.Events = {event(10, 0), event(20, 1), event(30, 2), event(40, 0)};
  ThreadTimeline T2;
  T2.Tid = 2;
  T2.Events = {event(15, 3), event(35, 3)};
  P.Timelines = {T1, T2};
  return P;
}

// Every event's sample is on the event's thread and has the stack named
// by Names at that event's position, as frame names joined with ';'.
std::vector<std::string> eventStacks(const Profile &P) {
  std::vector<std::string> Out;
  for (const ThreadTimeline &T : P.Timelines)
    for (const TimelineEvent &E : T.Events) {
      EXPECT_LT(E.Sample, P.Samples.size());
      const Sample &S = P.Samples[E.Sample];
      EXPECT_EQ(S.Thread, T.Tid);
      EXPECT_EQ(S.Run, T.Run);
      std::string Stack = std::to_string(T.Tid) + ":";
      for (uint32_t F : S.Stack)
        Stack += P.Frames[F].Name + ";";
      Out.push_back(Stack);
    }
  return Out;
}

const std::vector<std::string> Original = {"1:main;fib;fib;", "1:main;fib;", "1:main;fib;helper;",
                                           "1:main;fib;fib;", "2:main;work;", "2:main;work;"};

TEST(TimelineTransforms, CollapseRecursionSumsAndRemaps) {
  Profile P = collapseRecursion(makeProfile());
  EXPECT_EQ(P.Samples.size(), 3u); // main;fib;fib became main;fib.
  EXPECT_EQ(eventStacks(P),
            (std::vector<std::string>{"1:main;fib;", "1:main;fib;", "1:main;fib;helper;",
                                      "1:main;fib;", "2:main;work;", "2:main;work;"}));
}

TEST(TimelineTransforms, SelectThreadKeepsItsTimeline) {
  Profile P = selectThread(makeProfile(), "worker");
  ASSERT_EQ(P.Timelines.size(), 1u);
  EXPECT_EQ(P.Timelines[0].Tid, 2);
  EXPECT_EQ(eventStacks(P), (std::vector<std::string>{"2:main;work;", "2:main;work;"}));
}

TEST(TimelineTransforms, FocusDropsOtherEvents) {
  Profile P = focusOn(makeProfile(), "helper|work", "report");
  EXPECT_EQ(eventStacks(P), (std::vector<std::string>{"1:main;fib;helper;", "2:main;work;",
                                                      "2:main;work;"}));
}

TEST(TimelineTransforms, FoldRuntimeRemaps) {
  Profile P = foldRuntimeFrames(makeProfile());
  EXPECT_EQ(eventStacks(P), (std::vector<std::string>{"1:main;fib;fib;", "1:main;fib;",
                                                      "1:main;fib;", "1:main;fib;fib;",
                                                      "2:main;work;", "2:main;work;"}));
}

TEST(TimelineTransforms, NormalizeKeepsStacks) {
  EXPECT_EQ(eventStacks(normalizeProfile(makeProfile())), Original);
}

TEST(TimelineTransforms, MergeKeepsEachRunsTimelines) {
  Profile A = makeProfile(), B = makeProfile();
  B.Metadata.Command = {"./other"};
  Profile M = mergeProfiles({A, B});
  ASSERT_EQ(M.Runs.size(), 2u);
  ASSERT_EQ(M.Timelines.size(), 4u);
  EXPECT_EQ(M.Timelines[2].Run, 1u);
  std::vector<std::string> Twice = Original;
  Twice.insert(Twice.end(), Original.begin(), Original.end());
  EXPECT_EQ(eventStacks(M), Twice);
}

TEST(TimelineTransforms, MergeOfRunsNothingTellsApartDropsTimelines) {
  Profile A = makeProfile();
  A.Metadata.Command.clear();
  Profile M = mergeProfiles({A, A});
  EXPECT_TRUE(M.Timelines.empty());
}

TEST(TimelineTransforms, TimeRangeRebuildsSamples) {
  TimeRange R;
  R.FromNs = 20;
  R.ToNs = 40; // Events at 20, 30 (thread 1) and 35 (thread 2).
  Profile P = selectTimeRange(makeProfile(), R);
  ASSERT_EQ(P.Samples.size(), 3u);
  EXPECT_EQ(P.totalCount(), 3u);
  EXPECT_EQ(*P.Samples[0].WeightNs, 100u);
  EXPECT_EQ(eventStacks(P), (std::vector<std::string>{"1:main;fib;", "1:main;fib;helper;",
                                                      "2:main;work;"}));
  EXPECT_EQ(*P.Metadata.SampleCount, 3u);
  ASSERT_TRUE(P.Range);
}

TEST(TimelineTransforms, TimeRangeNeedsATimeline) {
  Profile P = makeProfile();
  P.Timelines.clear();
  try {
    selectTimeRange(P, TimeRange{});
    FAIL() << "no error";
  } catch (const InputError &E) {
    EXPECT_NE(std::string(E.what()).find("t.sprof: --time: the profile has no timeline"),
              std::string::npos);
  }
}

TEST(TimelineTransforms, ParsesTimeRanges) {
  TimeRange R = parseTimeRange("report", "--time", "1.5:2");
  EXPECT_EQ(*R.FromNs, 1500000000u);
  EXPECT_EQ(*R.ToNs, 2000000000u);
  R = parseTimeRange("report", "--time", ":.25");
  EXPECT_FALSE(R.FromNs);
  EXPECT_EQ(*R.ToNs, 250000000u);
  R = parseTimeRange("report", "--time", "2:");
  EXPECT_FALSE(R.ToNs);
  for (const char *Bad : {"", "1", "2:1", "a:b", "1:2:3", ".:1", "-1:2", "1e3:"})
    EXPECT_THROW(parseTimeRange("report", "--time", Bad), UsageError) << Bad;
  EXPECT_EQ(describeTimeRange(parseTimeRange("report", "--time", ":1.5")), "start to 1.5 s");
}

} // namespace
