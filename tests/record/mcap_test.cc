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
  return (fs::temp_directory_path() /
          (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".mcap"))
      .string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Two channels over 3 s of log time: with 1 s chunks, three chunks, plus a metadata record.
std::string write_small(const std::string& path) {
  McapWriterOptions o;
  o.chunk_duration_ns = 1000000000;
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

TEST(Mcap, RoundTrip) {
  const std::string path = temp_path("roundtrip");
  const std::string bytes = write_small(path);
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

TEST(Mcap, ChunksAreFlushedAsTheyClose) {
  // append-only: what a crash would leave is on disk before close()
  const std::string path = temp_path("flushed");
  McapWriter w(path, {});
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
  std::string bytes = write_small(path);
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

TEST(Mcap, DamagedSummaryIsRefusedByItsCrc) {
  const std::string path = temp_path("summary");
  std::string bytes = write_small(path);
  bytes[bytes.size() - 8 - 29 - 3] ^= 0x01;   // inside the last summary offset record
  EXPECT_THROW(read_mcap(bytes), McapError);
  fs::remove(path);
}

// Cut at every byte: what is read is exactly the records that end before the cut.
TEST(Mcap, TruncatedAtEveryByteReadsUpToThePrecedingCompleteRecord) {
  const std::string path = temp_path("truncate");
  const std::string bytes = write_small(path);
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

TEST(Mcap, TruncatedMessageCountsFollowTheChunks) {
  const std::string path = temp_path("chunks");
  const std::string bytes = write_small(path);
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
