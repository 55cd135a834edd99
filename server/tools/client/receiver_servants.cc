#include "tools/client/receiver_servants.h"

#include <utility>

namespace clamsim::client {

ReceivedFrame from_idl(const CLAMX::Frame& f, double arrival_s) {
  ReceivedFrame r;
  r.arrival_s = arrival_s;
  r.extended = true;
  r.seq = f.seq;
  r.sim_time_s = f.sim_time_s;
  for (std::size_t i = 0; i < r.display.size(); ++i) r.display[i] = f.display[i];
  for (std::size_t i = 0; i < 3; ++i) {
    r.joint_velocity[i] = f.joint_velocity[i];
    r.tip_m[i] = f.tip_m[i];
  }
  r.tension_N = {f.tension_N[0], f.tension_N[1]};
  r.working = static_cast<int>(f.working);
  r.geo = static_cast<int>(f.geo);
  r.load = static_cast<int>(f.load);
  r.theta2_deg = f.theta2_deg;
  r.jaw_gap_m = f.jaw_gap_m;
  r.squeeze_N = f.squeeze_N;
  r.loads = static_cast<int>(f.loads.length());
  for (CORBA::ULong i = 0; i < f.loads.length(); ++i)
    if (f.loads[i].held) r.held_load = static_cast<int>(f.loads[i].id);
  const CLAMX::TaskScore& t = f.score;
  r.score.enabled = t.enabled;
  r.score.running = t.running;
  r.score.finished = t.finished;
  r.score.completed = t.completed;
  r.score.elapsed_s = t.elapsed_s;
  r.score.limit_s = t.limit_s;
  r.score.delivered = static_cast<int>(t.delivered);
  r.score.required = static_cast<int>(t.required);
  r.score.penalty_points = t.penalty_points;
  r.score.total = t.total;
  if (f.task_report_json.in()[0] != '\0') r.task_report_json = f.task_report_json.in();
  return r;
}

ReceivedFrame from_idl(const CLAM::DisplayData data, double arrival_s) {
  ReceivedFrame r;
  r.arrival_s = arrival_s;
  for (std::size_t i = 0; i < r.display.size(); ++i) r.display[i] = data[i];
  return r;
}

FrameServant::FrameServant(std::shared_ptr<FrameObserver> observer)
    : observer_(std::move(observer)) {}

void FrameServant::getFrame(const CLAMX::Frame& f) {
  const double t = now_s();  // before anything else: the arrival time is the measurement
  observer_->on_frame(from_idl(f, t));
}

void FrameServant::getDisplayData(const CLAM::DisplayData data) {
  const double t = now_s();
  observer_->on_frame(from_idl(data, t));
}

void FrameServant::notify(const CLAMX::ServerNotice& notice) {
  observer_->on_notice(notice.kind.in(), notice.seconds_left, notice.message.in());
}

DisplayServant::DisplayServant(std::shared_ptr<FrameObserver> observer)
    : observer_(std::move(observer)) {}

void DisplayServant::getDisplayData(const CLAM::DisplayData data) {
  const double t = now_s();
  observer_->on_frame(from_idl(data, t));
}

}  // namespace clamsim::client
