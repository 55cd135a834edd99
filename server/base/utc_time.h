// Wall-clock instants as text, in UTC: for reports, recordings and their file names, and
// the server's log lines.
#pragma once

#include <chrono>
#include <string>

namespace clamsim::base {

using WallTime = std::chrono::system_clock::time_point;

// ISO 8601, whole seconds: "2025-03-14T09:26:53Z".
std::string iso8601_utc(WallTime t);
// ISO 8601 with milliseconds, so that log lines of one second still sort:
// "2025-03-14T09:26:53.589Z".
std::string iso8601_utc_ms(WallTime t);
// The same without separators, for file names: "20250314T092653Z".
std::string compact_utc(WallTime t);

}  // namespace clamsim::base
