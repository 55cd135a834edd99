// Reads an MCAP file (mcap.dev/spec) front to back, the way a crash leaves it or whole:
// every record up to the last complete one, chunks opened (uncompressed or zstd, what
// McapWriter writes) and their CRC checked. The summary is not needed; when the file is
// complete its footer, data CRC and summary CRC are checked too. Garbage is refused with McapError naming what is wrong.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace clamsim::record {

struct McapError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct McapSchema {
  std::uint16_t id = 0;
  std::string name, encoding, data;
};

struct McapChannel {
  std::uint16_t id = 0, schema_id = 0;
  std::string topic, message_encoding;
  std::map<std::string, std::string> metadata;
};

struct McapMessage {
  std::uint16_t channel_id = 0;
  std::uint32_t sequence = 0;
  std::uint64_t log_time_ns = 0, publish_time_ns = 0;
  std::string data;
};

struct McapMetadata {
  std::string name;
  std::map<std::string, std::string> values;
};

// A top-level record as found in the file (for tools and tests: where each one ends).
struct McapRecordSpan {
  std::uint8_t opcode = 0;
  std::uint64_t offset = 0, end = 0;
};

struct McapStatistics {
  std::uint64_t message_count = 0;
  std::uint32_t chunk_count = 0;
  std::map<std::uint16_t, std::uint64_t> channel_message_counts;
};

struct McapFile {
  std::string profile, library;
  std::map<std::uint16_t, McapSchema> schemas;
  std::map<std::uint16_t, McapChannel> channels;
  std::vector<McapMessage> messages;     // in file order
  std::vector<McapMetadata> metadata;
  std::vector<McapRecordSpan> records;   // the data section's top-level records
  std::optional<McapStatistics> statistics;   // from the summary, when complete
  bool complete = false;                 // data end, summary, footer and closing magic read
  // Why the file ends early ("record 12 truncated at byte 40960"), "" when complete.
  std::string truncated;

  // The channel named `topic`, or null.
  const McapChannel* channel(const std::string& topic) const;
};

// Throws McapError: "not an MCAP file", a chunk whose CRC does not match or whose zstd data
// does not decompress, a chunk in another compression (lz4), a record that contradicts
// itself; a chunk's error names its record's byte offset. A file cut short is not an error: `truncated` says where.
McapFile read_mcap(const std::string& bytes);
// A regular file of at most max_bytes (default 1 GiB); throws McapError naming the path for a
// FIFO, device or directory (never waits on one), a larger file, or one it cannot read.
inline constexpr std::uint64_t kMaxMcapFileBytes = 1ULL << 30;
McapFile read_mcap_file(const std::string& path, std::uint64_t max_bytes = kMaxMcapFileBytes);

}  // namespace clamsim::record
