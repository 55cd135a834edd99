#include "tools/loadgen/session_recorder.h"

#include <limits>

namespace clamsim::loadgen {

SessionRecorder::SessionRecorder(double period_s)
    : start_s_(std::numeric_limits<double>::infinity()),
      end_s_(std::numeric_limits<double>::infinity()),
      period_s_(period_s),
      window_(period_s) {}

void SessionRecorder::set_window(double start_s, double end_s) {
  std::lock_guard<std::mutex> lock(mutex_);
  end_s_ = end_s;
  start_s_ = start_s;
  window_ = client::ArrivalStats(period_s_);  // a new window counts afresh
}

void SessionRecorder::on_frame(const client::ReceivedFrame& frame) {
  total_.fetch_add(1, std::memory_order_relaxed);
  if (frame.arrival_s < start_s_.load() || frame.arrival_s >= end_s_.load()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  window_.add(frame);
}

client::ArrivalStats SessionRecorder::window_stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return window_;
}

}  // namespace clamsim::loadgen
