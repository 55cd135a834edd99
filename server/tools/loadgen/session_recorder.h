// One simulated receiver's frame log in the load generator: the servant's observer. Only
// frames that arrive inside the measurement window count, so ramp-up (and the last frames
// before unsubscribing) do not blur the figures.
#pragma once

#include <atomic>
#include <mutex>

#include "tools/client/arrival_stats.h"
#include "tools/client/received_frame.h"

namespace clamsim::loadgen {

class SessionRecorder : public client::FrameObserver {
 public:
  explicit SessionRecorder(double period_s);

  // Frames arriving in [start, end) are measured; what an earlier window measured is dropped.
  void set_window(double start_s, double end_s);
  void on_frame(const client::ReceivedFrame& frame) override;

  // Copies, taken under the lock.
  client::ArrivalStats window_stats() const;
  std::uint64_t total_frames() const { return total_.load(); }

 private:
  std::atomic<double> start_s_;
  std::atomic<double> end_s_;
  std::atomic<std::uint64_t> total_{0};
  double period_s_;
  mutable std::mutex mutex_;  // uncontended: only this session's frames take it
  client::ArrivalStats window_;
};

}  // namespace clamsim::loadgen
