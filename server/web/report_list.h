// The instructor's list of finished tasks as people use it: filtered by trainee and by
// when the task ended, for the page (JSON, status_pages.h) and for a spreadsheet (CSV).
// GET /api/reports and GET /api/reports.csv take the same query (docs/instructor.md).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "training/report_index.h"

namespace clamsim::web {

struct ReportFilter {
  std::string trainee;    // part of the trainee's name, ASCII letters in any case; "" = all
  std::string from_utc;   // ended at or after: "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SSZ"; "" = open
  std::string to_utc;     // ended before (same forms); "" = open
  bool any() const { return !trainee.empty() || !from_utc.empty() || !to_utc.empty(); }
};

// From a query such as "trainee=ada&from=2026-11-20T23:00:00Z&to=2026-11-21T23:00:00Z".
// False with *error naming the parameter and the form expected (or the parameters there
// are) when one is malformed or unknown.
bool parse_report_filter(std::string_view query, ReportFilter* out, std::string* error);

bool report_matches(const ReportFilter& filter, const training::ReportSummary& report);

// How many of the newest reports a filter looks through, and how many it returns.
inline constexpr std::size_t kReportsScanned = 10000;
inline constexpr std::size_t kReportsListed = 200;

// The newest kReportsListed reports in `dir` that match, newest first.
std::vector<training::ReportSummary> filtered_reports(const std::string& dir,
                                                     const ReportFilter& filter);

// One CSV cell (RFC 4180) that a spreadsheet shows as the text it is: always quoted,
// quotes doubled, and a leading = + - @ tab or CR (a formula to Excel and LibreOffice)
// defused with a leading apostrophe.
std::string csv_text_cell(std::string_view text);

// The list as CSV: a header line, then one line per report, CRLF line ends. Figures are
// rounded as in the reports (training/report_figures.h).
std::string reports_csv(const std::vector<training::ReportSummary>& reports);

}  // namespace clamsim::web
