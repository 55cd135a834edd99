// Per-session counters, written by the session thread and the transports, read by anyone.
#pragma once

#include <atomic>
#include <cstdint>

namespace clamsim::session {

struct CounterSnapshot {
  std::uint64_t frames_sent = 0;
  std::uint64_t send_failures = 0;
  std::uint64_t controls_received = 0;
  std::uint64_t controls_rejected = 0;
  std::uint64_t controls_clamped = 0;
  std::uint64_t late_frames = 0;       // sent more than one period after their deadline
  std::uint64_t skipped_frames = 0;    // not sent at all because the thread fell behind

  CounterSnapshot& operator+=(const CounterSnapshot& o);
};

struct Counters {
  std::atomic<std::uint64_t> frames_sent{0};
  std::atomic<std::uint64_t> send_failures{0};
  std::atomic<std::uint64_t> controls_received{0};
  std::atomic<std::uint64_t> controls_rejected{0};
  std::atomic<std::uint64_t> controls_clamped{0};
  std::atomic<std::uint64_t> late_frames{0};
  std::atomic<std::uint64_t> skipped_frames{0};

  CounterSnapshot snapshot() const;
};

}  // namespace clamsim::session
