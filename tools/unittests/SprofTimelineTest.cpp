//===- SprofTimelineTest.cpp - Unit tests of reading "timeline" ------------===//
//
// The reader turns version 4's delta-encoded columns into absolute events
// (allocation profiles: "bytes" is the event's Count, "count" its objects)
// and rejects columns of different lengths, sample indexes out of range
// and events of another thread's samples, naming file and key. GoogleTest.
//
//===----------------------------------------------------------------------===//
#include "SprofReader.h"
#include "ToolError.h"

#include <gtest/gtest.h>

#include <string>

using namespace spinelprof;

namespace {

// A version 4 CPU profile of thread 7 (samples 0 and 1) and thread 8
// (sample 2) whose "timeline" is Timeline.
std::string cpuProfile(const std::string &Timeline) {
  return R"({"format": "spinelprof", "version": 4,
  "frames": [{"name": "main"}, {"name": "write_log"}, {"name": "analyse"}],
  "samples": [{"thread": 7, "stack": [0, 1], "count": 2, "weight_ns": 2000},
              {"thread": 7, "stack": [0, 2], "count": 1, "weight_ns": 1000},
              {"thread": 8, "stack": [0], "count": 1, "weight_ns": 500}],
  "timeline": )" + Timeline + "}";
}

std::string errorOf(const std::string &Text) {
  try {
    parseSprofText(Text, "t.sprof");
  } catch (const InputError &E) {
    return E.what();
  }
  return "";
}

TEST(SprofTimeline, TimesBecomeAbsolute) {
  Profile P = parseSprofText(
      cpuProfile(R"([{"thread": 7, "bucket_ns": 0, "merged": 0, "missing": 0,
        "time_ns": [100, 50, 25], "sample": [0, 0, 1], "count": [1, 1, 1],
        "weight_ns": [1000, 1000, 1000]}])"),
      "t.sprof");
  ASSERT_EQ(P.Timelines.size(), 1u);
  const ThreadTimeline &T = P.Timelines[0];
  EXPECT_EQ(T.Tid, 7);
  ASSERT_EQ(T.Events.size(), 3u);
  EXPECT_EQ(T.Events[0].TimeNs, 100u);
  EXPECT_EQ(T.Events[1].TimeNs, 150u);
  EXPECT_EQ(T.Events[2].TimeNs, 175u);
  EXPECT_EQ(T.Events[2].Sample, 1u);
  EXPECT_EQ(T.Events[2].WeightNs, 1000u);
}

TEST(SprofTimeline, AllocBytesAreTheCount) {
  std::string Text = R"({"format": "spinelprof", "version": 4, "profile": "alloc",
    "frames": [{"name": "a"}],
    "samples": [{"thread": 1, "stack": [0], "bytes": 96, "count": 3}],
    "timeline": [{"thread": 1, "time_ns": [10, 10], "sample": [0, 0],
                  "count": [1, 2], "bytes": [32, 64]}]})";
  Profile P = parseSprofText(Text, "a.sprof");
  ASSERT_EQ(P.Timelines.size(), 1u);
  EXPECT_EQ(P.Timelines[0].Events[1].Count, 64u);
  EXPECT_EQ(P.Timelines[0].Events[1].Objects, 2u);
  EXPECT_EQ(P.Timelines[0].Events[1].TimeNs, 20u);
}

TEST(SprofTimeline, NoTimelineBeforeVersion4) {
  std::string Text = R"({"format": "spinelprof", "version": 3, "frames": [{"name": "a"}],
    "samples": [{"thread": 1, "stack": [0], "count": 1}],
    "timeline": [{"thread": 1, "time_ns": [1], "sample": [0], "count": [1]}]})";
  EXPECT_TRUE(parseSprofText(Text, "old.sprof").Timelines.empty());
}

TEST(SprofTimeline, RejectsColumnsOfDifferentLengths) {
  EXPECT_EQ(errorOf(cpuProfile(
                R"([{"thread": 7, "time_ns": [1, 2], "sample": [0], "count": [1, 1]}])")),
            "t.sprof: timeline[0].sample: has 1 elements, \"time_ns\" has 2");
}

TEST(SprofTimeline, RejectsSampleIndexOutOfRange) {
  EXPECT_EQ(errorOf(cpuProfile(
                R"([{"thread": 7, "time_ns": [1], "sample": [3], "count": [1]}])")),
            "t.sprof: timeline[0].sample[0]: sample index 3 is out of range "
            "(\"samples\" has 3 entries)");
}

TEST(SprofTimeline, RejectsAnotherThreadsSample) {
  EXPECT_EQ(errorOf(cpuProfile(
                R"([{"thread": 7, "time_ns": [1, 1], "sample": [0, 2], "count": [1, 1]}])")),
            "t.sprof: timeline[0].sample[1]: sample 2 is thread 8's, not this "
            "timeline's thread 7");
}

TEST(SprofTimeline, RejectsTwoTimelinesOfOneThread) {
  EXPECT_EQ(errorOf(cpuProfile(R"([{"thread": 7, "time_ns": [], "sample": [], "count": []},
                                  {"thread": 7, "time_ns": [], "sample": [], "count": []}])")),
            "t.sprof: timeline[1].thread: thread 7 already has a timeline (timeline[0])");
}

TEST(SprofTimeline, RejectsAMissingColumn) {
  EXPECT_EQ(errorOf(cpuProfile(R"([{"thread": 7, "time_ns": [1], "sample": [0]}])")),
            "t.sprof: timeline[0].count: required key is missing");
}

} // namespace
