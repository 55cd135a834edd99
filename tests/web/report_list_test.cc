// The instructor's list of finished tasks: the filter's query, which reports match, and
// the CSV export's cells (RFC 4180 quoting, formulas defused, figures rounded).
#include "web/report_list.h"

#include <gtest/gtest.h>

namespace clamsim::web {
namespace {

training::ReportSummary report(const std::string& trainee, const std::string& ended) {
  training::ReportSummary r;
  r.name = "report-1-20261121T215001Z.json";
  r.session = "session 1 (t250, dam_intake)";
  r.trainee = trainee;
  r.task = "Clear the trash rack";
  r.ended_utc = ended;
  r.outcome = "completed";
  r.elapsed_s = 60.00000000000001;
  r.total = 84.96;
  r.delivered = 3;
  r.required = 3;
  return r;
}

TEST(ReportList, FilterQueryReadsTraineeAndUtcBounds) {
  ReportFilter f;
  std::string error;
  ASSERT_TRUE(parse_report_filter(
      "trainee=Ada+Love&from=2026-11-20T23:00:00Z&to=2026-11-22", &f, &error)) << error;
  EXPECT_EQ(f.trainee, "Ada Love");
  EXPECT_EQ(f.from_utc, "2026-11-20T23:00:00Z");
  EXPECT_EQ(f.to_utc, "2026-11-22");
  ASSERT_TRUE(parse_report_filter("", &f, &error));
  EXPECT_FALSE(f.any());
}

TEST(ReportList, MalformedOrUnknownFilterNamesTheProblem) {
  ReportFilter f;
  std::string error;
  EXPECT_FALSE(parse_report_filter("from=yesterday", &f, &error));
  EXPECT_EQ(error, "from: 'yesterday' is not a UTC date or time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)");
  EXPECT_FALSE(parse_report_filter("to=2026-11-22T10:00", &f, &error));
  EXPECT_NE(error.find("to: '2026-11-22T10:00'"), std::string::npos) << error;
  EXPECT_FALSE(parse_report_filter("name=ada", &f, &error));
  EXPECT_EQ(error, "unknown parameter 'name' (the list takes trainee, from, to)");
  EXPECT_FALSE(parse_report_filter("trainee=%zz", &f, &error));
  EXPECT_EQ(error, "trainee: malformed percent-encoding");
}

TEST(ReportList, TraineeMatchesAnyPartInAnyCaseAndTimesBoundTheEnd) {
  const auto ada = report("Ada Lovelace", "2026-11-21T21:50:01Z");
  EXPECT_TRUE(report_matches({"love", "", ""}, ada));
  EXPECT_TRUE(report_matches({"ADA", "", ""}, ada));
  EXPECT_FALSE(report_matches({"grace", "", ""}, ada));
  EXPECT_FALSE(report_matches({"ada", "", ""}, report("", "2026-11-21T21:50:01Z")));
  // from is inclusive, to exclusive; a bare date is that day's midnight UTC
  EXPECT_TRUE(report_matches({"", "2026-11-21T21:50:01Z", ""}, ada));
  EXPECT_FALSE(report_matches({"", "2026-11-21T21:50:02Z", ""}, ada));
  EXPECT_TRUE(report_matches({"", "", "2026-11-21T21:50:02Z"}, ada));
  EXPECT_FALSE(report_matches({"", "", "2026-11-21T21:50:01Z"}, ada));
  EXPECT_TRUE(report_matches({"", "2026-11-21", "2026-11-22"}, ada));
  EXPECT_FALSE(report_matches({"", "2026-11-22", ""}, ada));
  EXPECT_FALSE(report_matches({"", "", "2026-11-21"}, ada));
  EXPECT_FALSE(report_matches({"", "2026-01-01", ""}, report("Ada", ""))) << "no end time";
}

TEST(ReportList, CsvCellsAreQuotedAndNeverFormulas) {
  EXPECT_EQ(csv_text_cell("Ada"), "\"Ada\"");
  EXPECT_EQ(csv_text_cell("say \"hi\", then go"), "\"say \"\"hi\"\", then go\"");
  EXPECT_EQ(csv_text_cell("line\nbreak"), "\"line\nbreak\"");
  EXPECT_EQ(csv_text_cell(""), "\"\"");
  for (const char* formula : {"=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"})
    EXPECT_EQ(csv_text_cell(formula).substr(0, 2), "\"'") << formula;
  EXPECT_EQ(csv_text_cell("=1+1"), "\"'=1+1\"");
}

TEST(ReportList, CsvHasAHeaderAndOneRoundedLinePerReport) {
  auto hostile = report("=cmd|' /C calc'!A0", "2026-11-21T21:50:01Z");
  training::ReportSummary broken;
  broken.name = "report-2-20261120T101010Z.json";
  broken.outcome = "unreadable";
  const std::string csv = reports_csv({report("Ada, \"the first\"", "2026-11-21T21:50:01Z"),
                                       hostile, broken});
  EXPECT_EQ(csv,
            "ended_utc,trainee,task,session,outcome,elapsed_s,total,delivered,required,report\r\n"
            "\"2026-11-21T21:50:01Z\",\"Ada, \"\"the first\"\"\",\"Clear the trash rack\","
            "\"session 1 (t250, dam_intake)\",\"completed\",60.00,85.0,3,3,"
            "\"report-1-20261121T215001Z.json\"\r\n"
            "\"2026-11-21T21:50:01Z\",\"'=cmd|' /C calc'!A0\",\"Clear the trash rack\","
            "\"session 1 (t250, dam_intake)\",\"completed\",60.00,85.0,3,3,"
            "\"report-1-20261121T215001Z.json\"\r\n"
            "\"\",\"\",\"\",\"\",\"unreadable\",,,,,\"report-2-20261120T101010Z.json\"\r\n");
}

}  // namespace
}  // namespace clamsim::web
