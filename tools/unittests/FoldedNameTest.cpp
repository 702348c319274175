//===- FoldedNameTest.cpp - Unit tests of folded-name escaping ------------===//
//
// spinelprof/folded_name.h is the one escaping shared by the runtime's
// folded writer and spinel-prof's (merge's writer, the folded reader):
// escaping then decoding gives every name back, and the escaped form is
// the one docs/formats.md, "Folded stacks", gives. GoogleTest.
//
//===----------------------------------------------------------------------===//
#include "FoldedReader.h"
#include "ProfileWriters.h"

#include "spinelprof/folded_name.h"

#include <gtest/gtest.h>

#include <string>

using namespace spinelprof;

namespace {

// The runtime's way: the header's escapeName through a sink.
std::string escapeThroughSink(const std::string &Name) {
  std::string Out;
  folded::escapeName(Name.data(), Name.size(),
                     [&Out](const char *P, size_t N) { Out.append(P, N); });
  return Out;
}

TEST(FoldedName, EscapesTheFourCharactersOnly) {
  EXPECT_EQ(encodeFoldedName("a%b;c\nd\re f"), "a%25b%3Bc%0Ad%0De f");
  EXPECT_EQ(encodeFoldedName("Geo::Vec#+"), "Geo::Vec#+");
  EXPECT_EQ(escapeThroughSink("%;\n\r"), "%25%3B%0A%0D");
}

TEST(FoldedName, RoundTrips) {
  const std::string Names[] = {
      "",       "plain",        "%",         ";",        "\n",
      "\r",     "%25",          "%3B",       "%%;;",     "a;b;c",
      "100%",   "x%0Ay",        "[native] libc.so.6",    "tab\there",
      "%3",     "ends with %",  std::string("nul\0in", 7), "\xff\xfe bytes",
  };
  for (const std::string &Name : Names) {
    std::string Escaped = encodeFoldedName(Name);
    EXPECT_EQ(Escaped, escapeThroughSink(Name)) << "runtime and tool differ";
    EXPECT_EQ(Escaped.find_first_of(";\n\r"), std::string::npos) << Escaped;
    EXPECT_EQ(decodeFoldedName(Escaped), Name) << Escaped;
  }
}

TEST(FoldedName, EveryByteRoundTrips) {
  for (int C = 0; C < 256; ++C) {
    std::string Name = "a" + std::string(1, char(C)) + "%" + std::string(1, char(C));
    EXPECT_EQ(decodeFoldedName(encodeFoldedName(Name)), Name) << C;
  }
}

TEST(FoldedName, DecodesExactlyTheFourEscapes) {
  EXPECT_EQ(decodeFoldedName("%25%3B%0A%0D"), "%;\n\r");
  // Anything else after a % stands for itself, as do a short tail and
  // lower-case hex.
  EXPECT_EQ(decodeFoldedName("%41%3b%2"), "%41%3b%2");
  EXPECT_EQ(decodeFoldedName("%"), "%");
}

} // namespace
