// The finished tasks' reports a server has written (report_file.h), for the instructor:
// a summary of each, newest first, and one report's text by name. Names are checked
// strictly, so a request can never reach outside the report directory.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clamsim::session {

struct ReportSummary {
  std::string name;         // file name, e.g. "report-3-20261121T215001Z.json"
  std::string session;      // "session 3 (t250, dam_intake)"
  std::string trainee;      // "" when not given
  std::string task;
  std::string ended_utc;
  std::string outcome;      // "completed", "timed out"; "unreadable" when the file is not a report
  double elapsed_s = 0.0;
  double total = 0.0;
  int delivered = 0, required = 0;
};

// A name report_file.h could have written: "report-", digits, "-", a compact UTC time,
// an optional "-N", ".json". Nothing else (no paths, no dot files).
bool is_report_name(const std::string& name);

// The newest `limit` reports in `dir` (by file name's time, then name), newest first. A
// missing directory is no reports; a file that does not parse is listed as "unreadable".
std::vector<ReportSummary> list_reports(const std::string& dir, std::size_t limit);

// The text of report `name` in `dir`; nullopt when the name is not a report name or there
// is no such file.
std::optional<std::string> read_report(const std::string& dir, const std::string& name);

}  // namespace clamsim::session
