#include "session/recording_retention.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

namespace clamsim::session {

namespace fs = std::filesystem;

namespace {

struct Found {
  std::string path;
  fs::file_time_type modified;
  std::uintmax_t size;
};

// True when a writer holds the file's lock (its recording is live).
bool live(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;   // cannot tell: keep it
  const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
  ::close(fd);               // closing drops the probe's own lock
  return locked;
}

}  // namespace

std::vector<std::string> prune_recordings(const std::string& dir, RetentionLimits limits,
                                          std::chrono::system_clock::time_point now) {
  std::vector<std::string> removed;
  if (limits.keep_days <= 0.0 && limits.keep_mb <= 0.0) return removed;
  std::error_code ec;
  std::vector<Found> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file(ec) || e.path().extension() != ".mcap") continue;
    Found f{e.path().string(), e.last_write_time(ec), e.file_size(ec)};
    if (!ec) files.push_back(std::move(f));
  }
  std::sort(files.begin(), files.end(),
            [](const Found& a, const Found& b) { return a.modified < b.modified; });
  std::uintmax_t total = 0;
  for (const Found& f : files) total += f.size;
  // file_time_type's clock is not system_clock in C++17: compare ages through "now" of each
  const auto file_now = fs::file_time_type::clock::now();
  const auto sys_now = std::chrono::system_clock::now();
  const double skew_s = std::chrono::duration<double>(sys_now - now).count();
  const double max_bytes = limits.keep_mb * 1e6;
  for (const Found& f : files) {
    const double age_days =
        (std::chrono::duration<double>(file_now - f.modified).count() - skew_s) / 86400.0;
    const bool too_old = limits.keep_days > 0.0 && age_days > limits.keep_days;
    const bool too_big = limits.keep_mb > 0.0 && static_cast<double>(total) > max_bytes;
    if (!too_old && !too_big) continue;
    if (live(f.path)) continue;
    if (fs::remove(f.path, ec)) {
      total -= f.size;
      removed.push_back(f.path);
    }
  }
  return removed;
}

}  // namespace clamsim::session
