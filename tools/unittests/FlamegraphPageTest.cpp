//===- FlamegraphPageTest.cpp - Unit tests of the page's timeline data ----===//
//
// The flamegraph page embeds a profile's timeline (Profile::Timelines) for
// its strip: per thread the events as varint text (in their own element),
// per sample the class of its leaf frame. These build profiles in memory, so they check the page's
// data whatever reads .sprof files: the events decode back to the profile's
// (times in microseconds, samples, counts), out-of-order events are sorted,
// and a profile or a diff page without a timeline carries none; every
// thread is listed once. GoogleTest.
//
//===----------------------------------------------------------------------===//
#include "FlamegraphPage.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace spinelprof;
using Json = nlohmann::json;

namespace {

Json pageData(const std::string &Page) {
  const std::string Open = "<script id=\"profile-data\" type=\"application/json\">";
  size_t Begin = Page.find(Open);
  EXPECT_NE(Begin, std::string::npos);
  Begin += Open.size();
  size_t End = Page.find("</script>", Begin);
  return Json::parse(Page.substr(Begin, End - Begin));
}

// Each thread's events: the profile-timeline element's text, split at '.'.
std::vector<std::string> pageEvents(const std::string &Page) {
  const std::string Open = "<script id=\"profile-timeline\" type=\"text/plain\">";
  size_t Begin = Page.find(Open);
  if (Begin == std::string::npos)
    return {};
  Begin += Open.size();
  std::string Text = Page.substr(Begin, Page.find("</script>", Begin) - Begin);
  std::vector<std::string> Out{""};
  for (char C : Text) {
    if (C == '.')
      Out.emplace_back();
    else
      Out.back() += C;
  }
  return Out;
}

struct Decoded {
  uint64_t Time, Sample, Count;
};

// The page's decoding of a thread's "data" (page.html, decodeTimeline).
std::vector<Decoded> decodeEvents(const std::string &Text) {
  static const std::string Alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  size_t Pos = 0;
  auto Next = [&]() {
    uint64_t V = 0, Mul = 1;
    for (;;) {
      uint64_t C = Alphabet.find(Text.at(Pos++));
      V += (C & 31) * Mul;
      Mul *= 32;
      if (!(C & 32))
        return V;
    }
  };
  std::vector<Decoded> Out;
  uint64_t Time = 0;
  while (Pos < Text.size()) {
    Time += Next();
    uint64_t V = Next();
    Out.push_back({Time, V / 2, V % 2 ? Next() : 1});
  }
  return Out;
}

// Two threads, a Ruby, a runtime, a GC and a synthetic leaf.
Profile twoThreadProfile() {
  Profile P;
  P.SourcePath = "mem.sprof";
  P.SelfDescribing = true;
  P.Metadata.DurationNs = 3000000000;
  P.Frames = {{"<main>", "main", FrameKind::User, "a.rb", 1, {}},
              {"sp_str_concat", "sp_str_concat", FrameKind::Runtime, "", 0, {}},
              {"sp_gc_collect", "sp_gc_collect", FrameKind::GC, "", 0, {}},
              {"[truncated]", "", FrameKind::Synthetic, "", 0, {}},
              {"block in x", "_sp_proc_fn_1", FrameKind::Block, "a.rb", 2, {}}};
  P.Threads = {{0, 10, "main"}, {0, 11, "worker"}};
  P.Samples = {{0, 10, {0}, 3, 3000000, {}},       {0, 10, {0, 1}, 1, 1000000, {}},
               {0, 10, {0, 1, 2}, 40, 40000000, {}}, {0, 11, {0, 3}, 1, 1000000, {}},
               {0, 11, {0, 4}, 2, 2000000, {}}};
  ThreadTimeline Main;
  Main.Tid = 10;
  Main.Events = {{1000, 1, 1000000, 0, 0},
                 {2500000, 2, 1000000, 0, 1},
                 {2600000, 1, 1000000, 0, 0},
                 {2700000, 40, 40000000, 0, 2},
                 {2900000000, 1, 1000000, 0, 0}};
  ThreadTimeline Worker;
  Worker.Tid = 11;
  Worker.BucketNs = 1000000;
  Worker.Merged = 3;
  Worker.Missing = 1;
  // Out of order on purpose: the page needs them sorted.
  Worker.Events = {{5000000, 2, 2000000, 0, 4}, {1000000, 1, 1000000, 0, 3}};
  P.Timelines = {Main, Worker};
  return P;
}

TEST(FlamegraphPageTimeline, EmbedsEventsAndKinds) {
  Profile P = twoThreadProfile();
  std::string Page = renderFlamegraphPage(P, {});
  Json D = pageData(Page);
  std::vector<std::string> Events = pageEvents(Page);
  ASSERT_EQ(Events.size(), 2u);
  ASSERT_TRUE(D.contains("timeline"));
  const Json &TL = D["timeline"];
  EXPECT_EQ(TL["unit_ns"], 1000);
  EXPECT_EQ(TL["end"], 3000000); // the run's length, in microseconds
  EXPECT_EQ(TL["kinds"], "01230"); // Ruby, runtime, GC, other, Ruby (block)
  ASSERT_EQ(TL["threads"].size(), 2u);
  const Json &Main = TL["threads"][0];
  EXPECT_EQ(D["threads"][Main["thread"].get<size_t>()]["tid"], 10);
  EXPECT_EQ(Main["events"], 5);
  std::vector<Decoded> E = decodeEvents(Events[0]);
  ASSERT_EQ(E.size(), 5u);
  EXPECT_EQ(E[0].Time, 1u);
  EXPECT_EQ(E[1].Time, 2500u);
  EXPECT_EQ(E[3].Time, 2700u);
  EXPECT_EQ(E[3].Sample, 2u);
  EXPECT_EQ(E[3].Count, 40u);
  EXPECT_EQ(E[4].Time, 2900000u);
  EXPECT_EQ(E[4].Count, 1u);
  const Json &Worker = TL["threads"][1];
  EXPECT_EQ(D["threads"][Worker["thread"].get<size_t>()]["name"], "worker");
  EXPECT_EQ(Worker["bucket_ns"], 1000000);
  EXPECT_EQ(Worker["merged"], 3);
  EXPECT_EQ(Worker["missing"], 1);
  std::vector<Decoded> W = decodeEvents(Events[1]);
  ASSERT_EQ(W.size(), 2u);
  EXPECT_EQ(W[0].Time, 1000u);
  EXPECT_EQ(W[0].Sample, 3u);
  EXPECT_EQ(W[1].Time, 5000u);
  EXPECT_EQ(W[1].Sample, 4u);
  EXPECT_EQ(W[1].Count, 2u);
}

TEST(FlamegraphPageTimeline, EventsOfDroppedSamplesAreLeftOut) {
  Profile P = twoThreadProfile();
  P.Timelines[0].Events.push_back({2950000000, 1, 0, 0, 99});
  Json D = pageData(renderFlamegraphPage(P, {}));
  EXPECT_EQ(D["timeline"]["threads"][0]["events"], 5);
}

// The page lists the profile's threads, then tids only samples name (not
// a folded file's samples of no thread), then tids only a timeline names,
// each once (listThreads).
TEST(FlamegraphPageTimeline, ListsEveryThreadOnce) {
  Profile P = twoThreadProfile();
  P.Threads.pop_back(); // 11 is then named by its samples and timeline only
  P.Samples.push_back({0, UnknownThread, {0}, 1, 1000000, {}});
  ThreadTimeline Lone;
  Lone.Tid = 12;
  P.Timelines.push_back(Lone);
  Json Threads = pageData(renderFlamegraphPage(P, {}))["threads"];
  ASSERT_EQ(Threads.size(), 3u);
  EXPECT_EQ(Threads[0]["tid"], 10);
  EXPECT_EQ(Threads[0]["name"], "main");
  EXPECT_EQ(Threads[1]["tid"], 11);
  EXPECT_EQ(Threads[1]["name"], "");
  EXPECT_EQ(Threads[2]["tid"], 12);
}

TEST(FlamegraphPageTimeline, NoneWithoutATimeline) {
  Profile P = twoThreadProfile();
  P.Timelines.clear();
  std::string Page = renderFlamegraphPage(P, {});
  EXPECT_FALSE(pageData(Page).contains("timeline"));
  EXPECT_EQ(Page.find("id=\"profile-timeline\""), std::string::npos);
  std::string Diff = renderDiffPage(twoThreadProfile(), twoThreadProfile(), {});
  EXPECT_FALSE(pageData(Diff).contains("timeline"));
  EXPECT_EQ(Diff.find("id=\"profile-timeline\""), std::string::npos);
}

} // namespace
