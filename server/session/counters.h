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
  std::uint64_t restarts = 0;          // new attempts at the task (request_restart)
  std::uint64_t reports_written = 0;   // task reports saved under the report directory
  std::uint64_t report_failures = 0;   // task reports that could not be saved

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
  std::atomic<std::uint64_t> restarts{0};
  std::atomic<std::uint64_t> reports_written{0};
  std::atomic<std::uint64_t> report_failures{0};

  CounterSnapshot snapshot() const;
};

}  // namespace clamsim::session
