#include "record/mcap_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <sys/file.h>
#include <zstd.h>

#include "record/crc32.h"

namespace clamsim::record {

struct ZstdCompressor {
  ZSTD_CCtx* ctx = ZSTD_createCCtx();
  std::string out;  // reused: grows to the largest chunk's bound once
  ~ZstdCompressor() { ZSTD_freeCCtx(ctx); }
};

namespace {

void put_map(Bytes& b, const std::map<std::string, std::string>& m) {
  Bytes entries;
  for (const auto& [k, v] : m) entries.str(k).str(v);
  b.u32(static_cast<std::uint32_t>(entries.size())).raw(entries.data());
}

}  // namespace

McapWriter::McapWriter(const std::string& path, McapWriterOptions options)
    : options_(std::move(options)), path_(path) {
  if (options_.compression == "zstd") {
    zstd_ = std::make_unique<ZstdCompressor>();
    if (zstd_->ctx == nullptr) {
      error_ = "cannot write " + path + ": no memory for a zstd context";
      return;
    }
  } else if (!options_.compression.empty()) {
    error_ = "cannot write " + path + ": unknown chunk compression '" + options_.compression +
             "' (valid: \"\" for none, \"zstd\")";
    return;
  }
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) {
    error_ = "cannot write " + path + ": " + std::strerror(errno);
    return;
  }
  // held until close: whoever prunes old files can tell this one is being written
  ::flock(fileno(file_), LOCK_EX | LOCK_NB);
  emit(std::string(kMagic));
  Bytes header;
  header.str(options_.profile).str(options_.library);
  emit_record(Op::Header, header.data());
}

McapWriter::~McapWriter() { close(); }

void McapWriter::fail(const std::string& what) {
  if (error_.empty()) error_ = what + " " + path_ + ": " + std::strerror(errno);
}

void McapWriter::emit(const std::string& bytes) {
  if (file_ == nullptr || !error_.empty()) return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) return fail("writing");
  data_crc_ = crc32(data_crc_, bytes.data(), bytes.size());
  offset_ += bytes.size();
}

std::string McapWriter::schema_record(std::uint16_t id) const {
  const SchemaDef& s = schemas_[id - 1U];
  Bytes b;
  b.u16(id).str(s.name).str(s.encoding).str(s.data);
  return make_record(Op::Schema, b.data());
}

std::string McapWriter::channel_record(std::uint16_t id) const {
  const ChannelDef& c = channels_[id - 1U];
  Bytes b;
  b.u16(id).u16(c.schema_id).str(c.topic).str(c.encoding);
  put_map(b, c.metadata);
  return make_record(Op::Channel, b.data());
}

std::uint16_t McapWriter::add_schema(const std::string& name, const std::string& encoding,
                                     const std::string& data) {
  schemas_.push_back({name, encoding, data});
  const auto id = static_cast<std::uint16_t>(schemas_.size());
  flush_chunk();  // definitions outside chunks: any reader meets them before their messages
  emit(schema_record(id));
  return id;
}

std::uint16_t McapWriter::add_channel(std::uint16_t schema_id, const std::string& topic,
                                      const std::string& message_encoding,
                                      const std::map<std::string, std::string>& metadata) {
  channels_.push_back({schema_id, topic, message_encoding, metadata});
  const auto id = static_cast<std::uint16_t>(channels_.size());
  flush_chunk();
  emit(channel_record(id));
  return id;
}

void McapWriter::write_metadata(const std::string& name,
                                const std::map<std::string, std::string>& values) {
  flush_chunk();
  Bytes b;
  b.str(name);
  put_map(b, values);
  const std::string record = make_record(Op::Metadata, b.data());
  metadata_.push_back({offset_, record.size(), name});
  emit(record);
}

void McapWriter::write_message(std::uint16_t channel_id, std::uint64_t log_time_ns,
                               std::uint64_t publish_time_ns, const std::string& data) {
  if (!chunk_records_.empty() && log_time_ns >= chunk_start_ns_ + options_.chunk_duration_ns)
    flush_chunk();
  if (chunk_records_.empty()) chunk_start_ns_ = chunk_end_ns_ = log_time_ns;
  chunk_start_ns_ = std::min(chunk_start_ns_, log_time_ns);
  chunk_end_ns_ = std::max(chunk_end_ns_, log_time_ns);
  chunk_index_[channel_id].emplace_back(log_time_ns, chunk_records_.size());
  Bytes b;
  b.u16(channel_id).u32(channel_seq_[channel_id]++).u64(log_time_ns).u64(publish_time_ns).raw(data);
  chunk_records_ += make_record(Op::Message, b.data());
  if (message_count_ == 0) first_ns_ = last_ns_ = log_time_ns;
  first_ns_ = std::min(first_ns_, log_time_ns);
  last_ns_ = std::max(last_ns_, log_time_ns);
  ++message_count_;
  ++channel_counts_[channel_id];
}

void McapWriter::flush_chunk() {
  if (file_ == nullptr) return;
  if (!chunk_records_.empty()) {
    const std::uint64_t size = chunk_records_.size();
    std::string_view records = chunk_records_;
    if (zstd_) {
      std::string& out = zstd_->out;
      const std::size_t bound = ZSTD_compressBound(chunk_records_.size());
      if (out.size() < bound) out.resize(bound);
      const std::size_t n = ZSTD_compressCCtx(zstd_->ctx, out.data(), out.size(), chunk_records_.data(),
                                              chunk_records_.size(), options_.zstd_level);
      if (ZSTD_isError(n) != 0) {
        if (error_.empty()) error_ = "compressing a chunk for " + path_ + ": " + ZSTD_getErrorName(n);
        chunk_records_.clear();
        chunk_index_.clear();
        return;
      }
      records = std::string_view(out.data(), n);
    }
    ChunkIndexEntry entry{chunk_start_ns_, chunk_end_ns_, offset_, 0, {}, 0, records.size(), size};
    Bytes chunk;
    // the CRC and size are of the uncompressed records (the spec's uncompressed_crc)
    chunk.u64(chunk_start_ns_).u64(chunk_end_ns_).u64(size)
        .u32(crc32(0, chunk_records_.data(), chunk_records_.size()))
        .str(options_.compression)
        .u64(records.size()).raw(records);
    emit_record(Op::Chunk, chunk.data());
    entry.length = offset_ - entry.offset;
    const std::uint64_t index_start = offset_;
    for (const auto& [channel, entries] : chunk_index_) {
      Bytes idx;
      idx.u16(channel).u32(static_cast<std::uint32_t>(entries.size() * 16));
      for (const auto& [t, at] : entries) idx.u64(t).u64(at);
      entry.index_offsets[channel] = offset_;
      emit_record(Op::MessageIndex, idx.data());
    }
    entry.index_length = offset_ - index_start;
    chunks_.push_back(std::move(entry));
    chunk_records_.clear();
    chunk_index_.clear();
  }
  if (error_.empty() && std::fflush(file_) != 0) fail("flushing");
}

std::string McapWriter::summary() const {
  // the summary starts at offset_ (after the data end); each group's offset is recorded
  std::string s;
  struct Group { Op op; std::uint64_t start, length; };
  std::vector<Group> groups;
  const auto group = [&](Op op, const std::string& records) {
    if (records.empty()) return;
    groups.push_back({op, offset_ + s.size(), records.size()});
    s += records;
  };
  std::string r;
  for (std::size_t i = 1; i <= schemas_.size(); ++i) r += schema_record(static_cast<std::uint16_t>(i));
  group(Op::Schema, r);
  r.clear();
  for (std::size_t i = 1; i <= channels_.size(); ++i) r += channel_record(static_cast<std::uint16_t>(i));
  group(Op::Channel, r);

  Bytes stats;
  stats.u64(message_count_).u16(static_cast<std::uint16_t>(schemas_.size()))
      .u32(static_cast<std::uint32_t>(channels_.size())).u32(0)
      .u32(static_cast<std::uint32_t>(metadata_.size())).u32(static_cast<std::uint32_t>(chunks_.size()))
      .u64(first_ns_).u64(last_ns_);
  Bytes counts;
  for (const auto& [channel, n] : channel_counts_) counts.u16(channel).u64(n);
  stats.u32(static_cast<std::uint32_t>(counts.size())).raw(counts.data());
  group(Op::Statistics, make_record(Op::Statistics, stats.data()));

  r.clear();
  for (const ChunkIndexEntry& c : chunks_) {
    Bytes b;
    b.u64(c.start_ns).u64(c.end_ns).u64(c.offset).u64(c.length);
    Bytes offsets;
    for (const auto& [channel, at] : c.index_offsets) offsets.u16(channel).u64(at);
    b.u32(static_cast<std::uint32_t>(offsets.size())).raw(offsets.data());
    b.u64(c.index_length).str(options_.compression).u64(c.compressed_size).u64(c.uncompressed_size);
    r += make_record(Op::ChunkIndex, b.data());
  }
  group(Op::ChunkIndex, r);
  r.clear();
  for (const MetadataIndexEntry& m : metadata_) {
    Bytes b;
    b.u64(m.offset).u64(m.length).str(m.name);
    r += make_record(Op::MetadataIndex, b.data());
  }
  group(Op::MetadataIndex, r);

  const std::uint64_t offsets_start = offset_ + s.size();
  for (const Group& g : groups) {
    Bytes b;
    b.u8(static_cast<std::uint8_t>(g.op)).u64(g.start).u64(g.length);
    s += make_record(Op::SummaryOffset, b.data());
  }
  // the footer: its CRC covers the summary up to and including summary_offset_start
  Bytes footer;
  footer.u8(static_cast<std::uint8_t>(Op::Footer)).u64(8 + 8 + 4).u64(offset_).u64(offsets_start);
  s += footer.data();
  Bytes crc;
  crc.u32(crc32(0, s.data(), s.size()));
  return s + crc.data();
}

bool McapWriter::close() {
  if (closed_) return ok();
  closed_ = true;
  if (file_ == nullptr) return false;
  flush_chunk();
  Bytes end;
  end.u32(data_crc_);  // everything before this record, magic included
  emit_record(Op::DataEnd, end.data());
  emit(summary());
  emit(std::string(kMagic));
  if (std::fclose(file_) != 0) fail("closing");
  file_ = nullptr;
  return ok();
}

}  // namespace clamsim::record
