#include "corba/convert.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "corba/idl_fields.h"

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

CLAMX::ContactPair to_idl(core::ContactPair p) {
  switch (p) {
    case core::ContactPair::ClamWorld: return CLAMX::ClamWorld;
    case core::ContactPair::LoadWorld: return CLAMX::LoadWorld;
    case core::ContactPair::ClamLoad: return CLAMX::ClamLoad;
    case core::ContactPair::LoadLoad: return CLAMX::LoadLoad;
  }
  return CLAMX::ClamWorld;
}

CLAMX::SolidKind to_idl(core::SolidKind k) {
  switch (k) {
    case core::SolidKind::Deck: return CLAMX::Deck;
    case core::SolidKind::Rack: return CLAMX::Rack;
    case core::SolidKind::Gate: return CLAMX::Gate;
    case core::SolidKind::Wall: return CLAMX::Wall;
    case core::SolidKind::Floor: return CLAMX::Floor;
    case core::SolidKind::Truck: return CLAMX::Truck;
    case core::SolidKind::Bed: return CLAMX::Bed;
  }
  return CLAMX::Deck;
}

void to_loads(const core::Outputs& o, const core::WorldParams* world, CLAMX::LoadPoses& poses) {
  const int n = std::max(0, std::min(o.load_count, core::kMaxLoads));
  poses.length(static_cast<CORBA::ULong>(n));
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    CLAMX::LoadPose& p = poses[static_cast<CORBA::ULong>(i)];
    const core::Outputs::Load& l = o.loads[k];
    p.id = static_cast<CORBA::ULong>(i);
    p.mass_kg = world != nullptr && k < world->loads.size()
                    ? static_cast<CORBA::Float>(world->loads[k].mass_kg)
                    : 0.0f;
    copy_floats(l.position_m, p.position_m);
    copy_floats(l.orientation, p.orientation);
    p.held = l.held;
  }
}

void to_contacts(const core::Outputs& o, CLAMX::ContactMarkers& markers) {
  const int n = std::max(0, std::min(o.contact_count, core::kMaxContactMarkers));
  markers.length(static_cast<CORBA::ULong>(n));
  for (int i = 0; i < n; ++i) {
    const core::ContactMarker& m = o.contacts[static_cast<std::size_t>(i)];
    CLAMX::ContactMarker& c = markers[static_cast<CORBA::ULong>(i)];
    copy_floats(m.position_m, c.position_m);
    c.force_N = static_cast<CORBA::Float>(m.force_N);
    c.pair = to_idl(m.pair);
    c.solid = to_idl(m.solid);
    c.load = m.load;
  }
}

CLAMX::WorldEvents to_events(const core::WorldEvents& e) {
  CLAMX::WorldEvents w;
  core::copy_by_name<core::kWorldEventFields, kIdlEventFields>(e, w);
  return w;
}

void to_stability(const core::Outputs& o, CLAMX::StabilityState& s) {
  s.load_moment_pct = static_cast<CORBA::Float>(o.load_moment_pct);
  s.hook_load_kg = static_cast<CORBA::Float>(o.hook_load_kg);
  s.rated_kg = static_cast<CORBA::Float>(o.rated_kg);
  s.radius_m = static_cast<CORBA::Float>(o.radius_m);
  s.lmi_warning = o.lmi_warning;
  s.lmi_cutout = o.lmi_cutout;
  s.tilt_deg = static_cast<CORBA::Float>(o.tilt_deg);
  s.tilt_edge = static_cast<CORBA::Short>(o.tilt_edge);
  s.tipped_over = o.tipped_over;
}

}  // namespace

void to_display(const core::Outputs& out, CLAM::DisplayData display) {
  copy_floats(out.display, display);
}

CLAMX::TaskScore to_score(const training::TaskScore& s) {
  CLAMX::TaskScore t;
  core::copy_by_name<training::kTaskScoreFields, kIdlScoreFields>(s, t);
  return t;
}

void to_frame(const session::Frame& frame, CLAMX::Frame& f, const core::WorldParams* world) {
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
  copy_floats(o.clam_swing_deg, f.clam_swing_deg);
  copy_floats(o.tip, f.tip_m);
  copy_floats(o.point_a, f.point_a_m);
  copy_floats(o.point_b, f.point_b_m);
  copy_floats(o.point_c, f.point_c_m);
  to_loads(o, world, f.loads);
  copy_floats(o.clam_orientation, f.clam_orientation);
  f.clam_contact_force_N = static_cast<CORBA::Float>(o.clam_contact_force_N);
  f.clam_submerged = static_cast<CORBA::Float>(o.clam_submerged);
  to_stability(o, f.stability);
  to_contacts(o, f.contacts);
  f.events = to_events(o.events);
  f.score = to_score(frame.score);
  // a string member copies what it is given (even ""): only the one frame that ends a
  // task, and the frame after it, pay (no allocation per frame; docs/architecture.md)
  if (frame.report) {
    f.task_report_json = frame.report->c_str();
  } else if (const char* held = f.task_report_json.in(); held == nullptr || *held != '\0') {
    f.task_report_json = "";
  }
}

CLAMX::SessionStats to_stats(const session::CounterSnapshot& c) {
  CLAMX::SessionStats s;
  core::copy_by_name<session::kCounterFields, kIdlStatsFields>(c, s);
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

std::string without_trainee(const std::string& report_json) {
  // ordered: the report keeps its fields in the order the server wrote them
  const auto report = nlohmann::ordered_json::parse(report_json, nullptr, false);
  if (!report.is_object()) return "";
  auto redacted = report;
  if (redacted.contains("trainee")) redacted["trainee"] = nullptr;
  return redacted.dump(2);
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
