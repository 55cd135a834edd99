// Saving a finished task's report where an instructor finds it: one JSON file per attempt,
// <dir>/report-<session id>-<UTC time>.json (docs/training-task.md).
#pragma once

#include <cstdint>
#include <string>

#include "base/utc_time.h"

namespace clamsim::training {

// Creates dir when missing and writes the text; never overwrites (a second report within
// the same second gets "-2", "-3", ...). Returns the path written, or "" with *error set.
std::string write_report_file(const std::string& dir, std::uint64_t session_id,
                              base::WallTime when, const std::string& text, std::string* error);

}  // namespace clamsim::training
