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
  // an observer records the trainee's volts, a driver its own
  if (csv_) csv_->row(frame, t0_s_, frame.trainee_volts ? *frame.trainee_volts : volts_);
  if (!frame.task_report_json.empty()) report_ = frame.task_report_json;
  if (frame.trainee_volts) volts_ = *frame.trainee_volts;
  constexpr std::size_t kMaxPending = 256;  // nobody reading: a bounded backlog
  for (const std::string& e : frame.events)
    if (events_.size() < kMaxPending) events_.push_back(e);
}

std::vector<std::string> FrameMonitor::take_events() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> e;
  e.swap(events_);
  return e;
}

std::optional<std::string> FrameMonitor::observation_ended() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ended_;
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
  if (kind == "observation_ended") {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = message;
    return;
  }
  if (kind != "drain") {   // an instructor's message, a change of who drives: each shown
    std::fprintf(stderr, "clamsim-receiver: %s: %s\n",
                 kind == "instructor_message" ? "instructor" : "server", message.c_str());
    return;
  }
  const long whole = std::lround(seconds_left);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (noticed_ && whole % 30 != 0 && whole > 10) return;
    noticed_ = true;
  }
  std::fprintf(stderr, "clamsim-receiver: server %s: %s\n", kind.c_str(), message.c_str());
}

}  // namespace clamsim::receiver
