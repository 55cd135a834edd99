// A file's SHA-256, so a report names the exact machine and scenario files it was scored
// with: `sha256sum models/t250.json` prints the same hex.
#pragma once

#include <string>
#include <vector>

namespace clamsim::session {

// Lower-case hex SHA-256 of the file's bytes; throws std::runtime_error naming the file
// when it cannot be read.
std::string file_sha256(const std::string& path);

// The same of several files' bytes one after another: `cat a b | sha256sum`. A scenario
// that takes its site from another file is named by both (scenario_site.h).
std::string files_sha256(const std::vector<std::string>& paths);

// The same of a byte string (tests, and text already in memory).
std::string sha256_hex(const std::string& bytes);

}  // namespace clamsim::session
