#include "session/report_index.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

namespace clamsim::session {

namespace fs = std::filesystem;

namespace {

// report-<session id>-<YYYYMMDDTHHMMSSZ>[-<n>].json, as write_report_file names them
const std::regex& report_name_pattern() {
  static const std::regex pattern(R"(report-([0-9]{1,20})-([0-9]{8}T[0-9]{6}Z)(?:-([0-9]{1,3}))?\.json)");
  return pattern;
}

// Newest first: the time in the name, then the session id, then the -n suffix.
std::tuple<std::string, unsigned long long, int> sort_key(const std::string& name) {
  std::smatch m;
  std::regex_match(name, m, report_name_pattern());
  return {m[2].str(), std::stoull(m[1].str()), m[3].matched ? std::stoi(m[3].str()) : 1};
}

ReportSummary summarise(const fs::path& file) {
  ReportSummary s;
  s.name = file.filename().string();
  s.outcome = "unreadable";
  std::ifstream in(file, std::ios::binary);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("schema", "") != "clamsim-report/1") return s;
  const auto text = [&](const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
  };
  const auto number = [&](const char* key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
  };
  s.session = text("session");
  s.trainee = text("trainee");
  s.task = text("task");
  s.ended_utc = text("ended_utc");
  s.outcome = text("outcome");
  s.elapsed_s = number("elapsed_s");
  s.total = number("total");
  s.delivered = static_cast<int>(number("delivered"));
  s.required = static_cast<int>(number("required"));
  return s;
}

}  // namespace

bool is_report_name(const std::string& name) {
  return std::regex_match(name, report_name_pattern());
}

std::vector<ReportSummary> list_reports(const std::string& dir, std::size_t limit) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (is_report_name(name) && it->is_regular_file(ec)) names.push_back(name);
  }
  std::sort(names.begin(), names.end(),
            [](const std::string& a, const std::string& b) { return sort_key(a) > sort_key(b); });
  if (names.size() > limit) names.resize(limit);
  std::vector<ReportSummary> out;
  out.reserve(names.size());
  for (const std::string& name : names) out.push_back(summarise(fs::path(dir) / name));
  return out;
}

std::optional<std::string> read_report(const std::string& dir, const std::string& name) {
  if (!is_report_name(name)) return std::nullopt;
  std::ifstream in(fs::path(dir) / name, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace clamsim::session
