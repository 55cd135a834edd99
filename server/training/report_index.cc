#include "training/report_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <regex>
#include <tuple>

#include <nlohmann/json.hpp>

namespace clamsim::training {

namespace fs = std::filesystem;

namespace {

// report-<session id>-<YYYYMMDDTHHMMSSZ>[-<n>].json, as write_report_file names them
const std::regex& report_name_pattern() {
  static const std::regex pattern(R"(report-([0-9]{1,20})-([0-9]{8}T[0-9]{6}Z)(?:-([0-9]{1,3}))?\.json)");
  return pattern;
}

// Newest first: the time in the name, then the session id, then the -n suffix. The id is
// compared as digits (shorter is smaller once leading zeros are gone), never converted:
// a name may hold more digits than any integer type.
using SortKey = std::tuple<std::string, std::size_t, std::string, int>;
SortKey sort_key(const std::string& name) {
  std::smatch m;
  std::regex_match(name, m, report_name_pattern());
  std::string id = m[1].str();
  id.erase(0, std::min(id.find_first_not_of('0'), id.size() - 1));
  int n = 1;
  if (m[3].matched) n = std::stoi(m[3].str());  // at most 3 digits: always fits
  return {m[2].str(), id.size(), id, n};
}

// The file names that look like reports and are regular files (links are not followed),
// newest first, at most `limit`.
std::vector<std::string> newest_report_names(const std::string& dir, std::size_t limit) {
  std::vector<std::pair<SortKey, std::string>> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (is_report_name(name) && it->symlink_status(type_ec).type() == fs::file_type::regular)
      found.emplace_back(sort_key(name), name);
  }
  const std::size_t n = std::min(limit, found.size());
  std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(n), found.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> names;
  names.reserve(n);
  for (std::size_t i = 0; i < n; ++i) names.push_back(std::move(found[i].second));
  return names;
}

struct FileRead {
  enum class Status { Ok, NotAFile, TooLarge, Failed } status = Status::Failed;
  std::string text;
  struct stat st {};
};

// Reads dir/name if it is a regular file no larger than kMaxReportBytes. O_NOFOLLOW: a
// link is never followed; O_NONBLOCK: a FIFO named like a report cannot hang the reader.
FileRead read_regular(const std::string& dir, const std::string& name) {
  FileRead r;
  const std::string path = (fs::path(dir) / name).string();
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    r.status = errno == ELOOP ? FileRead::Status::NotAFile : FileRead::Status::Failed;
    return r;
  }
  const auto done = [&](FileRead::Status s) {
    ::close(fd);
    r.status = s;
    return r;
  };
  if (::fstat(fd, &r.st) != 0) return done(FileRead::Status::Failed);
  if (!S_ISREG(r.st.st_mode)) return done(FileRead::Status::NotAFile);
  if (static_cast<std::uint64_t>(r.st.st_size) > kMaxReportBytes)
    return done(FileRead::Status::TooLarge);
  // the size may change while we read: never take more than the bound
  r.text.resize(static_cast<std::size_t>(r.st.st_size));
  std::size_t got = 0;
  while (got < r.text.size()) {
    const ssize_t n = ::read(fd, r.text.data() + got, r.text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  r.text.resize(got);
  return done(FileRead::Status::Ok);
}

// At most kMaxSummaryText bytes, never cutting a UTF-8 sequence in two.
std::string bounded_text(std::string s) {
  if (s.size() <= kMaxSummaryText) return s;
  std::size_t n = kMaxSummaryText;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  s.resize(n);
  return s;
}

ReportSummary unreadable(const std::string& name) {
  ReportSummary s;
  s.name = name;
  s.outcome = "unreadable";
  return s;
}

}  // namespace

bool is_report_name(const std::string& name) {
  return std::regex_match(name, report_name_pattern());
}

ReportSummary summarise_report(const std::string& name, const std::string& text) {
  ReportSummary s = unreadable(name);
  try {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return s;
    // every field is checked for its type before it is read: a file may hold anything
    const auto field = [&](const char* key) -> const nlohmann::json* {
      const auto it = j.find(key);
      return it == j.end() ? nullptr : &*it;
    };
    const nlohmann::json* schema = field("schema");
    if (!schema || !schema->is_string() || schema->get_ref<const std::string&>() != "clamsim-report/1")
      return s;
    const auto text_of = [&](const char* key) {
      const nlohmann::json* v = field(key);
      return v && v->is_string() ? bounded_text(v->get<std::string>()) : std::string();
    };
    const auto number = [&](const char* key) {
      const nlohmann::json* v = field(key);
      const double d = v && v->is_number() ? v->get<double>() : 0.0;
      return std::isfinite(d) ? d : 0.0;
    };
    // a count outside int's range would be undefined behaviour to convert
    const auto count = [&](const char* key) {
      return static_cast<int>(std::clamp(number(key), -1e6, 1e6));
    };
    s.session = text_of("session");
    s.trainee = text_of("trainee");
    s.task = text_of("task");
    if (text_of("kind") == "lesson") s.kind = "lesson";
    s.ended_utc = text_of("ended_utc");
    s.outcome = text_of("outcome");
    s.elapsed_s = number("elapsed_s");
    s.total = number("total");
    s.delivered = count("delivered");
    s.required = count("required");
    s.recording = text_of("recording");
    const double from_k = number("recording_from_k");
    s.recording_from_k = from_k >= 1.0 && from_k < 1e15 ? static_cast<std::uint64_t>(from_k) : 0;
    return s;
  } catch (const std::exception&) {
    return unreadable(name);  // out of memory on a hostile file: listed, never fatal
  }
}

std::vector<ReportSummary> list_reports(const std::string& dir, std::size_t limit) {
  std::vector<ReportSummary> out;
  for (const std::string& name : newest_report_names(dir, limit)) {
    FileRead f = read_regular(dir, name);
    if (f.status == FileRead::Status::NotAFile) continue;  // replaced since the listing
    out.push_back(f.status == FileRead::Status::Ok ? summarise_report(name, f.text)
                                                   : unreadable(name));
  }
  return out;
}

std::optional<std::string> read_report(const std::string& dir, const std::string& name) {
  if (!is_report_name(name)) return std::nullopt;
  FileRead f = read_regular(dir, name);
  if (f.status != FileRead::Status::Ok) return std::nullopt;
  return std::move(f.text);
}

// ---- ReportIndex ----

namespace {

template <class Stat>
auto identity_of(const Stat& st) {
  return std::make_tuple(static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
                         static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 +
                             st.st_mtim.tv_nsec);
}

}  // namespace

std::vector<ReportSummary> ReportIndex::list(std::size_t limit) {
  const std::vector<std::string> names = newest_report_names(dir_, limit);
  std::lock_guard<std::mutex> lock(mutex_);
  std::map<std::string, Entry> kept;
  std::vector<ReportSummary> out;
  out.reserve(names.size());
  for (const std::string& name : names) {
    struct stat st {};
    if (::lstat((fs::path(dir_) / name).c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    Identity id;
    std::tie(id.inode, id.size, id.mtime_ns) = identity_of(st);
    auto it = entries_.find(name);
    if (it == entries_.end() || !(it->second.id == id)) {
      // new to us, or changed by someone else: read it once
      FileRead f = read_regular(dir_, name);
      if (f.status == FileRead::Status::NotAFile) continue;
      ++parsed_;
      Entry e;
      std::tie(e.id.inode, e.id.size, e.id.mtime_ns) = identity_of(f.st);
      e.summary = f.status == FileRead::Status::Ok ? summarise_report(name, f.text)
                                                   : unreadable(name);
      it = entries_.insert_or_assign(name, std::move(e)).first;
    }
    out.push_back(it->second.summary);
    kept.insert(entries_.extract(it));
  }
  entries_ = std::move(kept);  // files gone or beyond the limit are forgotten
  return out;
}

void ReportIndex::record(const std::string& path, const std::string& text) {
  const std::string name = fs::path(path).filename().string();
  struct stat st {};
  if (!is_report_name(name) || ::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  Entry e;
  std::tie(e.id.inode, e.id.size, e.id.mtime_ns) = identity_of(st);
  e.summary = summarise_report(name, text);
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.insert_or_assign(name, std::move(e));
}

std::uint64_t ReportIndex::files_parsed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return parsed_;
}

ReportIndex& report_index_for(const std::string& dir) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<ReportIndex>> indexes;
  std::error_code ec;
  fs::path key = fs::absolute(dir, ec);
  if (ec) key = dir;
  std::string k = key.lexically_normal().string();
  if (k.size() > 1 && k.back() == '/') k.pop_back();  // "reports/" is "reports"
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = indexes[k];
  if (!slot) slot = std::make_unique<ReportIndex>(dir);
  return *slot;
}

}  // namespace clamsim::training
