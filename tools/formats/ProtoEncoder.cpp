//===- ProtoEncoder.cpp - The protobuf wire format, write side ------------===//
#include "ProtoEncoder.h"

#include <stdexcept>
#include <zlib.h>

namespace spinelprof {

void ProtoEncoder::appendVarint(std::string &Out, uint64_t Value) {
  while (Value >= 0x80) {
    Out += static_cast<char>((Value & 0x7F) | 0x80);
    Value >>= 7;
  }
  Out += static_cast<char>(Value);
}

void ProtoEncoder::varint(uint32_t Field, uint64_t Value) {
  tag(Field, Varint);
  appendVarint(Buffer, Value);
}

void ProtoEncoder::bytes(uint32_t Field, std::string_view Data) {
  tag(Field, LengthDelimited);
  appendVarint(Buffer, Data.size());
  Buffer.append(Data.data(), Data.size());
}

void ProtoEncoder::packed(uint32_t Field, const std::vector<uint64_t> &Values) {
  if (Values.empty())
    return;
  std::string Body;
  for (uint64_t V : Values)
    appendVarint(Body, V);
  bytes(Field, Body);
}

void ProtoEncoder::packed(uint32_t Field, const std::vector<int64_t> &Values) {
  std::vector<uint64_t> Unsigned(Values.begin(), Values.end());
  packed(Field, Unsigned);
}

std::string gzipCompress(std::string_view Data) {
  z_stream Z{};
  // 15 window bits + 16: a gzip wrapper rather than zlib's own.
  if (deflateInit2(&Z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: deflateInit2 failed");
  std::string Out;
  Out.resize(deflateBound(&Z, Data.size()) + 32);
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Data.data()));
  Z.avail_in = static_cast<uInt>(Data.size());
  Z.next_out = reinterpret_cast<Bytef *>(Out.data());
  Z.avail_out = static_cast<uInt>(Out.size());
  int Status = deflate(&Z, Z_FINISH);
  size_t Written = Out.size() - Z.avail_out;
  deflateEnd(&Z);
  if (Status != Z_STREAM_END)
    throw std::runtime_error("zlib: deflate did not finish");
  Out.resize(Written);
  return Out;
}

} // namespace spinelprof
