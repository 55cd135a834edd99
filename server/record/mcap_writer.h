// Writes an MCAP file (mcap.dev/spec) append-only: the header, schemas and channels, then
// messages gathered into chunks, zstd-compressed by default. A chunk is written and flushed
// to the file when it spans `chunk_duration_ns` of log time (or on flush_chunk()), followed
// by its message indices, so a process that dies leaves a file readable up to its last chunk.
// close() writes the last chunk, the data end, the summary (schemas, channels, statistics,
// chunk and metadata indices), the summary offsets and the footer.
// The file is under an exclusive flock(2) until close(), so a live file can be told
// from a finished one. Not thread-safe: one writer, one thread.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "record/mcap_format.h"

namespace clamsim::record {

struct McapWriterOptions {
  std::string profile;                          // "" = none (the spec's default)
  std::string library = "clamsim";              // the Header's library
  std::uint64_t chunk_duration_ns = 1000000000; // close a chunk after this much log time
  // The chunks' compression: "zstd" or "" (none). Anything else: the writer fails (ok() false).
  std::string compression = "zstd";
  // zstd's level (1..19). 3, zstd's own default: a session's 1 s chunk (about 4.7 kB of
  // JSON) to 35 % in about 20 µs; 9 saves 1 % more for 4x the CPU (docs/recording.md)
  int zstd_level = 3;
};

// One zstd context per writer, reused chunk after chunk: about 140 kB held for 4.7 kB
// chunks, for half the CPU of a fresh context per chunk.
struct ZstdCompressor;

class McapWriter {
 public:
  // Creates (truncates) the file and writes the magic and the header. ok() says whether
  // that worked; error() says why not.
  McapWriter(const std::string& path, McapWriterOptions options);
  ~McapWriter();  // close()s
  McapWriter(const McapWriter&) = delete;
  McapWriter& operator=(const McapWriter&) = delete;

  // Ids from 1 (0 is "no schema" in the spec).
  std::uint16_t add_schema(const std::string& name, const std::string& encoding,
                           const std::string& data);
  std::uint16_t add_channel(std::uint16_t schema_id, const std::string& topic,
                            const std::string& message_encoding,
                            const std::map<std::string, std::string>& metadata = {});
  void write_metadata(const std::string& name, const std::map<std::string, std::string>& values);
  // log_time and publish_time in nanoseconds; messages of a channel in time order.
  void write_message(std::uint16_t channel_id, std::uint64_t log_time_ns,
                     std::uint64_t publish_time_ns, const std::string& data);
  // Writes the open chunk (if any) and flushes the file to the operating system.
  void flush_chunk();
  // Finishes the file; idempotent. False when any write failed.
  bool close();

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  std::uint64_t bytes_written() const { return offset_; }
  std::uint64_t message_count() const { return message_count_; }

 private:
  struct ChunkIndexEntry {
    std::uint64_t start_ns, end_ns, offset, length;
    std::map<std::uint16_t, std::uint64_t> index_offsets;
    std::uint64_t index_length, compressed_size, uncompressed_size;
  };
  struct MetadataIndexEntry {
    std::uint64_t offset, length;
    std::string name;
  };
  void emit(const std::string& bytes);            // to the file, counted and CRC'd
  void emit_record(Op op, const std::string& content) { emit(make_record(op, content)); }
  std::string schema_record(std::uint16_t id) const;
  std::string channel_record(std::uint16_t id) const;
  std::string summary() const;                    // from the summary's start to the footer
  void fail(const std::string& what);

  std::FILE* file_ = nullptr;
  McapWriterOptions options_;
  std::unique_ptr<ZstdCompressor> zstd_;
  std::string path_;
  std::string error_;
  bool closed_ = false;
  std::uint64_t offset_ = 0;
  std::uint32_t data_crc_ = 0;

  struct SchemaDef { std::string name, encoding, data; };
  struct ChannelDef {
    std::uint16_t schema_id;
    std::string topic, encoding;
    std::map<std::string, std::string> metadata;
  };
  std::vector<SchemaDef> schemas_;    // id = index + 1
  std::vector<ChannelDef> channels_;  // id = index + 1

  // the open chunk
  std::string chunk_records_;
  std::uint64_t chunk_start_ns_ = 0, chunk_end_ns_ = 0;
  std::map<std::uint16_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> chunk_index_;
  std::vector<ChunkIndexEntry> chunks_;
  std::vector<MetadataIndexEntry> metadata_;

  std::map<std::uint16_t, std::uint64_t> channel_counts_;
  std::map<std::uint16_t, std::uint32_t> channel_seq_;
  std::uint64_t message_count_ = 0;
  std::uint64_t first_ns_ = 0, last_ns_ = 0;
};

}  // namespace clamsim::record
