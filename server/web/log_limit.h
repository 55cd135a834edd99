// At most `burst` log lines per `window`; the rest are counted and reported in one line
// when the next window opens (docs/security.md: abuse is logged without letting an
// attacker fill the disk or drown the log). Thread-safe; time is passed in for tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace clamsim::web {

class LogLimit {
 public:
  using Clock = std::chrono::steady_clock;

  LogLimit(std::size_t burst, Clock::duration window) : burst_(burst), window_(window) {}

  // The lines to write now for `line` at `now`: none (suppressed), the line, or a count
  // of the lines suppressed in the window before followed by the line.
  std::vector<std::string> admit(const std::string& line, Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    if (now - window_start_ >= window_) {
      if (suppressed_ > 0)
        out.push_back("web: " + std::to_string(suppressed_) +
                      " more log lines suppressed (more than " + std::to_string(burst_) +
                      " in " + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(window_).count()) +
                      " s)");
      window_start_ = now;
      in_window_ = 0;
      suppressed_ = 0;
    }
    if (in_window_ < burst_) {
      ++in_window_;
      out.push_back(line);
    } else {
      ++suppressed_;
    }
    return out;
  }

 private:
  const std::size_t burst_;
  const Clock::duration window_;
  std::mutex mutex_;
  Clock::time_point window_start_{};
  std::size_t in_window_ = 0;
  std::uint64_t suppressed_ = 0;
};

}  // namespace clamsim::web
