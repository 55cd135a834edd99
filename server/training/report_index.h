// The finished tasks' reports a server has written (report_file.h), for the instructor:
// a summary of each, newest first, and one report's text by name. Names are checked
// strictly, so a request can never reach outside the report directory, and files are
// opened without following links. Nothing here throws on what a file contains: any file
// in the folder (malformed, truncated, huge, a link, a directory, a FIFO) is either listed
// as "unreadable" or not listed (docs/security.md, "Report folder").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clamsim::training {

struct ReportSummary {
  std::string name;         // file name, e.g. "report-3-20261121T215001Z.json"
  std::string session;      // "session 3 (t250, dam_intake)"
  std::string trainee;      // "" when not given
  std::string task;
  std::string kind = "task"; // "task", or "lesson" (delivered/required: steps done/steps)
  std::string ended_utc;
  std::string outcome;      // "completed", "timed out"; "unreadable" when the file is not a report
  double elapsed_s = 0.0;
  double total = 0.0;
  int delivered = 0, required = 0;
  // the session's recording (a file name, as the report gives it; "" = not recorded) and
  // the frame the attempt began at: where the debrief replay starts
  std::string recording;
  std::uint64_t recording_from_k = 0;
};

// Reports are a few kilobytes; a larger file is not one of ours and is never read whole.
inline constexpr std::size_t kMaxReportBytes = 1 << 20;
// Text fields of a summary are cut to this many bytes (at a UTF-8 boundary).
inline constexpr std::size_t kMaxSummaryText = 200;

// A name report_file.h could have written: "report-", digits, "-", a compact UTC time,
// an optional "-N", ".json". Nothing else (no paths, no dot files).
bool is_report_name(const std::string& name);

// The summary of one report's JSON text; outcome "unreadable" when it is not a report.
ReportSummary summarise_report(const std::string& name, const std::string& text);

// The newest `limit` reports in `dir` (by file name's time, then name), newest first,
// each file read afresh. A missing directory is no reports; a regular file that does not
// parse is listed as "unreadable"; links, directories and other non-files are not listed.
std::vector<ReportSummary> list_reports(const std::string& dir, std::size_t limit);

// The text of report `name` in `dir`; nullopt when the name is not a report name, or
// there is no regular file of that name (a link is not followed, a directory is not a
// report), or it is larger than kMaxReportBytes.
std::optional<std::string> read_report(const std::string& dir, const std::string& name);

// list_reports with memory: a report is summarised once, when this server writes it
// (record) or, for files that appear otherwise, the first time it is listed. A listing
// reads the directory's names and checks each listed file's identity (inode, size,
// modification time) with one lstat, so a file changed behind our back is read again.
// Thread-safe.
class ReportIndex {
 public:
  explicit ReportIndex(std::string dir) : dir_(std::move(dir)) {}

  std::vector<ReportSummary> list(std::size_t limit);
  // A report just written at `path` (in this directory) with `text`.
  void record(const std::string& path, const std::string& text);
  // Files read and parsed by list() so far (not those recorded): for tests and metrics.
  std::uint64_t files_parsed() const;

 private:
  struct Identity {
    std::uint64_t inode = 0, size = 0;
    std::int64_t mtime_ns = 0;
    bool operator==(const Identity& o) const {
      return inode == o.inode && size == o.size && mtime_ns == o.mtime_ns;
    }
  };
  struct Entry {
    Identity id;
    ReportSummary summary;
  };

  const std::string dir_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;   // by file name
  std::uint64_t parsed_ = 0;
};

// The index of report directory `dir`, one per directory for the whole process, so the
// session that writes a report and the web page that lists them share it.
ReportIndex& report_index_for(const std::string& dir);

}  // namespace clamsim::training
