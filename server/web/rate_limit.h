// A sliding-window message counter: more than `max` messages within `window` is flooding
// (docs/websocket-protocol.md, close 1008). Exact, with one timestamp per allowed message.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace clamsim::web {

class RateLimit {
 public:
  using Clock = std::chrono::steady_clock;

  RateLimit(std::size_t max, Clock::duration window)
      : window_(window), stamps_(max < 1 ? 1 : max) {}

  // Records a message at `now`; false when it is one too many for the window.
  bool allow(Clock::time_point now) {
    if (count_ < stamps_.size()) {
      stamps_[(head_ + count_++) % stamps_.size()] = now;
      return true;
    }
    // stamps_[head_] is the oldest of the last `max` messages
    if (now - stamps_[head_] < window_) return false;
    stamps_[head_] = now;
    head_ = (head_ + 1) % stamps_.size();
    return true;
  }

 private:
  Clock::duration window_;
  std::vector<Clock::time_point> stamps_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace clamsim::web
