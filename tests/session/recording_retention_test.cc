#include "session/recording_retention.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "record/mcap_writer.h"

namespace clamsim::session {
namespace {

namespace fs = std::filesystem;

class Retention : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "clamsim-retention-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  // A finished recording of `bytes` bytes, last written `days` ago.
  std::string file(const std::string& name, std::size_t bytes, double days) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << std::string(bytes, 'x');
    fs::last_write_time(path, fs::file_time_type::clock::now() -
                                  std::chrono::duration_cast<fs::file_time_type::duration>(
                                      std::chrono::duration<double>(days * 86400.0)));
    return path;
  }
  fs::path dir_;
};

TEST_F(Retention, OldestGoFirstUntilTheSizeFits) {
  const auto a = file("a.mcap", 400000, 3), b = file("b.mcap", 400000, 2),
             c = file("c.mcap", 400000, 1);
  const auto removed = prune_recordings(dir_.string(), {0.0, 0.5}, std::chrono::system_clock::now());
  ASSERT_EQ(removed.size(), 2U);
  EXPECT_EQ(removed[0], a);
  EXPECT_EQ(removed[1], b);
  EXPECT_TRUE(fs::exists(c));
}

TEST_F(Retention, OlderThanTheAgeLimitGo) {
  const auto old = file("old.mcap", 10, 40), young = file("young.mcap", 10, 5);
  const auto other = file("notes.txt", 10, 400);
  const auto removed = prune_recordings(dir_.string(), {30.0, 0.0}, std::chrono::system_clock::now());
  ASSERT_EQ(removed.size(), 1U);
  EXPECT_EQ(removed[0], old);
  EXPECT_TRUE(fs::exists(young));
  EXPECT_TRUE(fs::exists(other)) << "only recordings are pruned";
  // "now" a month later: the young one is old too
  const auto later = std::chrono::system_clock::now() + std::chrono::hours(24 * 30);
  EXPECT_EQ(prune_recordings(dir_.string(), {30.0, 0.0}, later).size(), 1U);
}

TEST_F(Retention, ALiveRecordingIsNeverRemoved) {
  const std::string live = (dir_ / "live.mcap").string();
  record::McapWriter w(live, {});
  ASSERT_TRUE(w.ok());
  const auto done = file("done.mcap", 100, 1);
  fs::last_write_time(live, fs::file_time_type::clock::now() - std::chrono::hours(24 * 100));
  auto removed = prune_recordings(dir_.string(), {1.0, 0.000001}, std::chrono::system_clock::now());
  ASSERT_EQ(removed.size(), 1U);
  EXPECT_EQ(removed[0], done);
  EXPECT_TRUE(fs::exists(live));
  ASSERT_TRUE(w.close());
  removed = prune_recordings(dir_.string(), {1.0, 0.000001}, std::chrono::system_clock::now());
  EXPECT_EQ(removed.size(), 1U) << "once finished, it may go";
}

TEST_F(Retention, NoLimitsRemoveNothing) {
  file("a.mcap", 10, 1000);
  EXPECT_TRUE(prune_recordings(dir_.string(), {}, std::chrono::system_clock::now()).empty());
  EXPECT_TRUE(prune_recordings("/nonexistent/dir", {1.0, 1.0}, std::chrono::system_clock::now()).empty());
}

}  // namespace
}  // namespace clamsim::session
