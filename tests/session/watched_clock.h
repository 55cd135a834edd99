// A Clock for the session tests that passes every call on to a real one (SteadyClock or
// ManualClock) and keeps the deadlines the session asked to sleep until, so a test can wait
// for "the session thread is asleep" and read its schedule instead of timing it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "session/clock.h"

namespace clamsim::testing {

class WatchedClock final : public session::Clock {
 public:
  explicit WatchedClock(session::Clock& inner) : inner_(inner) {}

  session::Instant now() const override { return inner_.now(); }
  void sleep_until(session::Instant t, const session::Alarm& alarm) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // the session loops on early returns with the same deadline: one entry per deadline
      if (deadlines_.empty() || deadlines_.back() != t) deadlines_.push_back(t);
      cv_.notify_all();
    }
    inner_.sleep_until(t, alarm);
  }

  // Waits (bounded: the bound only says "never happened") until the session has asked to
  // sleep until n distinct deadlines; returns them.
  std::vector<session::Instant> wait_for_deadlines(
      std::size_t n, std::chrono::seconds limit = std::chrono::seconds(20)) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_for(lock, limit, [&] { return deadlines_.size() >= n; });
    return deadlines_;
  }

 private:
  session::Clock& inner_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<session::Instant> deadlines_;
};

}  // namespace clamsim::testing
