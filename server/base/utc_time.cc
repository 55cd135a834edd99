#include "base/utc_time.h"

#include <cstdio>
#include <ctime>

namespace clamsim::base {

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

std::string iso8601_utc_ms(WallTime t) {
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  char frac[16];
  std::snprintf(frac, sizeof frac, ".%03dZ", static_cast<int>(ms));
  return format_utc(t, "%Y-%m-%dT%H:%M:%S") + frac;
}

std::string compact_utc(WallTime t) { return format_utc(t, "%Y%m%dT%H%M%SZ"); }

}  // namespace clamsim::base
