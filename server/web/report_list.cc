#include "web/report_list.h"

#include <algorithm>
#include <regex>

#include "training/report_figures.h"
#include "web/url.h"

namespace clamsim::web {
namespace {

bool is_time_bound(const std::string& s) {
  static const std::regex pattern(R"([0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)?)");
  return std::regex_match(s, pattern);
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool contains_ignoring_case(const std::string& haystack, const std::string& needle) {
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return lower(a) == lower(b); }) != haystack.end();
}

constexpr const char* kParameters = "trainee, from, to";

}  // namespace

bool parse_report_filter(std::string_view query, ReportFilter* out, std::string* error) {
  ReportFilter f;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const std::string_view key = pair.substr(0, eq);
    std::string value;
    if (!percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1),
                        &value, /*plus_is_space=*/true)) {
      *error = std::string(key) + ": malformed percent-encoding";
      return false;
    }
    if (key == "trainee") {
      f.trainee = value;
    } else if (key == "from" || key == "to") {
      if (!value.empty() && !is_time_bound(value)) {
        *error = std::string(key) + ": '" + value +
                 "' is not a UTC date or time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)";
        return false;
      }
      (key == "from" ? f.from_utc : f.to_utc) = value;
    } else {
      *error = "unknown parameter '" + std::string(key) + "' (the list takes " + kParameters + ")";
      return false;
    }
  }
  *out = std::move(f);
  return true;
}

bool report_matches(const ReportFilter& f, const training::ReportSummary& r) {
  if (!f.trainee.empty() && !contains_ignoring_case(r.trainee, f.trainee)) return false;
  // ISO 8601 UTC times compare as text; a bare date is before every time of that day
  if (!f.from_utc.empty() && (r.ended_utc.empty() || r.ended_utc < f.from_utc)) return false;
  if (!f.to_utc.empty() && (r.ended_utc.empty() || !(r.ended_utc < f.to_utc))) return false;
  return true;
}

std::vector<training::ReportSummary> filtered_reports(const std::string& dir,
                                                     const ReportFilter& filter) {
  // the whole scan window every time, so the index keeps one set of entries
  std::vector<training::ReportSummary> all = training::report_index_for(dir).list(kReportsScanned);
  std::vector<training::ReportSummary> out;
  for (training::ReportSummary& r : all) {
    if (out.size() == kReportsListed) break;
    if (report_matches(filter, r)) out.push_back(std::move(r));
  }
  return out;
}

std::string csv_text_cell(std::string_view text) {
  std::string cell = "\"";
  if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos)
    cell += '\'';
  for (char c : text) {
    cell += c;
    if (c == '"') cell += '"';
  }
  return cell + "\"";
}

std::string reports_csv(const std::vector<training::ReportSummary>& reports) {
  std::string csv =
      "ended_utc,trainee,task,session,outcome,elapsed_s,total,delivered,required,report\r\n";
  for (const training::ReportSummary& r : reports) {
    const bool readable = r.outcome != "unreadable";
    csv += csv_text_cell(r.ended_utc) + ',' + csv_text_cell(r.trainee) + ',' +
           csv_text_cell(r.task) + ',' + csv_text_cell(r.session) + ',' +
           csv_text_cell(r.outcome) + ',' +
           (readable ? training::figure_text("elapsed_s", r.elapsed_s) : "") + ',' +
           (readable ? training::figure_text("total", r.total) : "") + ',' +
           (readable ? std::to_string(r.delivered) : "") + ',' +
           (readable ? std::to_string(r.required) : "") + ',' + csv_text_cell(r.name) + "\r\n";
  }
  return csv;
}

}  // namespace clamsim::web
