// training/report_index.cc: the instructor's list of finished reports, and reading one by
// name without ever leaving the report directory.
#include "training/report_index.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "training/report_file.h"

namespace clamsim::training {
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

// Two crashes found by the security review (docs/security.md, 2. Report folder): `schema`
// of another type, and a session number too large
// for any integer. Both ended the process through std::terminate.
TEST_F(ReportDir, ASchemaOfAnotherTypeOrAHugeSessionNumberIsListedNotFatal) {
  write("report-1-20261121T090000Z.json", R"({"schema": 5})");
  write("report-2-20261121T090000Z.json", R"({"schema": ["clamsim-report/1"]})");
  write("report-3-20261121T090000Z.json", R"({"schema": null})");
  write("report-4-20261121T090000Z.json", R"({"schema": {"v": 1}})");
  write("report-99999999999999999999-20261121T090000Z.json",
        report("session 99999999999999999999 (t250)", 10, "completed"));
  write("report-00000000000000000005-20261121T090000Z.json", R"({"schema": true})");
  std::vector<ReportSummary> r;
  ASSERT_NO_THROW(r = list_reports(dir(), 100));
  ASSERT_EQ(r.size(), 6u);
  // same time: the larger session number first, compared as digits
  EXPECT_EQ(r[0].name, "report-99999999999999999999-20261121T090000Z.json");
  EXPECT_EQ(r[0].outcome, "completed");
  EXPECT_EQ(r[1].name, "report-00000000000000000005-20261121T090000Z.json");
  for (std::size_t i = 1; i < r.size(); ++i) EXPECT_EQ(r[i].outcome, "unreadable") << r[i].name;
  ReportIndex index(dir());
  EXPECT_NO_THROW(EXPECT_EQ(index.list(100).size(), 6u));
}

// Every kind of file an accident or an attacker with write access to the folder could
// leave: listed as unreadable or left out, never an exception, never a hang.
TEST_F(ReportDir, AFolderOfBadFilesNeverThrowsOrHangs) {
  const std::string good = report("session 1 (t250, dam_intake)", 90, "completed");
  int n = 0;
  const auto next = [&n] {
    ++n;
    return "report-" + std::to_string(n) + "-20261121T090000Z.json";
  };
  // truncated at every length
  for (std::size_t len = 0; len < good.size(); len += 7) write(next(), good.substr(0, len));
  // wrongly typed fields, numbers out of int range, strings far longer than a summary
  for (const char* body :
       {R"({"schema": "clamsim-report/1", "delivered": 1e300, "required": -1e300})",
        R"({"schema": "clamsim-report/1", "total": "lots", "elapsed_s": [1], "trainee": 7})",
        R"({"schema": "clamsim-report/1", "session": {"id": 1}, "outcome": null})",
        R"({"schema": "clamsim-report/1", "delivered": 18446744073709551615, "total": -0.0})",
        R"([1, 2, 3])", R"("just a string")", R"(42)", R"(null)", "",
        "\xff\xfe{\"schema\": \"clamsim-report/1\"}", "{\"schema\": \"clamsim-report/1\x80\"}"})
    write(next(), body);
  write(next(), R"({"schema": "clamsim-report/1", "trainee": ")" + std::string(100000, 'x') + "\"}");
  write(next(), std::string(200000, '[') + std::string(200000, ']'));  // deep nesting
  write(next(), std::string(kMaxReportBytes + 10, ' ') + good);          // too large
  // not regular files, named like reports: a link out of the folder, a dangling link, a
  // directory, a FIFO (opening it for reading would block without O_NONBLOCK)
  fs::create_symlink("/etc/passwd", dir_ / "report-500-20261121T090000Z.json");
  fs::create_symlink(dir_ / "nosuch", dir_ / "report-501-20261121T090000Z.json");
  fs::create_directory(dir_ / "report-502-20261121T090000Z.json");
  ASSERT_EQ(::mkfifo((dir_ / "report-503-20261121T090000Z.json").c_str(), 0600), 0);
  // wrongly named: never listed
  for (const char* name : {"report-1-20261121T090000Z.json~", "report--20261121T090000Z.json",
                           "report-123456789012345678901-20261121T090000Z.json",
                           "REPORT-1-20261121T090000Z.json", "report-1-20261121T090000Z-1234.json"})
    write(name, good);

  const std::size_t regular = static_cast<std::size_t>(n);
  std::vector<ReportSummary> r;
  ASSERT_NO_THROW(r = list_reports(dir(), 1000));
  EXPECT_EQ(r.size(), regular) << "every regular file named like a report, nothing else";
  for (const ReportSummary& s : r) {
    EXPECT_TRUE(is_report_name(s.name)) << s.name;
    EXPECT_LE(s.trainee.size(), kMaxSummaryText);
    EXPECT_LE(s.session.size(), kMaxSummaryText);
  }
  const auto find = [&](int k) {
    const std::string name = "report-" + std::to_string(k) + "-20261121T090000Z.json";
    for (const ReportSummary& s : r)
      if (s.name == name) return s;
    return ReportSummary{};
  };
  EXPECT_EQ(find(n).outcome, "unreadable") << "the file over kMaxReportBytes";
  EXPECT_EQ(find(n - 2).trainee.size(), kMaxSummaryText) << "a long name is cut";
  ReportIndex index(dir());
  EXPECT_NO_THROW(EXPECT_EQ(index.list(1000).size(), regular));
  for (int k = 500; k <= 503; ++k) {
    const std::string name = "report-" + std::to_string(k) + "-20261121T090000Z.json";
    EXPECT_FALSE(read_report(dir(), name)) << name << " is not a regular file";
  }
  EXPECT_FALSE(read_report(dir(), "report-" + std::to_string(n) + "-20261121T090000Z.json"))
      << "larger than kMaxReportBytes";
}

// Random bytes and random mutations of a real report, in bounded numbers and with a fixed
// seed (a failure is reproducible): listing and reading never throw.
TEST_F(ReportDir, RandomFilesNeverThrow) {
  std::mt19937 rng(18);
  const std::string good = report("session 1 (t250, dam_intake)", 90, "completed");
  static const char kBytes[] = "{}[]\":,0123456789.eE+-truefalsnl \\\0\x80\xff";
  const std::string alphabet(kBytes, sizeof kBytes - 1);  // with its NUL byte
  ReportIndex index(dir());
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 60; ++i) {
      std::string text;
      if (rng() % 2 == 0) {
        text = good;  // mutate a real report: flip, insert, delete bytes
        for (int k = static_cast<int>(rng() % 8); k >= 0; --k) {
          const std::size_t at = rng() % text.size();
          switch (rng() % 3) {
            case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
            case 1: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
            default: text.erase(at, 1 + rng() % 20); break;
          }
          if (text.empty()) text = "{";
        }
      } else {
        text.resize(rng() % 300);
        for (char& c : text) c = alphabet[rng() % alphabet.size()];
      }
      write("report-" + std::to_string(round * 100 + i) + "-20261121T090000Z.json", text);
    }
    std::vector<ReportSummary> listed, indexed;
    ASSERT_NO_THROW(listed = list_reports(dir(), 1000));
    ASSERT_NO_THROW(indexed = index.list(1000));
    ASSERT_EQ(listed.size(), static_cast<std::size_t>((round + 1) * 60));
    ASSERT_EQ(indexed.size(), listed.size());
    for (std::size_t k = 0; k < listed.size(); ++k) {
      EXPECT_EQ(indexed[k].name, listed[k].name);
      EXPECT_EQ(indexed[k].outcome, listed[k].outcome) << listed[k].name;
      ASSERT_NO_THROW(read_report(dir(), listed[k].name));
    }
  }
}

TEST_F(ReportDir, ReadingNeverFollowsALinkNorServesADirectory) {
  fs::create_symlink("/etc/passwd", dir_ / "report-1-20261121T090000Z.json");
  fs::create_directory(dir_ / "report-2-20261121T090000Z.json");
  EXPECT_FALSE(read_report(dir(), "report-1-20261121T090000Z.json")) << "a link to /etc/passwd";
  EXPECT_FALSE(read_report(dir(), "report-2-20261121T090000Z.json")) << "a directory";
  EXPECT_TRUE(list_reports(dir(), 10).empty());
}

// The index learns of reports as write_report_file writes them and reads each other file
// once; a file changed behind its back is read again.
TEST_F(ReportDir, TheIndexParsesEachReportOnceAndWrittenReportsNever) {
  ReportIndex& index = report_index_for(dir());
  const std::uint64_t parsed_before = index.files_parsed();
  std::string error;
  const auto when = std::chrono::system_clock::time_point(std::chrono::seconds(1795000000));
  for (int i = 1; i <= 30; ++i)
    ASSERT_FALSE(write_report_file(dir(), static_cast<std::uint64_t>(i), when,
                                   report("session " + std::to_string(i) + " (t250)", i,
                                          "completed"),
                                   &error)
                     .empty())
        << error;
  std::vector<ReportSummary> r = index.list(100);
  ASSERT_EQ(r.size(), 30u);
  EXPECT_EQ(r[0].session, "session 30 (t250)");
  EXPECT_DOUBLE_EQ(r[0].total, 30.0);
  EXPECT_EQ(index.files_parsed(), parsed_before) << "reports this server wrote are not re-read";

  write("report-99-20261121T090000Z.json", report("session 99 (t250)", 5, "timed out"));
  for (int i = 0; i < 5; ++i) r = index.list(100);
  EXPECT_EQ(index.files_parsed(), parsed_before + 1) << "a file from elsewhere is read once";
  ASSERT_EQ(r.size(), 31u);

  // changed behind the index's back (a longer text: the size differs): read again
  write("report-99-20261121T090000Z.json", report("session 99 (t250, again)", 7, "completed"));
  r = index.list(100);
  EXPECT_EQ(index.files_parsed(), parsed_before + 2);
  bool seen = false;
  for (const ReportSummary& s : r)
    if (s.name == "report-99-20261121T090000Z.json") {
      seen = true;
      EXPECT_EQ(s.outcome, "completed");
      EXPECT_EQ(s.session, "session 99 (t250, again)");
    }
  EXPECT_TRUE(seen);
  // a removed file leaves the list
  fs::remove(dir_ / "report-99-20261121T090000Z.json");
  EXPECT_EQ(index.list(100).size(), 30u);
}

}  // namespace
}  // namespace clamsim::training
