#include "training/utc_time.h"

#include <ctime>

namespace clamsim::training {

namespace {

std::string format_utc(WallTime t, const char* format) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);  // the reentrant one: sessions write reports on their own threads
  char buf[32];
  const std::size_t n = std::strftime(buf, sizeof buf, format, &tm);
  return std::string(buf, n);
}

}  // namespace

std::string iso8601_utc(WallTime t) { return format_utc(t, "%Y-%m-%dT%H:%M:%SZ"); }

std::string compact_utc(WallTime t) { return format_utc(t, "%Y%m%dT%H%M%SZ"); }

}  // namespace clamsim::training
