#include "session/counters.h"

namespace clamsim::session {

CounterSnapshot& CounterSnapshot::operator+=(const CounterSnapshot& o) {
  frames_sent += o.frames_sent;
  send_failures += o.send_failures;
  controls_received += o.controls_received;
  controls_rejected += o.controls_rejected;
  controls_clamped += o.controls_clamped;
  late_frames += o.late_frames;
  skipped_frames += o.skipped_frames;
  restarts += o.restarts;
  reports_written += o.reports_written;
  report_failures += o.report_failures;
  return *this;
}

CounterSnapshot Counters::snapshot() const {
  CounterSnapshot s;
  s.frames_sent = frames_sent.load(std::memory_order_relaxed);
  s.send_failures = send_failures.load(std::memory_order_relaxed);
  s.controls_received = controls_received.load(std::memory_order_relaxed);
  s.controls_rejected = controls_rejected.load(std::memory_order_relaxed);
  s.controls_clamped = controls_clamped.load(std::memory_order_relaxed);
  s.late_frames = late_frames.load(std::memory_order_relaxed);
  s.skipped_frames = skipped_frames.load(std::memory_order_relaxed);
  s.restarts = restarts.load(std::memory_order_relaxed);
  s.reports_written = reports_written.load(std::memory_order_relaxed);
  s.report_failures = report_failures.load(std::memory_order_relaxed);
  return s;
}

}  // namespace clamsim::session
