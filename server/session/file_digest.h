// A file's SHA-256, so a report names the exact machine and scenario files it was scored
// with: `sha256sum models/t250.json` prints the same hex.
#pragma once

#include <string>

namespace clamsim::session {

// Lower-case hex SHA-256 of the file's bytes; throws std::runtime_error naming the file
// when it cannot be read.
std::string file_sha256(const std::string& path);

// The same of a byte string (tests, and text already in memory).
std::string sha256_hex(const std::string& bytes);

}  // namespace clamsim::session
