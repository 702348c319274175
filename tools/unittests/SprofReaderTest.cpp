//===- SprofReaderTest.cpp - Unit tests of the .sprof reader's version ----===//
//
// The reader accepts exactly the versions spinelprof/sprof_format.inc
// lists (SprofFormat.h: VersionOneRun to VersionNewest) and rejects any
// other with an error naming the file, the line and the version.
// GoogleTest.
//
//===----------------------------------------------------------------------===//
#include "SprofFormat.h"
#include "SprofReader.h"
#include "ToolError.h"

#include <gtest/gtest.h>

#include <string>

using namespace spinelprof;

namespace {

std::string profileWithVersion(unsigned long long Version) {
  return "{\n  \"format\": \"spinelprof\",\n  \"frames\": [{\"name\": \"a\"}],\n"
         "  \"version\": " +
         std::to_string(Version) +
         ",\n  \"samples\": [{\"stack\": [0], \"count\": 1}]\n}\n";
}

// The message parseSprofText throws, or "" if it reads the text.
std::string errorOf(const std::string &Text, const std::string &Path) {
  try {
    parseSprofText(Text, Path);
  } catch (const InputError &E) {
    return E.what();
  }
  return "";
}

TEST(SprofReaderVersion, ReadsTheIncVersions) {
  EXPECT_EQ(sprof::VersionOneRun, 1u);
  EXPECT_GE(sprof::VersionNewest, sprof::VersionRuns);
  for (unsigned V = sprof::VersionOneRun; V <= sprof::VersionNewest; ++V)
    EXPECT_EQ(errorOf(profileWithVersion(V), "ok.sprof"), "") << V;
}

TEST(SprofReaderVersion, RejectsOtherVersionsNamingFileAndLine) {
  const std::string Range = "(this spinel-prof reads versions " +
                            std::to_string(sprof::VersionOneRun) + " to " +
                            std::to_string(sprof::VersionNewest) + ")";
  for (unsigned long long V : {0ull, sprof::VersionNewest + 1ull, 99999999999ull}) {
    std::string Error = errorOf(profileWithVersion(V), "dir/bad.sprof");
    // "version" is on line 4 of the text.
    EXPECT_EQ(Error, "dir/bad.sprof:4: version: unsupported version " +
                         std::to_string(V) + " " + Range);
  }
}

TEST(SprofReaderVersion, LineIsTheTopLevelKeys) {
  // A "version" inside a frame, or in a string, is not the profile's.
  std::string Text = "{\"format\": \"spinelprof\",\n"
                     "\"frames\": [{\"name\": \"\\\"version\\\": 1\", \"version\": 1}],\n"
                     "\"samples\": [],\n"
                     "\n"
                     "\"version\"\n  : 7}";
  EXPECT_EQ(errorOf(Text, "p.sprof"),
            "p.sprof:5: version: unsupported version 7 (this spinel-prof reads "
            "versions 1 to " + std::to_string(sprof::VersionNewest) + ")");
}

} // namespace
