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

/// Calls OnField(number, wire type, varint, bytes) for each field of a message.
template <typename Fn> void eachField(std::string_view Message, Fn &&OnField) {
  WireReader R(Message);
  while (!R.done()) {
    uint32_t F, W;
    uint64_t V = 0;
    std::string_view B;
    R.next(F, W, V, B);
    OnField(F, W, V, B);
  }
}

void expectVarint(uint32_t Wire) { check(Wire == 0, "pprof: expected a varint"); }
void expectBytes(uint32_t Wire) { check(Wire == 2, "pprof: expected bytes"); }

/// What a Profile message declares (strings, location and function ids,
/// sample types) and what its fields refer to, checked against each other.
struct ProfileRefs {
  std::vector<std::string> Strings;
  std::vector<uint64_t> StringRefs;
  std::set<uint64_t> LocationIds, FunctionIds, SampleLocations, LineFunctions;
  size_t SampleTypes = 0;
  std::vector<size_t> ValueCounts;

  void readValueType(std::string_view B) {
    eachField(B, [&](uint32_t F, uint32_t W, uint64_t V, std::string_view) {
      expectVarint(W);
      check(F == 1 || F == 2, "pprof: unknown ValueType field");
      StringRefs.push_back(V);
    });
  }

  void readSample(std::string_view B) {
    size_t Values = 0;
    eachField(B, [&](uint32_t F, uint32_t W, uint64_t V, std::string_view B2) {
      if (F == 1) {
        for (uint64_t Id : packed(W, V, B2))
          SampleLocations.insert(Id);
      } else if (F == 2) {
        Values += packed(W, V, B2).size();
      } else if (F == 3) { // label
        expectBytes(W);
        eachField(B2, [&](uint32_t F3, uint32_t W3, uint64_t V3, std::string_view) {
          expectVarint(W3);
          if (F3 == 1 || F3 == 2)
            StringRefs.push_back(V3);
        });
      } else {
        fail("pprof: unknown Sample field");
      }
    });
    ValueCounts.push_back(Values);
  }

  void readLocation(std::string_view B) {
    eachField(B, [&](uint32_t F, uint32_t W, uint64_t V, std::string_view B2) {
      if (F == 1) {
        expectVarint(W);
        check(V != 0, "pprof: location id 0");
        check(LocationIds.insert(V).second, "pprof: duplicate location id");
      } else if (F == 4) { // line
        expectBytes(W);
        eachField(B2, [&](uint32_t F3, uint32_t W3, uint64_t V3, std::string_view) {
          expectVarint(W3);
          if (F3 == 1)
            LineFunctions.insert(V3);
        });
      } else {
        fail("pprof: unknown Location field");
      }
    });
  }

  void readFunction(std::string_view B) {
    eachField(B, [&](uint32_t F, uint32_t W, uint64_t V, std::string_view) {
      expectVarint(W);
      if (F == 1) {
        check(V != 0, "pprof: function id 0");
        check(FunctionIds.insert(V).second, "pprof: duplicate function id");
      } else if (F >= 2 && F <= 4) {
        StringRefs.push_back(V);
      } else {
        check(F == 5, "pprof: unknown Function field");
      }
    });
  }

  /// One field of the Profile message itself.
  void readField(uint32_t F, uint32_t W, uint64_t V, std::string_view B) {
    switch (F) {
    case 1: // sample_type
      ++SampleTypes;
      [[fallthrough]];
    case 11: // period_type
      expectBytes(W);
      readValueType(B);
      break;
    case 2: expectBytes(W); readSample(B); break;
    case 4: expectBytes(W); readLocation(B); break;
    case 5: expectBytes(W); readFunction(B); break;
    case 6: expectBytes(W); Strings.emplace_back(B); break;
    case 13: // comment
    case 14: // default_sample_type
      expectVarint(W);
      StringRefs.push_back(V);
      break;
    case 9: case 10: case 12: expectVarint(W); break;
    default: fail("pprof: a Profile field the writer never writes");
    }
  }

  void checkReferences() const {
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
};

void checkProfileMessage(std::string_view Message) {
  ProfileRefs Refs;
  eachField(Message, [&](uint32_t F, uint32_t W, uint64_t V, std::string_view B) {
    Refs.readField(F, W, V, B);
  });
  Refs.checkReferences();
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
