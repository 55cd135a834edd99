#include "corba/convert.h"

#include <cmath>
#include <cstdio>

namespace clamsim::corba {

namespace {

template <std::size_t N>
void copy_floats(const std::array<double, N>& from, CORBA::Float* to, double scale = 1.0) {
  for (std::size_t i = 0; i < N; ++i) to[i] = static_cast<CORBA::Float>(from[i] * scale);
}

CLAMX::WorkingState to_idl(core::WorkingState s) {
  switch (s) {
    case core::WorkingState::Free: return CLAMX::Free;
    case core::WorkingState::Distributed: return CLAMX::Distributed;
    case core::WorkingState::Full: return CLAMX::Full;
  }
  return CLAMX::Free;
}

CLAMX::GeoStatus to_idl(core::GeoStatus s) {
  switch (s) {
    case core::GeoStatus::InRange: return CLAMX::InRange;
    case core::GeoStatus::Open: return CLAMX::Open;
    case core::GeoStatus::Close: return CLAMX::Close;
  }
  return CLAMX::InRange;
}

CLAMX::LoadStatus to_idl(core::LoadStatus s) {
  return s == core::LoadStatus::WithLoad ? CLAMX::WithLoad : CLAMX::WithoutLoad;
}

}  // namespace

void to_display(const core::Outputs& out, CLAM::DisplayData display) {
  copy_floats(out.display, display);
}

void to_frame(const session::Frame& frame, CLAMX::Frame& f) {
  const core::Outputs& o = frame.outputs;
  f.seq = frame.seq;
  f.sim_time_s = o.time_s;
  to_display(o, f.display);
  copy_floats(o.joint_vel, f.joint_velocity);
  copy_floats(o.tensions_N, f.tension_N);
  copy_floats(o.pressures_Pa, f.pressure_MPa, 1e-6);
  f.working = to_idl(o.working);
  f.geo = to_idl(o.geo);
  f.load = to_idl(o.load);
  f.theta2_deg = static_cast<CORBA::Float>(o.theta2_clam_deg);
  f.jaw_gap_m = static_cast<CORBA::Float>(o.jaw_gap_m);
  f.squeeze_N = static_cast<CORBA::Float>(o.squeeze_N);
  f.clam_swing_deg[0] = 0.0f;  // the clam's swing under the tip arrives with issue 5
  f.clam_swing_deg[1] = 0.0f;
  copy_floats(o.tip, f.tip_m);
  copy_floats(o.point_a, f.point_a_m);
  copy_floats(o.point_b, f.point_b_m);
  copy_floats(o.point_c, f.point_c_m);
  f.loads.length(0);
}

CLAMX::SessionStats to_stats(const session::CounterSnapshot& c) {
  CLAMX::SessionStats s;
  s.frames_sent = c.frames_sent;
  s.send_failures = c.send_failures;
  s.controls_received = c.controls_received;
  s.controls_rejected = c.controls_rejected;
  s.controls_clamped = c.controls_clamped;
  s.late_frames = c.late_frames;
  s.skipped_frames = c.skipped_frames;
  return s;
}

CLAMX::ServerStatus* to_status(const ServerFigures& f) {
  CLAMX::ServerStatus_var s = new CLAMX::ServerStatus;
  s->sessions = static_cast<CORBA::ULong>(f.sessions);
  s->capacity = static_cast<CORBA::ULong>(f.capacity);
  s->version = CORBA::string_dup(f.version.c_str());
  s->frames_sent = f.totals.frames_sent;
  s->send_failures = f.totals.send_failures;
  s->controls_received = f.totals.controls_received;
  s->controls_rejected = f.totals.controls_rejected;
  s->sessions_reaped = f.sessions_reaped;
  return s._retn();
}

bool from_options(const CLAMX::SubscribeOptions& o, SubscribeRequest* out, std::string* error) {
  const double hz = o.frame_rate_hz;
  if (!std::isfinite(hz) || hz < 0.0) {
    *error = "frame_rate_hz must be 0 (server default) or a positive rate, got " +
             std::to_string(hz);
    return false;
  }
  out->frame_period_s = hz > 0.0 ? 1.0 / hz : 0.0;
  out->model = o.model.in();
  out->scenario = o.scenario.in();
  return true;
}

std::string describe(const CORBA::Exception& e) {
  std::string text = e._name();
  if (const auto* sys = CORBA::SystemException::_downcast(&e)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (minor 0x%08lx, %s)", static_cast<unsigned long>(sys->minor()),
                  sys->completed() == CORBA::COMPLETED_YES  ? "COMPLETED_YES"
                  : sys->completed() == CORBA::COMPLETED_NO ? "COMPLETED_NO"
                                                            : "COMPLETED_MAYBE");
    text += buf;
  }
  return text;
}

}  // namespace clamsim::corba
