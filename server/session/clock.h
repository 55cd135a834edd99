// Time for the session loop, injected so tests can run the 50 ms schedule without waiting.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

namespace clamsim::session {

using Instant = std::chrono::steady_clock::time_point;
using Duration = std::chrono::steady_clock::duration;

// One sleeper's wake-up call: each session owns one, so stopping a session wakes that session's
// thread only (a clock mutex and condition variable shared by all sessions woke every session
// thread whenever one stopped). ring() is sticky: a sleep that starts after it returns at once.
// Thread-safe.
class Alarm {
 public:
  void ring();
  bool rung() const { return word_.load(std::memory_order_acquire) != 0; }
  // The futex word SteadyClock waits on (0 = quiet, 1 = rung).
  const std::atomic<std::uint32_t>& word() const { return word_; }

 private:
  std::atomic<std::uint32_t> word_{0};
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Instant now() const = 0;
  // Sleep until t or until `alarm` rings; returns at once if t has passed or it has rung.
  // May return early (a signal): callers loop on their own condition.
  virtual void sleep_until(Instant t, const Alarm& alarm) = 0;
};

// The real steady clock. Each sleep is one futex wait with an absolute CLOCK_MONOTONIC
// deadline on the sleeper's own Alarm: no lock shared between sessions, and no drift from
// converting to a relative timeout.
class SteadyClock final : public Clock {
 public:
  Instant now() const override { return std::chrono::steady_clock::now(); }
  void sleep_until(Instant t, const Alarm& alarm) override;
};

// A clock that jumps to each requested wake-up time: the session runs as fast as it can
// while seeing a perfect 50 ms schedule. For tests and offline runs.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(Instant start = Instant{}) : now_(start) {}
  Instant now() const override;
  void sleep_until(Instant t, const Alarm& alarm) override;
  void advance(Duration d);

 private:
  mutable std::mutex mutex_;
  Instant now_;
};

}  // namespace clamsim::session
