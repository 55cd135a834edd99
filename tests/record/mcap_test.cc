#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "record/crc32.h"
#include "record/mcap_format.h"
#include "record/mcap_reader.h"
#include "record/mcap_writer.h"

namespace clamsim::record {
namespace {

namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& c : test)
    if (c == '/') c = '-';   // a parameterized test's name: RoundTrip/zstd
  return (fs::temp_directory_path() /
          (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
           test + ".mcap"))
      .string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Two channels over 3 s of log time: with 1 s chunks, three chunks, plus a metadata record.
std::string write_small(const std::string& path, const std::string& compression = "zstd") {
  McapWriterOptions o;
  o.chunk_duration_ns = 1000000000;
  o.compression = compression;
  McapWriter w(path, o);
  EXPECT_TRUE(w.ok()) << w.error();
  const auto schema = w.add_schema("Tick", "jsonschema", R"({"type":"object"})");
  const auto a = w.add_channel(schema, "/a", "json", {{"k", "v"}});
  const auto b = w.add_channel(schema, "/b", "json");
  w.write_metadata("run", {{"model", "t250"}, {"trainee", "Ann"}});
  for (int i = 0; i < 12; ++i) {
    const std::uint64_t t = 250000000ULL * static_cast<std::uint64_t>(i);
    w.write_message(a, t, t, "{\"i\":" + std::to_string(i) + "}");
    if (i % 3 == 0) w.write_message(b, t, t, "{\"j\":" + std::to_string(i) + "}");
  }
  EXPECT_TRUE(w.close()) << w.error();
  return slurp(path);
}

// A Chunk record's fields, found from its offset (mcap.dev/spec, Chunk op=0x06).
struct ChunkFields {
  std::size_t uncompressed_size, crc, compression, payload, end;
};
ChunkFields chunk_fields(const std::string& bytes, const McapRecordSpan& r) {
  const std::size_t content = r.offset + kRecordPrefix;
  const std::size_t compression = content + 8 + 8 + 8 + 4;
  const std::size_t name_len = static_cast<unsigned char>(bytes[compression]);
  return {content + 16, content + 24, compression, compression + 4 + name_len + 8, r.end};
}

std::vector<McapRecordSpan> chunk_spans(const McapFile& f) {
  std::vector<McapRecordSpan> v;
  for (const McapRecordSpan& r : f.records)
    if (r.opcode == static_cast<std::uint8_t>(Op::Chunk)) v.push_back(r);
  return v;
}

std::uint64_t le_at(const std::string& bytes, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]))
         << (8 * i);
  return v;
}

// the tests that hold for either compression the writer writes
class McapBoth : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Compression, McapBoth, ::testing::Values("", "zstd"),
                         [](const auto& p) { return p.param.empty() ? "none" : p.param; });

TEST_P(McapBoth, RoundTrip) {
  const std::string path = temp_path("roundtrip");
  const std::string bytes = write_small(path, GetParam());
  const McapFile f = read_mcap_file(path);
  EXPECT_TRUE(f.complete);
  EXPECT_EQ(f.truncated, "");
  EXPECT_EQ(f.library, "clamsim");
  ASSERT_EQ(f.schemas.size(), 1U);
  EXPECT_EQ(f.schemas.at(1).encoding, "jsonschema");
  EXPECT_EQ(f.schemas.at(1).data, R"({"type":"object"})");
  ASSERT_NE(f.channel("/a"), nullptr);
  EXPECT_EQ(f.channel("/a")->message_encoding, "json");
  EXPECT_EQ(f.channel("/a")->metadata.at("k"), "v");
  ASSERT_EQ(f.messages.size(), 16U);
  EXPECT_EQ(f.messages[0].data, "{\"i\":0}");
  EXPECT_EQ(f.messages[1].data, "{\"j\":0}");
  EXPECT_EQ(f.messages.back().data, "{\"i\":11}");
  EXPECT_EQ(f.messages.back().log_time_ns, 2750000000ULL);
  EXPECT_EQ(f.messages.back().sequence, 11U);   // per channel, from 0
  ASSERT_EQ(f.metadata.size(), 1U);
  EXPECT_EQ(f.metadata[0].values.at("trainee"), "Ann");
  ASSERT_TRUE(f.statistics.has_value());
  EXPECT_EQ(f.statistics->message_count, 16U);
  EXPECT_EQ(f.statistics->chunk_count, 3U);   // one per second of log time
  EXPECT_EQ(f.statistics->channel_message_counts.at(2), 4U);
  // magic at both ends
  EXPECT_EQ(bytes.substr(0, 8), std::string(kMagic));
  EXPECT_EQ(bytes.substr(bytes.size() - 8), std::string(kMagic));
  fs::remove(path);
}

TEST_P(McapBoth, ChunksAreFlushedAsTheyClose) {
  // append-only: what a crash would leave is on disk before close()
  const std::string path = temp_path("flushed");
  McapWriterOptions o;
  o.compression = GetParam();
  McapWriter w(path, o);
  const auto ch = w.add_channel(0, "/x", "json");
  w.write_message(ch, 0, 0, "{}");
  w.write_message(ch, 1500000000, 1500000000, "{}");   // closes the first second's chunk
  const McapFile f = read_mcap(slurp(path));
  EXPECT_FALSE(f.complete);
  EXPECT_EQ(f.messages.size(), 1U);
  w.flush_chunk();
  EXPECT_EQ(read_mcap(slurp(path)).messages.size(), 2U);
  EXPECT_TRUE(w.close());
  fs::remove(path);
}

TEST(Mcap, DamagedChunkIsRefusedByItsCrc) {
  const std::string path = temp_path("crc");
  std::string bytes = write_small(path, "");   // the text is there to damage
  const std::size_t at = bytes.find("{\"i\":5}");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 5] = '6';
  try {
    read_mcap(bytes);
    FAIL() << "a damaged chunk was read";
  } catch (const McapError& e) {
    EXPECT_NE(std::string(e.what()).find("chunk CRC mismatch"), std::string::npos) << e.what();
  }
  fs::remove(path);
}

TEST_P(McapBoth, DamagedSummaryIsRefusedByItsCrc) {
  const std::string path = temp_path("summary");
  std::string bytes = write_small(path, GetParam());
  bytes[bytes.size() - 8 - 29 - 3] ^= 0x01;   // inside the last summary offset record
  EXPECT_THROW(read_mcap(bytes), McapError);
  fs::remove(path);
}

// Cut at every byte: what is read is exactly the records that end before the cut.
TEST_P(McapBoth, TruncatedAtEveryByteReadsUpToThePrecedingCompleteRecord) {
  const std::string path = temp_path("truncate");
  const std::string bytes = write_small(path, GetParam());
  const McapFile whole = read_mcap(bytes);
  ASSERT_GE(whole.records.size(), 8U);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    const std::string part = bytes.substr(0, cut);
    if (cut < kMagic.size()) {
      EXPECT_THROW(read_mcap(part), McapError) << cut;
      continue;
    }
    McapFile f;
    ASSERT_NO_THROW(f = read_mcap(part)) << "cut at " << cut;
    EXPECT_FALSE(f.complete) << cut;
    EXPECT_NE(f.truncated, "") << cut;
    // the records read are those of the whole file that end at or before the cut
    std::size_t expect_records = 0, boundary = kMagic.size();
    for (const McapRecordSpan& r : whole.records) {
      if (r.end > cut) break;
      ++expect_records;
      boundary = r.end;
    }
    ASSERT_EQ(f.records.size(), expect_records) << cut;
    // and the messages those complete records hold: the same as a cut at the boundary,
    // each equal to the whole file's message at its place
    ASSERT_EQ(f.messages.size(), read_mcap(bytes.substr(0, boundary)).messages.size()) << cut;
    for (std::size_t i = 0; i < f.messages.size(); ++i)
      ASSERT_EQ(f.messages[i].data, whole.messages[i].data) << cut;
  }
  fs::remove(path);
}

TEST_P(McapBoth, TruncatedMessageCountsFollowTheChunks) {
  const std::string path = temp_path("chunks");
  const std::string bytes = write_small(path, GetParam());
  const McapFile whole = read_mcap(bytes);
  std::vector<std::size_t> chunk_ends;
  for (const McapRecordSpan& r : whole.records)
    if (r.opcode == static_cast<std::uint8_t>(Op::Chunk)) chunk_ends.push_back(r.end);
  ASSERT_EQ(chunk_ends.size(), 3U);
  // first chunk: i = 0..3 on /a and j = 0, 3 on /b; the second: i = 4..7 and j = 6
  EXPECT_EQ(read_mcap(bytes.substr(0, chunk_ends[0] - 1)).messages.size(), 0U);
  EXPECT_EQ(read_mcap(bytes.substr(0, chunk_ends[0])).messages.size(), 6U);
  EXPECT_EQ(read_mcap(bytes.substr(0, chunk_ends[1])).messages.size(), 11U);
  const McapFile cut = read_mcap(bytes.substr(0, chunk_ends[1] + 3));
  EXPECT_EQ(cut.messages.size(), 11U);
  EXPECT_NE(cut.truncated.find("truncated at byte " + std::to_string(chunk_ends[1] + 3)),
            std::string::npos) << cut.truncated;
  fs::remove(path);
}

TEST(Mcap, ChunksAreZstdByDefault) {
  EXPECT_EQ(McapWriterOptions{}.compression, "zstd");
  const std::string path = temp_path("default");
  const std::string bytes = write_small(path);
  const McapFile f = read_mcap(bytes);
  const std::vector<McapRecordSpan> chunks = chunk_spans(f);
  ASSERT_EQ(chunks.size(), 3U);
  for (const McapRecordSpan& r : chunks) {
    const ChunkFields c = chunk_fields(bytes, r);
    EXPECT_EQ(bytes.substr(c.compression, 8), std::string("\x04\0\0\0zstd", 8));
  }
  fs::remove(path);
}

// uncompressed_size and uncompressed_crc describe the records before compression: the same
// as the uncompressed file's, field for field
TEST(Mcap, ZstdChunkSizeAndCrcAreOfTheUncompressedRecords) {
  const std::string pz = temp_path("z"), pn = temp_path("n");
  const std::string z = write_small(pz, "zstd"), n = write_small(pn, "");
  const std::vector<McapRecordSpan> cz = chunk_spans(read_mcap(z)), cn = chunk_spans(read_mcap(n));
  ASSERT_EQ(cz.size(), cn.size());
  for (std::size_t i = 0; i < cz.size(); ++i) {
    const ChunkFields fz = chunk_fields(z, cz[i]), fn = chunk_fields(n, cn[i]);
    EXPECT_EQ(le_at(z, fz.uncompressed_size, 8), le_at(n, fn.uncompressed_size, 8)) << i;
    EXPECT_EQ(le_at(n, fn.uncompressed_size, 8), fn.end - fn.payload) << i;
    EXPECT_EQ(le_at(z, fz.crc, 4), le_at(n, fn.crc, 4)) << i;
    EXPECT_NE(le_at(z, fz.crc, 4), 0U) << i;
    EXPECT_EQ(le_at(z, fz.payload - 8, 8), fz.end - fz.payload) << i;   // records' length
  }
  fs::remove(pz);
  fs::remove(pn);
}

TEST(Mcap, ZstdShrinksRepetitiveChunks) {
  const auto write = [](const std::string& path, const std::string& compression) {
    McapWriterOptions o;
    o.compression = compression;
    McapWriter w(path, o);
    const auto ch = w.add_channel(0, "/inputs", "json");
    for (int k = 1; k <= 1000; ++k) {
      const auto t = static_cast<std::uint64_t>(k) * 50000000ULL;
      w.write_message(ch, t, t, "{\"k\":" + std::to_string(k) +
                                    ",\"kind\":\"control\",\"volts\":[1.5,0,0," +
                                    std::to_string(k % 7) + ".125,0]}");
    }
    EXPECT_TRUE(w.close()) << w.error();
    return fs::file_size(path);
  };
  const std::string pz = temp_path("z"), pn = temp_path("n");
  const auto z = write(pz, "zstd"), n = write(pn, "");
  // the message indices after each chunk (16 bytes a message) stay uncompressed
  EXPECT_LT(z * 2, n) << z << " bytes compressed, " << n << " uncompressed";
  const McapFile f = read_mcap_file(pz);
  ASSERT_EQ(f.messages.size(), 1000U);
  EXPECT_EQ(f.messages[999].data, read_mcap_file(pn).messages[999].data);
  fs::remove(pz);
  fs::remove(pn);
}

// Any one byte of a zstd chunk's data damaged: refused with the chunk's offset (zstd's own
// error or the CRC of the uncompressed records), or, where zstd ignores the byte, by the data
// section's CRC; never read wrong.
TEST(Mcap, DamagedZstdChunkIsRefusedOrReadRight) {
  const std::string path = temp_path("zcrc");
  const std::string bytes = write_small(path, "zstd");
  const McapFile whole = read_mcap(bytes);
  const McapRecordSpan second = chunk_spans(whole)[1];
  const ChunkFields c = chunk_fields(bytes, second);
  const std::string where = "at byte " + std::to_string(second.offset);
  int refused = 0, crc = 0;
  for (std::size_t at = c.payload; at < c.end; ++at) {
    for (const int bit : {0x01, 0x80}) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(static_cast<unsigned char>(damaged[at]) ^ bit);
      try {
        read_mcap(damaged);
        ADD_FAILURE() << "damage at byte " << at << " was read";
      } catch (const McapError& e) {
        const std::string what = e.what();
        if (what.find("data section CRC mismatch") == std::string::npos) {
          EXPECT_NE(what.find(where), std::string::npos) << at << ": " << what;
          ++refused;
        }
        if (what.find("chunk CRC mismatch") != std::string::npos) ++crc;
      }
      // cut short before the data end, so that only the chunk can tell
      const std::size_t data_end = whole.records.back().end;
      try {
        const McapFile f = read_mcap(damaged.substr(0, data_end));
        ASSERT_EQ(f.messages.size(), whole.messages.size()) << at;
        for (std::size_t i = 0; i < f.messages.size(); ++i)
          ASSERT_EQ(f.messages[i].data, whole.messages[i].data) << at;
      } catch (const McapError& e) {
        EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << at << ": " << e.what();
      }
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(crc, 0) << "no damage got past zstd to the chunk's CRC";
  fs::remove(path);
}

TEST(Mcap, ZstdChunkWithAWrongCrcOrSizeIsRefused) {
  const std::string path = temp_path("zfields");
  const std::string bytes = write_small(path, "zstd");
  const McapRecordSpan first = chunk_spans(read_mcap(bytes))[0];
  const ChunkFields c = chunk_fields(bytes, first);
  const std::string where = "at byte " + std::to_string(first.offset);
  std::string bad_crc = bytes;
  bad_crc[c.crc] ^= 0x10;
  try {
    read_mcap(bad_crc);
    FAIL() << "a wrong CRC was read";
  } catch (const McapError& e) {
    EXPECT_NE(std::string(e.what()).find(where + ": chunk CRC mismatch"), std::string::npos) << e.what();
  }
  std::string bad_size = bytes;
  const std::uint64_t size = le_at(bytes, c.uncompressed_size, 8);
  bad_size[c.uncompressed_size] = static_cast<char>(size + 1);   // small: the low byte
  ASSERT_LT(size, 255U);
  try {
    read_mcap(bad_size);
    FAIL() << "a wrong size was read";
  } catch (const McapError& e) {
    EXPECT_NE(std::string(e.what()).find(where + ": zstd chunk holds " + std::to_string(size) +
                                         " bytes uncompressed, its header says " +
                                         std::to_string(size + 1)),
              std::string::npos) << e.what();
  }
  fs::remove(path);
}

TEST(Mcap, UnknownCompressionIsNamedWithTheValidOnes) {
  std::string file(kMagic);
  Bytes header;
  header.str("").str("other");
  file += make_record(Op::Header, header.data());
  const std::size_t chunk_at = file.size();
  Bytes chunk;
  chunk.u64(0).u64(0).u64(4).u32(0).str("lz4").u64(4).raw("abcd");
  file += make_record(Op::Chunk, chunk.data());
  try {
    read_mcap(file);
    FAIL() << "an lz4 chunk was read";
  } catch (const McapError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("at byte " + std::to_string(chunk_at) + ": chunk compressed with 'lz4'"),
              std::string::npos) << what;
    EXPECT_NE(what.find(R"(valid: "" for none, "zstd")"), std::string::npos) << what;
  }
  // and the writer refuses to write one
  const std::string path = temp_path("lz4");
  McapWriterOptions o;
  o.compression = "lz4";
  McapWriter w(path, o);
  EXPECT_FALSE(w.ok());
  EXPECT_NE(w.error().find("unknown chunk compression 'lz4'"), std::string::npos) << w.error();
  EXPECT_FALSE(w.close());
  EXPECT_FALSE(fs::exists(path));
}

TEST(Mcap, GarbageIsNotAnMcapFile) {
  for (const std::string& junk : {std::string(), std::string("hello world, not a recording"),
                                  std::string("{\"type\":\"report\"}"), std::string(100, '\0')}) {
    try {
      read_mcap(junk);
      FAIL() << "read '" << junk << "'";
    } catch (const McapError& e) {
      EXPECT_NE(std::string(e.what()).find("not an MCAP file"), std::string::npos) << e.what();
    }
  }
  // the magic followed by something that is not a header
  std::string fake(kMagic);
  fake += make_record(Op::Message, std::string(30, 'x'));
  EXPECT_THROW(read_mcap(fake), McapError);
}

TEST(Mcap, MissingFileIsNamed) {
  try {
    read_mcap_file("/nonexistent/dir/run.mcap");
    FAIL();
  } catch (const McapError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/run.mcap"), std::string::npos);
  }
}

TEST(Mcap, UnwritablePathIsReported) {
  McapWriter w("/nonexistent/dir/run.mcap", {});
  EXPECT_FALSE(w.ok());
  EXPECT_NE(w.error().find("cannot write /nonexistent/dir/run.mcap"), std::string::npos);
  EXPECT_FALSE(w.close());
}

}  // namespace
}  // namespace clamsim::record
