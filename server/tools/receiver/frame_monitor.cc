#include "tools/receiver/frame_monitor.h"

#include <cmath>
#include <cstdio>
#include <utility>

namespace clamsim::receiver {

FrameMonitor::FrameMonitor(double period_s, std::unique_ptr<FrameCsv> csv)
    : stats_(period_s), csv_(std::move(csv)) {}

void FrameMonitor::start(double t0_s) {
  std::lock_guard<std::mutex> lock(mutex_);
  t0_s_ = t0_s;
}

void FrameMonitor::set_volts(const std::array<float, 5>& volts) {
  std::lock_guard<std::mutex> lock(mutex_);
  volts_ = volts;
}

void FrameMonitor::on_frame(const client::ReceivedFrame& frame) {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.add(frame);
  latest_ = frame;
  recent_.push_back(frame.arrival_s);
  while (!recent_.empty() && recent_.front() < frame.arrival_s - 1.0) recent_.pop_front();
  if (csv_) csv_->row(frame, t0_s_, volts_);
  if (!frame.task_report_json.empty()) report_ = frame.task_report_json;
}

std::optional<std::string> FrameMonitor::take_report() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<std::string> r;
  r.swap(report_);
  return r;
}

MonitorSnapshot FrameMonitor::snapshot(double now_s) const {
  std::lock_guard<std::mutex> lock(mutex_);
  MonitorSnapshot s;
  s.latest = latest_;
  s.frames = stats_.frames();
  s.gaps = stats_.lost();
  std::size_t in_last_second = 0;
  for (double t : recent_) {
    if (t >= now_s - 1.0) ++in_last_second;
  }
  s.rate_hz = static_cast<double>(in_last_second);
  s.since_last_s = now_s - (latest_ ? latest_->arrival_s : t0_s_);
  return s;
}

client::ArrivalStats FrameMonitor::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

bool FrameMonitor::close_csv() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!csv_) return true;
  const bool ok = csv_->close();
  csv_.reset();
  return ok;
}

void FrameMonitor::on_notice(const std::string& kind, double seconds_left,
                              const std::string& message) {
  const long whole = std::lround(seconds_left);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (noticed_ && whole % 30 != 0 && whole > 10) return;
    noticed_ = true;
  }
  std::fprintf(stderr, "clamsim-receiver: server %s: %s\n", kind.c_str(), message.c_str());
}

}  // namespace clamsim::receiver
