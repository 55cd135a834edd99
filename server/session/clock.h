// Time for the session loop, injected so tests can run the 50 ms schedule without waiting.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace clamsim::session {

using Instant = std::chrono::steady_clock::time_point;
using Duration = std::chrono::steady_clock::duration;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Instant now() const = 0;
  // Sleep until t or until wake() is called; returns at once if t has passed.
  virtual void sleep_until(Instant t) = 0;
  // Cut every sleep short (used to stop sessions promptly).
  virtual void wake() = 0;
};

// The real steady clock.
class SteadyClock final : public Clock {
 public:
  Instant now() const override { return std::chrono::steady_clock::now(); }
  void sleep_until(Instant t) override;
  void wake() override;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  unsigned long generation_ = 0;
};

// A clock that jumps to each requested wake-up time: the session runs as fast as it can
// while seeing a perfect 50 ms schedule. For tests and offline runs.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(Instant start = Instant{}) : now_(start) {}
  Instant now() const override;
  void sleep_until(Instant t) override;
  void wake() override {}
  void advance(Duration d);

 private:
  mutable std::mutex mutex_;
  Instant now_;
};

}  // namespace clamsim::session
