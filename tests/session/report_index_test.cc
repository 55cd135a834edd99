// session/report_index.cc: the instructor's list of finished reports, and reading one by
// name without ever leaving the report directory.
#include "session/report_index.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace clamsim::session {
namespace {

namespace fs = std::filesystem;

class ReportDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("clamsim-report-index-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  static std::string report(const std::string& session, double total, const char* outcome) {
    return R"({"schema": "clamsim-report/1", "session": ")" + session +
           R"(", "task": "Clear the trash rack", "ended_utc": "2026-11-21T21:50:01Z", "outcome": ")" +
           outcome + R"(", "elapsed_s": 312.5, "delivered": 3, "required": 3, "total": )" +
           std::to_string(total) + "}";
  }
  std::string dir() const { return dir_.string(); }
  fs::path dir_;
};

TEST(ReportNames, OnlyWhatTheServerWritesIsAReportName) {
  for (const char* ok : {"report-3-20261121T215001Z.json", "report-12-20261121T215001Z-2.json"})
    EXPECT_TRUE(is_report_name(ok)) << ok;
  for (const char* bad :
       {"", "report-3-20261121T215001Z", "../report-3-20261121T215001Z.json",
        "report-3-20261121T215001Z.json/", "sub/report-3-20261121T215001Z.json",
        ".report-3-20261121T215001Z.json", "report-x-20261121T215001Z.json",
        "report-3-2026-11-21.json", "report-3-20261121T215001Z.json.bak", "passwd",
        "report-3-20261121T215001Z.JSON", "report-3-20261121T215001Z-.json"})
    EXPECT_FALSE(is_report_name(bad)) << bad;
}

TEST_F(ReportDir, ListsNewestFirstWithTheirSummaries) {
  write("report-1-20261121T090000Z.json", report("session 1 (t250, dam_intake)", 90, "completed"));
  write("report-7-20261121T100000Z.json", report("session 7 (t250, dam_intake)", 0, "timed out"));
  write("report-7-20261121T100000Z-2.json", report("session 7 (t250, dam_intake)", 55, "completed"));
  write("report-2-20261120T235959Z.json", "{ not json");
  write("notes.txt", "not a report");
  write("report-9-20261121T110000Z.json", R"({"schema": "other/1"})");
  const std::vector<ReportSummary> r = list_reports(dir(), 100);
  ASSERT_EQ(r.size(), 5u) << "notes.txt is not listed";
  EXPECT_EQ(r[0].name, "report-9-20261121T110000Z.json");
  EXPECT_EQ(r[0].outcome, "unreadable") << "another schema";
  EXPECT_EQ(r[1].name, "report-7-20261121T100000Z-2.json");
  EXPECT_EQ(r[1].outcome, "completed");
  EXPECT_DOUBLE_EQ(r[1].total, 55.0);
  EXPECT_EQ(r[2].name, "report-7-20261121T100000Z.json");
  EXPECT_EQ(r[2].outcome, "timed out");
  EXPECT_EQ(r[3].session, "session 1 (t250, dam_intake)");
  EXPECT_EQ(r[3].task, "Clear the trash rack");
  EXPECT_EQ(r[3].ended_utc, "2026-11-21T21:50:01Z");
  EXPECT_DOUBLE_EQ(r[3].elapsed_s, 312.5);
  EXPECT_EQ(r[3].delivered, 3);
  EXPECT_EQ(r[3].required, 3);
  EXPECT_EQ(r[4].name, "report-2-20261120T235959Z.json");
  EXPECT_EQ(r[4].outcome, "unreadable") << "broken JSON is listed, not fatal";

  const std::vector<ReportSummary> two = list_reports(dir(), 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[1].name, "report-7-20261121T100000Z-2.json");
}

TEST_F(ReportDir, AMissingDirectoryHasNoReports) {
  EXPECT_TRUE(list_reports((dir_ / "nosuch").string(), 10).empty());
  EXPECT_TRUE(list_reports("", 10).empty());
}

TEST_F(ReportDir, ReadsAReportByNameAndNothingElse) {
  const std::string text = report("session 1 (t250, dam_intake)", 90, "completed");
  write("report-1-20261121T090000Z.json", text);
  ASSERT_TRUE(read_report(dir(), "report-1-20261121T090000Z.json").has_value());
  EXPECT_EQ(*read_report(dir(), "report-1-20261121T090000Z.json"), text);
  EXPECT_FALSE(read_report(dir(), "report-2-20261121T090000Z.json")) << "no such file";
  // a real file next to the directory, reachable only by a path: refused by name
  std::ofstream(dir_.parent_path() / "report-1-20261121T090000Z.json.secret") << "x";
  EXPECT_FALSE(read_report(dir(), "../report-1-20261121T090000Z.json.secret"));
  EXPECT_FALSE(read_report(dir(), "/etc/passwd"));
  fs::remove(dir_.parent_path() / "report-1-20261121T090000Z.json.secret");
}

}  // namespace
}  // namespace clamsim::session
