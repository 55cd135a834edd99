// How long recordings are kept (docs/recording.md "Retention"): the oldest finished files
// of a directory are removed first, until none is older than the age limit and all of
// them together fit the size limit. A live file is never removed: its writer holds an
// exclusive lock on it (McapWriter), which this checks, so it also holds across processes
// sharing the directory.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace clamsim::session {

struct RetentionLimits {
  double keep_days = 0.0;   // 0 = no age limit
  double keep_mb = 0.0;     // 0 = no size limit (MB = 10^6 bytes)
};

// Removes what the limits allow in `dir` (its *.mcap files only); returns the paths
// removed, oldest first. Files it cannot inspect or remove are left alone.
std::vector<std::string> prune_recordings(const std::string& dir, RetentionLimits limits,
                                          std::chrono::system_clock::time_point now);

}  // namespace clamsim::session
