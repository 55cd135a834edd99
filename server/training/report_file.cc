#include "training/report_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "training/report_index.h"

namespace clamsim::training {

namespace fs = std::filesystem;

std::string write_report_file(const std::string& dir, std::uint64_t session_id,
                              base::WallTime when, const std::string& text, std::string* error) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    *error = "cannot create " + dir + ": " + ec.message();
    return "";
  }
  const std::string stem = (fs::path(dir) / ("report-" + std::to_string(session_id) + "-" +
                                              base::compact_utc(when))).string();
  for (int n = 1; n < 100; ++n) {
    const std::string path = stem + (n == 1 ? "" : "-" + std::to_string(n)) + ".json";
    // "x": exclusive create, so two attempts never share a file
    std::FILE* f = std::fopen(path.c_str(), "wx");
    if (f == nullptr) {
      if (errno == EEXIST) continue;
      *error = "cannot write " + path + ": " + std::strerror(errno);
      return "";
    }
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() &&
                         std::fputc('\n', f) != EOF;
    if (std::fclose(f) != 0 || !written) {
      *error = "writing " + path + " failed: " + std::strerror(errno);
      return "";
    }
    // the instructor's list learns of it now, without reading the file back
    report_index_for(dir).record(path, text);
    return path;
  }
  *error = "too many reports named " + stem + "*.json";
  return "";
}

}  // namespace clamsim::training
