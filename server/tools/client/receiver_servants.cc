#include "tools/client/receiver_servants.h"

#include <utility>

#include "corba/idl_fields.h"

namespace clamsim::client {

namespace {

// CLAMX's enums back to core's (the server's corba/convert.cc goes the other way), so the
// receiver names them with core::to_string, the one spelling.
core::WorkingState to_core(CLAMX::WorkingState s) {
  switch (s) {
    case CLAMX::Distributed: return core::WorkingState::Distributed;
    case CLAMX::Full: return core::WorkingState::Full;
    default: return core::WorkingState::Free;
  }
}

core::GeoStatus to_core(CLAMX::GeoStatus s) {
  switch (s) {
    case CLAMX::Open: return core::GeoStatus::Open;
    case CLAMX::Close: return core::GeoStatus::Close;
    default: return core::GeoStatus::InRange;
  }
}

core::LoadStatus to_core(CLAMX::LoadStatus s) {
  return s == CLAMX::WithLoad ? core::LoadStatus::WithLoad : core::LoadStatus::WithoutLoad;
}

}  // namespace

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
  r.working = to_core(f.working);
  r.geo = to_core(f.geo);
  r.load = to_core(f.load);
  r.theta2_deg = f.theta2_deg;
  r.jaw_gap_m = f.jaw_gap_m;
  r.squeeze_N = f.squeeze_N;
  r.loads = static_cast<int>(f.loads.length());
  for (CORBA::ULong i = 0; i < f.loads.length(); ++i)
    if (f.loads[i].held) r.held_load = static_cast<int>(f.loads[i].id);
  core::copy_from_wire<corba::kIdlScoreFields, training::kTaskScoreFields>(f.score, r.score);
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
