//===- ProtoEncoderTest.cpp - Unit tests of the protobuf encoder ----------===//
//
// The expected bytes are the worked examples of the protobuf encoding guide
// (https://protobuf.dev/programming-guides/encoding/), so the encoder is
// checked against the specification, not against itself. Run by
// test/tools/proto-encoder.test; prints one line per failure and a summary.
//
//===----------------------------------------------------------------------===//
#include "ProtoEncoder.h"

#include <cstdio>
#include <string>
#include <zlib.h>

using namespace spinelprof;

namespace {

int Failures = 0, Checks = 0;

std::string hex(const std::string &Bytes) {
  std::string Out;
  char Buf[4];
  for (unsigned char C : Bytes) {
    std::snprintf(Buf, sizeof Buf, "%s%02x", Out.empty() ? "" : " ", C);
    Out += Buf;
  }
  return Out;
}

void expect(const char *What, const std::string &Actual, const std::string &ExpectedHex) {
  ++Checks;
  if (hex(Actual) == ExpectedHex)
    return;
  ++Failures;
  std::printf("FAIL %s: got [%s], want [%s]\n", What, hex(Actual).c_str(), ExpectedHex.c_str());
}

std::string gunzip(const std::string &In) {
  z_stream Z{};
  inflateInit2(&Z, 15 + 16);
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

} // namespace

int main() {
  auto Varint = [](uint64_t V) {
    std::string S;
    ProtoEncoder::appendVarint(S, V);
    return S;
  };
  expect("varint 0", Varint(0), "00");
  expect("varint 1", Varint(1), "01");
  expect("varint 127", Varint(127), "7f");
  expect("varint 128", Varint(128), "80 01");
  expect("varint 150", Varint(150), "96 01");
  expect("varint 300", Varint(300), "ac 02");
  expect("varint max", Varint(UINT64_MAX), "ff ff ff ff ff ff ff ff ff 01");

  { // The guide's "Test1 { int32 a = 1; }" with a = 150.
    ProtoEncoder E;
    E.varint(1, 150);
    expect("field 1 = 150", E.data(), "08 96 01");
  }
  { // int64 -2 is ten bytes (no zigzag for plain int64).
    ProtoEncoder E;
    E.int64(1, -2);
    expect("int64 -2", E.data(), "08 fe ff ff ff ff ff ff ff ff 01");
  }
  { // "Test2 { string b = 2; }" with b = "testing".
    ProtoEncoder E;
    E.bytes(2, "testing");
    expect("string field", E.data(), "12 07 74 65 73 74 69 6e 67");
  }
  { // "Test3 { Test1 c = 3; }": a nested message.
    ProtoEncoder Inner, Outer;
    Inner.varint(1, 150);
    Outer.message(3, Inner);
    expect("nested message", Outer.data(), "1a 03 08 96 01");
  }
  { // "Test5 { repeated int32 f = 6 [packed=true]; }" with 3, 270, 86942.
    ProtoEncoder E;
    E.packed(6, std::vector<uint64_t>{3, 270, 86942});
    expect("packed repeated", E.data(), "32 06 03 8e 02 9e a7 05");
    ProtoEncoder Empty;
    Empty.packed(6, std::vector<uint64_t>{});
    expect("empty packed list is omitted", Empty.data(), "");
  }
  { // Field numbers above 15 take a two-byte tag.
    ProtoEncoder E;
    E.varint(16, 1);
    expect("field 16", E.data(), "80 01 01");
  }
  { // Defaults are omitted only where asked.
    ProtoEncoder E;
    E.int64IfSet(1, 0);
    E.int64(2, 0);
    expect("int64IfSet skips zero", E.data(), "10 00");
  }
  { // gzip round trip, with a gzip header (1f 8b) and mtime 0.
    std::string Data(1000, 'x');
    Data += "profile";
    std::string Z = gzipCompress(Data);
    expect("gzip magic", Z.substr(0, 2), "1f 8b");
    expect("gzip mtime", Z.substr(4, 4), "00 00 00 00");
    ++Checks;
    if (gunzip(Z) != Data) {
      ++Failures;
      std::printf("FAIL gzip round trip\n");
    }
  }
  std::printf("proto-encoder: %d passed, %d failed\n", Checks - Failures, Failures);
  return Failures ? 1 : 0;
}
