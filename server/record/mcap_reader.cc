#include "record/mcap_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <zstd.h>

#include "record/crc32.h"
#include "record/mcap_format.h"

namespace clamsim::record {

namespace {

// Reads fields from one record's content; running past its end is a malformed record.
class Cursor {
 public:
  Cursor(const std::string& s, std::size_t begin, std::size_t end, std::string what)
      : s_(s), at_(begin), end_(end), what_(std::move(what)) {}
  std::uint64_t le(int n) {
    need(static_cast<std::size_t>(n));
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(s_[at_ + i])) << (8 * i);
    at_ += static_cast<std::size_t>(n);
    return v;
  }
  std::uint8_t u8() { return static_cast<std::uint8_t>(le(1)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(le(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(le(4)); }
  std::uint64_t u64() { return le(8); }
  std::string bytes(std::uint64_t n) {
    need(n);
    std::string v = s_.substr(at_, static_cast<std::size_t>(n));
    at_ += static_cast<std::size_t>(n);
    return v;
  }
  std::string str() { return bytes(u32()); }
  std::map<std::string, std::string> str_map() {
    const std::size_t stop = at_ + checked(u32());
    std::map<std::string, std::string> m;
    while (at_ < stop) {
      std::string k = str();
      m[k] = str();
    }
    return m;
  }
  std::size_t at() const { return at_; }
  std::size_t left() const { return end_ - at_; }

 private:
  std::size_t checked(std::uint64_t n) { need(n); return static_cast<std::size_t>(n); }
  void need(std::uint64_t n) const {
    if (n > end_ - at_)
      throw McapError(what_ + " is malformed: a field runs past its end at byte " +
                      std::to_string(at_));
  }
  const std::string& s_;
  std::size_t at_, end_;
  std::string what_;
};

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}

  McapFile read() {
    if (s_.size() < kMagic.size() || s_.compare(0, kMagic.size(), kMagic) != 0)
      throw McapError("not an MCAP file (no MCAP magic at its start)");
    std::size_t at = kMagic.size();
    for (std::uint64_t n = 1;; ++n) {
      if (at == s_.size()) {
        f_.truncated = "ends after record " + std::to_string(n - 1) + " at byte " +
                       std::to_string(at) + " without its summary";
        break;
      }
      if (s_.size() - at < kRecordPrefix ||
          Cursor(s_, at + 1, at + kRecordPrefix, "").u64() > s_.size() - at - kRecordPrefix) {
        f_.truncated = "record " + std::to_string(n) + " truncated at byte " + std::to_string(s_.size());
        break;
      }
      const auto op = static_cast<std::uint8_t>(s_[at]);
      const std::size_t len = static_cast<std::size_t>(Cursor(s_, at + 1, at + kRecordPrefix, "").u64());
      const std::size_t begin = at + kRecordPrefix, end = begin + len;
      if (n == 1 && op != static_cast<std::uint8_t>(Op::Header))
        throw McapError("not an MCAP file (its first record is not a header)");
      if (op == static_cast<std::uint8_t>(Op::DataEnd)) {
        data_end(at, begin, end);
        return f_;
      }
      f_.records.push_back({op, at, end});
      top_level(op, begin, end, "record " + std::to_string(n) + " at byte " + std::to_string(at));
      at = end;
    }
    return f_;
  }

 private:
  void top_level(std::uint8_t op, std::size_t begin, std::size_t end, const std::string& what) {
    Cursor c(s_, begin, end, what);
    switch (static_cast<Op>(op)) {
      case Op::Header:
        f_.profile = c.str();
        f_.library = c.str();
        break;
      case Op::Chunk:
        chunk(c, what);
        break;
      case Op::Metadata: {
        McapMetadata m;
        m.name = c.str();
        m.values = c.str_map();
        f_.metadata.push_back(std::move(m));
        break;
      }
      default:
        in_chunk_or_data(op, c, what);
    }
  }

  // Records that may stand in the data section or inside a chunk.
  void in_chunk_or_data(std::uint8_t op, Cursor& c, const std::string& what) {
    switch (static_cast<Op>(op)) {
      case Op::Schema: {
        McapSchema s;
        s.id = c.u16();
        s.name = c.str();
        s.encoding = c.str();
        s.data = c.str();
        f_.schemas[s.id] = std::move(s);
        break;
      }
      case Op::Channel: {
        McapChannel ch;
        ch.id = c.u16();
        ch.schema_id = c.u16();
        ch.topic = c.str();
        ch.message_encoding = c.str();
        ch.metadata = c.str_map();
        if (ch.schema_id != 0 && f_.schemas.count(ch.schema_id) == 0)
          throw McapError(what + ": channel " + ch.topic + " names schema " +
                          std::to_string(ch.schema_id) + ", which comes nowhere before it");
        f_.channels[ch.id] = std::move(ch);
        break;
      }
      case Op::Message: {
        McapMessage m;
        m.channel_id = c.u16();
        m.sequence = c.u32();
        m.log_time_ns = c.u64();
        m.publish_time_ns = c.u64();
        m.data = c.bytes(c.left());
        if (f_.channels.count(m.channel_id) == 0)
          throw McapError(what + ": a message on channel " + std::to_string(m.channel_id) +
                          ", which is defined nowhere before it");
        f_.messages.push_back(std::move(m));
        break;
      }
      default:
        break;  // indices, attachments and records of later versions: skipped by length
    }
  }

  void chunk(Cursor& c, const std::string& what) {
    c.u64();  // message start time
    c.u64();  // message end time
    const std::uint64_t size = c.u64();  // of the uncompressed records
    const std::uint32_t crc = c.u32();   // of the uncompressed records
    const std::string compression = c.str();
    const std::uint64_t n = c.u64();
    const std::size_t begin = c.at();
    if (n != c.left())
      throw McapError(what + ": chunk's records are " + std::to_string(n) +
                      " bytes, the record holds " + std::to_string(c.left()));
    std::string inflated;
    const std::string* records = &s_;
    std::size_t at = begin, end = begin + static_cast<std::size_t>(n);
    if (compression == "zstd") {
      inflated = unzstd(begin, static_cast<std::size_t>(n), size, what);
      records = &inflated;
      at = 0;
      end = inflated.size();
    } else if (!compression.empty()) {
      throw McapError(what + ": chunk compressed with '" + compression +
                      "', which this reader does not read (valid: \"\" for none, \"zstd\")");
    } else if (n != size) {
      throw McapError(what + ": chunk's records are " + std::to_string(n) +
                      " bytes, its header says " + std::to_string(size));
    }
    if (crc != 0 && crc32(0, records->data() + at, end - at) != crc)
      throw McapError(what + ": chunk CRC mismatch (the file is damaged)");
    const std::string& r = *records;
    while (at < end) {
      if (end - at < kRecordPrefix) throw McapError(what + ": a record in the chunk is cut short");
      const auto op = static_cast<std::uint8_t>(r[at]);
      const std::uint64_t len = Cursor(r, at + 1, at + kRecordPrefix, "").u64();
      if (len > end - at - kRecordPrefix)
        throw McapError(what + ": a record in the chunk runs past the chunk's end");
      Cursor inner(r, at + kRecordPrefix, at + kRecordPrefix + static_cast<std::size_t>(len), what);
      in_chunk_or_data(op, inner, what);
      at += kRecordPrefix + static_cast<std::size_t>(len);
    }
  }

  // A zstd chunk's records, checked against the size its header declares before and after.
  std::string unzstd(std::size_t begin, std::size_t n, std::uint64_t size, const std::string& what) {
    // a damaged or crafted size must not allocate the world: 1 GiB for all chunks together
    constexpr std::uint64_t kMaxInflated = 1ULL << 30;
    const char* src = s_.data() + begin;
    const unsigned long long declared = ZSTD_getFrameContentSize(src, n);
    if (declared == ZSTD_CONTENTSIZE_ERROR)
      throw McapError(what + ": zstd chunk is damaged (its data is not a zstd frame)");
    // one frame (what McapWriter writes) must say the header's size; several are summed below
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != size &&
        ZSTD_findFrameCompressedSize(src, n) == n)
      throw McapError(what + ": zstd chunk holds " + std::to_string(declared) +
                      " bytes uncompressed, its header says " + std::to_string(size) +
                      " (the file is damaged)");
    if (size > kMaxInflated - inflated_)
      throw McapError(what + ": zstd chunk of " + std::to_string(size) + " bytes uncompressed, after " +
                      std::to_string(inflated_) + " in earlier chunks: more than this reader takes (1 GiB)");
    inflated_ += size;
    std::string out(static_cast<std::size_t>(size), '\0');
    const std::size_t got = ZSTD_decompress(out.data(), out.size(), src, n);
    if (ZSTD_isError(got) != 0)
      throw McapError(what + ": zstd chunk is damaged (" + ZSTD_getErrorName(got) + ")");
    if (got != size)
      throw McapError(what + ": zstd chunk holds " + std::to_string(got) +
                      " bytes uncompressed, its header says " + std::to_string(size) +
                      " (the file is damaged)");
    return out;
  }

  // Data end: check the data CRC, then the summary and footer when they are all there.
  void data_end(std::size_t at, std::size_t begin, std::size_t end) {
    Cursor c(s_, begin, end, "data end at byte " + std::to_string(at));
    const std::uint32_t crc = c.u32();
    if (crc != 0 && crc32(0, s_.data(), at) != crc)
      throw McapError("data section CRC mismatch (the file is damaged)");
    const std::size_t footer_len = kRecordPrefix + 20;
    if (s_.size() < end + footer_len + kMagic.size() ||
        s_.compare(s_.size() - kMagic.size(), kMagic.size(), kMagic) != 0) {
      f_.truncated = "summary truncated at byte " + std::to_string(s_.size());
      return;
    }
    const std::size_t footer = s_.size() - kMagic.size() - footer_len;
    Cursor fc(s_, footer + kRecordPrefix, footer + footer_len, "footer");
    if (static_cast<std::uint8_t>(s_[footer]) != static_cast<std::uint8_t>(Op::Footer))
      throw McapError("not an MCAP file (no footer before the closing magic)");
    const std::uint64_t summary_start = fc.u64();
    fc.u64();  // summary offset start
    const std::uint32_t summary_crc = fc.u32();
    if (summary_start != 0) {
      if (summary_start < end || summary_start > footer)
        throw McapError("footer names a summary outside the file");
      if (summary_crc != 0 &&
          crc32(0, s_.data() + summary_start, footer + kRecordPrefix + 16 - summary_start) != summary_crc)
        throw McapError("summary CRC mismatch (the file is damaged)");
      summary(static_cast<std::size_t>(summary_start), footer);
    }
    f_.complete = true;
  }

  void summary(std::size_t at, std::size_t stop) {
    while (at < stop) {
      if (stop - at < kRecordPrefix) throw McapError("summary: a record is cut short");
      const auto op = static_cast<std::uint8_t>(s_[at]);
      const std::uint64_t len = Cursor(s_, at + 1, at + kRecordPrefix, "").u64();
      if (len > stop - at - kRecordPrefix) throw McapError("summary: a record runs past its end");
      const std::size_t begin = at + kRecordPrefix;
      if (op == static_cast<std::uint8_t>(Op::Statistics)) {
        Cursor c(s_, begin, begin + static_cast<std::size_t>(len), "statistics");
        McapStatistics st;
        st.message_count = c.u64();
        c.u16();  // schemas
        c.u32();  // channels
        c.u32();  // attachments
        c.u32();  // metadata
        st.chunk_count = c.u32();
        c.u64();
        c.u64();
        const std::size_t map_end = c.at() + c.u32();
        while (c.at() < map_end) {
          const std::uint16_t ch = c.u16();
          st.channel_message_counts[ch] = c.u64();
        }
        f_.statistics = st;
      }
      at = begin + static_cast<std::size_t>(len);
    }
  }

  const std::string& s_;
  McapFile f_;
  std::uint64_t inflated_ = 0;   // bytes of all zstd chunks so far
};

}  // namespace

const McapChannel* McapFile::channel(const std::string& topic) const {
  for (const auto& [id, c] : channels)
    if (c.topic == topic) return &c;
  return nullptr;
}

McapFile read_mcap(const std::string& bytes) { return Reader(bytes).read(); }

std::string read_regular_file(const std::string& path, std::uint64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw McapError("cannot read " + path + ": " + std::strerror(errno));
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw McapError("cannot read " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw McapError("cannot read " + path + ": not a regular file (a FIFO, device or directory)");
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw McapError(path + " is " + std::to_string(st.st_size) + " bytes, more than the " +
                    std::to_string(max_bytes) + " a recording may be");
  std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw McapError("cannot read " + path + ": " + std::strerror(errno));
    if (n == 0) break;   // shrank while read: what is there
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

McapFile read_mcap_file(const std::string& path, std::uint64_t max_bytes) {
  const std::string bytes = read_regular_file(path, max_bytes);
  try {
    return read_mcap(bytes);
  } catch (const McapError& e) {
    throw McapError(path + ": " + e.what());
  }
}

}  // namespace clamsim::record
