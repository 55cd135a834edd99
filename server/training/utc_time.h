// Wall-clock instants as text, in UTC: for reports and their file names.
#pragma once

#include <chrono>
#include <string>

namespace clamsim::training {

using WallTime = std::chrono::system_clock::time_point;

// ISO 8601, whole seconds: "2025-03-14T09:26:53Z".
std::string iso8601_utc(WallTime t);
// The same without separators, for file names: "20250314T092653Z".
std::string compact_utc(WallTime t);

}  // namespace clamsim::training
