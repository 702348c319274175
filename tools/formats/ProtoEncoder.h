//===- ProtoEncoder.h - The protobuf wire format, write side ----*- C++ -*-===//
//
// Just enough of https://protobuf.dev/programming-guides/encoding/ to write
// profile.proto: varints, length-delimited fields, nested messages and packed
// repeated integers. No generated code and no library: the schema is small
// and stable, and the encoder is tested on its own (ProtoEncoderTest).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_PROTOENCODER_H
#define SPINELPROF_TOOLS_PROTOENCODER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spinelprof {

/// Appends fields to one message's bytes. A nested message is built with its
/// own ProtoEncoder and added with message().
class ProtoEncoder {
public:
  /// Wire types used by profile.proto.
  enum WireType : uint32_t { Varint = 0, LengthDelimited = 2 };

  /// A varint field (int64, uint64, bool; negative int64 takes ten bytes,
  /// as protobuf specifies for int64, not zigzag).
  void varint(uint32_t Field, uint64_t Value);
  void int64(uint32_t Field, int64_t Value) { varint(Field, static_cast<uint64_t>(Value)); }
  /// Like int64 but omitted when zero (proto3 default values are not written).
  void int64IfSet(uint32_t Field, int64_t Value) {
    if (Value != 0)
      int64(Field, Value);
  }
  /// A bytes or string field.
  void bytes(uint32_t Field, std::string_view Data);
  /// A nested message field.
  void message(uint32_t Field, const ProtoEncoder &Nested) { bytes(Field, Nested.Buffer); }
  /// A packed repeated varint field; nothing is written for an empty list.
  void packed(uint32_t Field, const std::vector<uint64_t> &Values);
  void packed(uint32_t Field, const std::vector<int64_t> &Values);

  const std::string &data() const { return Buffer; }

  /// The raw varint encoding of Value.
  static void appendVarint(std::string &Out, uint64_t Value);

private:
  void tag(uint32_t Field, WireType Type) { appendVarint(Buffer, (uint64_t(Field) << 3) | Type); }
  std::string Buffer;
};

/// gzip (RFC 1952) of Data with zlib; the header's time is 0 so the same
/// input gives the same bytes. Throws std::runtime_error if zlib fails.
std::string gzipCompress(std::string_view Data);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_PROTOENCODER_H
