//===- fuzz-pprof-writer.cpp - Fuzzes the pprof converter -----------------===//
//
// For any profile the readers accept, renderPprof writes a gzip stream
// whose content is a well-formed profile.proto message: it is decoded here
// field by field (wire types, lengths, nested messages) and every
// reference is checked: string indexes inside string_table (whose first
// entry is ""), sample location ids naming a location, location lines
// naming a function, one value per sample type.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"
#include "PprofWriter.h"

#include <set>
#include <string>
#include <vector>
#include <zlib.h>

using namespace spinelprof;
using namespace spinelprof::fuzz;

namespace {

/// One protobuf message, read field by field; any malformation fails.
class WireReader {
public:
  explicit WireReader(std::string_view Bytes) : Rest(Bytes) {}
  bool done() const { return Rest.empty(); }

  /// The next field: number, wire type, and its varint or bytes.
  void next(uint32_t &Field, uint32_t &Wire, uint64_t &Varint, std::string_view &Bytes) {
    uint64_t Key = varint();
    Field = uint32_t(Key >> 3);
    Wire = uint32_t(Key & 7);
    check(Field != 0, "pprof: field number 0");
    if (Wire == 0) {
      Varint = varint();
    } else if (Wire == 2) {
      uint64_t Len = varint();
      check(Len <= Rest.size(), "pprof: length-delimited field past the end");
      Bytes = Rest.substr(0, Len);
      Rest.remove_prefix(Len);
    } else {
      fail("pprof: a wire type the writer never uses");
    }
  }

  uint64_t varint() {
    uint64_t V = 0;
    for (int Shift = 0; Shift < 64; Shift += 7) {
      check(!Rest.empty(), "pprof: truncated varint");
      uint8_t B = uint8_t(Rest[0]);
      Rest.remove_prefix(1);
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    fail("pprof: varint longer than 10 bytes");
  }

private:
  std::string_view Rest;
};

/// A packed repeated varint field (or a single unpacked one).
std::vector<uint64_t> packed(uint32_t Wire, uint64_t Varint, std::string_view Bytes) {
  if (Wire == 0)
    return {Varint};
  std::vector<uint64_t> Out;
  WireReader R(Bytes);
  while (!R.done())
    Out.push_back(R.varint());
  return Out;
}

std::string gunzip(const std::string &In) {
  z_stream Z{};
  check(inflateInit2(&Z, 15 + 16) == Z_OK, "inflateInit2");
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(In.data()));
  Z.avail_in = uInt(In.size());
  std::string Out;
  char Buf[65536];
  int Ret;
  do {
    Z.next_out = reinterpret_cast<Bytef *>(Buf);
    Z.avail_out = sizeof(Buf);
    Ret = inflate(&Z, Z_NO_FLUSH);
    check(Ret == Z_OK || Ret == Z_STREAM_END, "pprof: not a valid gzip stream");
    Out.append(Buf, sizeof(Buf) - Z.avail_out);
  } while (Ret != Z_STREAM_END);
  check(Z.avail_in == 0, "pprof: bytes after the gzip stream");
  inflateEnd(&Z);
  return Out;
}

void checkProfileMessage(std::string_view Message) {
  std::vector<std::string> Strings;
  std::vector<uint64_t> StringRefs;
  std::set<uint64_t> LocationIds, FunctionIds, SampleLocations, LineFunctions;
  size_t SampleTypes = 0;
  std::vector<size_t> ValueCounts;

  auto sub = [](std::string_view Bytes, auto &&OnField) {
    WireReader R(Bytes);
    while (!R.done()) {
      uint32_t F, W;
      uint64_t V = 0;
      std::string_view B;
      R.next(F, W, V, B);
      OnField(F, W, V, B);
    }
  };
  auto varintField = [](uint32_t W) { check(W == 0, "pprof: expected a varint"); };
  auto bytesField = [](uint32_t W) { check(W == 2, "pprof: expected bytes"); };

  sub(Message, [&](uint32_t F, uint32_t W, uint64_t V, std::string_view B) {
    switch (F) {
    case 1: // sample_type: ValueType
    case 11: // period_type
      bytesField(W);
      if (F == 1)
        ++SampleTypes;
      sub(B, [&](uint32_t F2, uint32_t W2, uint64_t V2, std::string_view) {
        varintField(W2);
        check(F2 == 1 || F2 == 2, "pprof: unknown ValueType field");
        StringRefs.push_back(V2);
      });
      break;
    case 2: { // sample
      bytesField(W);
      size_t Values = 0;
      sub(B, [&](uint32_t F2, uint32_t W2, uint64_t V2, std::string_view B2) {
        if (F2 == 1) {
          for (uint64_t Id : packed(W2, V2, B2))
            SampleLocations.insert(Id);
        } else if (F2 == 2) {
          Values += packed(W2, V2, B2).size();
        } else if (F2 == 3) { // label
          bytesField(W2);
          sub(B2, [&](uint32_t F3, uint32_t W3, uint64_t V3, std::string_view) {
            varintField(W3);
            if (F3 == 1 || F3 == 2)
              StringRefs.push_back(V3);
          });
        } else {
          fail("pprof: unknown Sample field");
        }
      });
      ValueCounts.push_back(Values);
      break;
    }
    case 4: // location
      bytesField(W);
      sub(B, [&](uint32_t F2, uint32_t W2, uint64_t V2, std::string_view B2) {
        if (F2 == 1) {
          varintField(W2);
          check(V2 != 0, "pprof: location id 0");
          check(LocationIds.insert(V2).second, "pprof: duplicate location id");
        } else if (F2 == 4) {
          bytesField(W2);
          sub(B2, [&](uint32_t F3, uint32_t W3, uint64_t V3, std::string_view) {
            varintField(W3);
            if (F3 == 1)
              LineFunctions.insert(V3);
          });
        } else {
          fail("pprof: unknown Location field");
        }
      });
      break;
    case 5: // function
      bytesField(W);
      sub(B, [&](uint32_t F2, uint32_t W2, uint64_t V2, std::string_view) {
        varintField(W2);
        if (F2 == 1) {
          check(V2 != 0, "pprof: function id 0");
          check(FunctionIds.insert(V2).second, "pprof: duplicate function id");
        } else if (F2 >= 2 && F2 <= 4) {
          StringRefs.push_back(V2);
        } else {
          check(F2 == 5, "pprof: unknown Function field");
        }
      });
      break;
    case 6:
      bytesField(W);
      Strings.emplace_back(B);
      break;
    case 13: // comment
    case 14: // default_sample_type
      varintField(W);
      StringRefs.push_back(V);
      break;
    case 9: case 10: case 12:
      varintField(W);
      break;
    default:
      fail("pprof: a Profile field the writer never writes");
    }
  });

  check(!Strings.empty() && Strings[0].empty(), "pprof: string_table[0] is not \"\"");
  for (uint64_t S : StringRefs)
    check(S < Strings.size(), "pprof: string index outside string_table");
  for (uint64_t L : SampleLocations)
    check(LocationIds.count(L), "pprof: sample names a missing location");
  for (uint64_t F : LineFunctions)
    check(FunctionIds.count(F), "pprof: line names a missing function");
  check(SampleTypes >= 1, "pprof: no sample_type");
  for (size_t N : ValueCounts)
    check(N == SampleTypes, "pprof: sample value count differs from sample_type count");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::optional<Profile> P = readProfileText(bytes(Data, Size));
  if (!P)
    return 0;
  std::string Raw = encodePprof(*P);
  check(gunzip(renderPprof(*P)) == Raw, "pprof: gzip does not hold the message");
  checkProfileMessage(Raw);
  return 0;
}
