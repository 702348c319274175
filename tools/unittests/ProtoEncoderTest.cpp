//===- ProtoEncoderTest.cpp - Unit tests of the protobuf encoder ----------===//
//
// The expected bytes are the worked examples of the protobuf encoding guide
// (https://protobuf.dev/programming-guides/encoding/), so the encoder is
// checked against the specification, not against itself. GoogleTest; run by
// test/tools/proto-encoder.test.
//
//===----------------------------------------------------------------------===//
#include "ProtoEncoder.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <zlib.h>

using namespace spinelprof;

namespace {

/// "08 96 01"-style spelling of Bytes, so a failure shows both sides.
std::string hex(const std::string &Bytes) {
  std::string Out;
  char Buf[4];
  for (unsigned char C : Bytes) {
    std::snprintf(Buf, sizeof Buf, "%s%02x", Out.empty() ? "" : " ", C);
    Out += Buf;
  }
  return Out;
}

std::string varint(uint64_t V) {
  std::string S;
  ProtoEncoder::appendVarint(S, V);
  return S;
}

/// zlib's own inflate (gzip wrapper), the independent check of gzipCompress.
std::string gunzip(const std::string &In) {
  z_stream Z{};
  if (inflateInit2(&Z, 15 + 16) != Z_OK)
    return "<inflateInit2 failed>";
  std::string Out((1 << 20), '\0');
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(In.data()));
  Z.avail_in = In.size();
  Z.next_out = reinterpret_cast<Bytef *>(Out.data());
  Z.avail_out = Out.size();
  int Status = inflate(&Z, Z_FINISH);
  Out.resize(Out.size() - Z.avail_out);
  inflateEnd(&Z);
  return Status == Z_STREAM_END ? Out : "<inflate failed>";
}

TEST(ProtoEncoder, Varints) {
  EXPECT_EQ(hex(varint(0)), "00");
  EXPECT_EQ(hex(varint(1)), "01");
  EXPECT_EQ(hex(varint(127)), "7f");
  EXPECT_EQ(hex(varint(128)), "80 01");
  EXPECT_EQ(hex(varint(150)), "96 01");
  EXPECT_EQ(hex(varint(300)), "ac 02");
  EXPECT_EQ(hex(varint(UINT64_MAX)), "ff ff ff ff ff ff ff ff ff 01");
}

TEST(ProtoEncoder, VarintField) { // The guide's "Test1 { int32 a = 1; }", a = 150.
  ProtoEncoder E;
  E.varint(1, 150);
  EXPECT_EQ(hex(E.data()), "08 96 01");
}

TEST(ProtoEncoder, NegativeInt64IsTenBytes) { // No zigzag for plain int64.
  ProtoEncoder E;
  E.int64(1, -2);
  EXPECT_EQ(hex(E.data()), "08 fe ff ff ff ff ff ff ff ff 01");
}

TEST(ProtoEncoder, StringField) { // "Test2 { string b = 2; }", b = "testing".
  ProtoEncoder E;
  E.bytes(2, "testing");
  EXPECT_EQ(hex(E.data()), "12 07 74 65 73 74 69 6e 67");
}

TEST(ProtoEncoder, NestedMessage) { // "Test3 { Test1 c = 3; }".
  ProtoEncoder Inner, Outer;
  Inner.varint(1, 150);
  Outer.message(3, Inner);
  EXPECT_EQ(hex(Outer.data()), "1a 03 08 96 01");
}

TEST(ProtoEncoder, PackedRepeated) { // "repeated int32 f = 6 [packed=true]".
  ProtoEncoder E;
  E.packed(6, std::vector<uint64_t>{3, 270, 86942});
  EXPECT_EQ(hex(E.data()), "32 06 03 8e 02 9e a7 05");
  ProtoEncoder Empty;
  Empty.packed(6, std::vector<uint64_t>{});
  EXPECT_EQ(hex(Empty.data()), "") << "an empty packed list is omitted";
}

TEST(ProtoEncoder, TwoByteTag) { // Field numbers above 15.
  ProtoEncoder E;
  E.varint(16, 1);
  EXPECT_EQ(hex(E.data()), "80 01 01");
}

TEST(ProtoEncoder, DefaultsOmittedOnlyWhereAsked) {
  ProtoEncoder E;
  E.int64IfSet(1, 0);
  E.int64(2, 0);
  EXPECT_EQ(hex(E.data()), "10 00");
}

TEST(Gzip, RoundTripWithFixedHeader) {
  std::string Data(1000, 'x');
  Data += "profile";
  std::string Z = gzipCompress(Data);
  EXPECT_EQ(hex(Z.substr(0, 2)), "1f 8b") << "gzip magic";
  EXPECT_EQ(hex(Z.substr(4, 4)), "00 00 00 00") << "mtime 0, so output is reproducible";
  EXPECT_EQ(gunzip(Z), Data);
}

} // namespace
