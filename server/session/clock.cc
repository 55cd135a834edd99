#include "session/clock.h"

namespace clamsim::session {

void SteadyClock::sleep_until(Instant t) {
  std::unique_lock<std::mutex> lock(mutex_);
  const unsigned long gen = generation_;
  cv_.wait_until(lock, t, [&] { return generation_ != gen; });
}

void SteadyClock::wake() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++generation_;
  }
  cv_.notify_all();
}

Instant ManualClock::now() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return now_;
}

void ManualClock::sleep_until(Instant t) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (t > now_) now_ = t;
}

void ManualClock::advance(Duration d) {
  std::lock_guard<std::mutex> lock(mutex_);
  now_ += d;
}

}  // namespace clamsim::session
