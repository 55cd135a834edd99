// The MCAP file layout (mcap.dev/spec, version 0): the magic, the record opcodes and the
// little-endian encoding of the fields, shared by the writer and the reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace clamsim::record {

// 0x89 "MCAP" '0' "\r\n": at the start and at the end of every file.
inline constexpr std::string_view kMagic{"\x89MCAP0\r\n", 8};

enum class Op : std::uint8_t {
  Header = 0x01,
  Footer = 0x02,
  Schema = 0x03,
  Channel = 0x04,
  Message = 0x05,
  Chunk = 0x06,
  MessageIndex = 0x07,
  ChunkIndex = 0x08,
  Attachment = 0x09,
  AttachmentIndex = 0x0A,
  Statistics = 0x0B,
  Metadata = 0x0C,
  MetadataIndex = 0x0D,
  SummaryOffset = 0x0E,
  DataEnd = 0x0F,
};

// Every record: opcode (1 byte), content length (uint64), content.
inline constexpr std::size_t kRecordPrefix = 9;

// Appends fields to a byte string, little-endian as the specification fixes.
class Bytes {
 public:
  Bytes& u8(std::uint8_t v) { s_.push_back(static_cast<char>(v)); return *this; }
  Bytes& u16(std::uint16_t v) { return le(v, 2); }
  Bytes& u32(std::uint32_t v) { return le(v, 4); }
  Bytes& u64(std::uint64_t v) { return le(v, 8); }
  // String: uint32 length, then the bytes (also the layout of Schema's data).
  Bytes& str(std::string_view v) {
    u32(static_cast<std::uint32_t>(v.size()));
    s_.append(v);
    return *this;
  }
  Bytes& raw(std::string_view v) { s_.append(v); return *this; }
  const std::string& data() const { return s_; }
  std::string& data() { return s_; }
  std::size_t size() const { return s_.size(); }

 private:
  Bytes& le(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) s_.push_back(static_cast<char>((v >> (8 * i)) & 0xFFU));
    return *this;
  }
  std::string s_;
};

// A whole record: opcode, length, content.
inline std::string make_record(Op op, const std::string& content) {
  Bytes b;
  b.u8(static_cast<std::uint8_t>(op)).u64(content.size()).raw(content);
  return std::move(b.data());
}

}  // namespace clamsim::record
