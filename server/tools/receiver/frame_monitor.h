// The receiver's frame observer: everything the ORB threads deliver lands here, under one
// mutex: the latest frame for the status line, the arrival statistics for the summary,
// the CSV row, and a short history for the live frame rate.
#pragma once

#include <array>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tools/client/arrival_stats.h"
#include "tools/client/received_frame.h"
#include "tools/receiver/frame_csv.h"

namespace clamsim::receiver {

struct MonitorSnapshot {
  std::optional<client::ReceivedFrame> latest;
  std::uint64_t frames = 0;
  std::uint64_t gaps = 0;     // frames lost between sequence numbers
  double rate_hz = 0.0;       // frames in the last second
  double since_last_s = 0.0;  // time since the last frame (or since start)
};

class FrameMonitor : public client::FrameObserver {
 public:
  // `csv` may be null. `period_s` is the nominal frame period.
  FrameMonitor(double period_s, std::unique_ptr<FrameCsv> csv);

  void start(double t0_s);                            // the subscription's moment
  void set_volts(const std::array<float, 5>& volts);  // what is being sent now
  void on_frame(const client::ReceivedFrame& frame) override;
  // Prints the server's drain notice on stderr: the first, then every 30 s and each of the
  // last 10 s.
  void on_notice(const std::string& kind, double seconds_left,
                 const std::string& message) override;

  MonitorSnapshot snapshot(double now_s) const;
  // The task report a frame brought since the last call (the server sends it once, on the
  // frame in which the task ended), or nullopt.
  std::optional<std::string> take_report();
  // The events observed frames brought since the last call, oldest first (--observe).
  std::vector<std::string> take_events();
  // Why the watch ended (the server's observationEnded), once it has (--observe).
  std::optional<std::string> observation_ended() const;
  // The statistics so far (a copy, taken under the lock).
  client::ArrivalStats stats() const;
  // Stops recording CSV rows and closes the file; false when a write failed.
  bool close_csv();

 private:
  mutable std::mutex mutex_;
  double t0_s_ = 0.0;
  std::array<float, 5> volts_{};
  client::ArrivalStats stats_;
  std::optional<client::ReceivedFrame> latest_;
  std::deque<double> recent_;  // arrival times within the last second
  std::optional<std::string> report_;
  bool noticed_ = false;
  std::vector<std::string> events_;
  std::optional<std::string> ended_;
  std::unique_ptr<FrameCsv> csv_;
};

}  // namespace clamsim::receiver
