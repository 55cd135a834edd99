#include "web/frame_json.h"

#include <algorithm>
#include <cmath>

#include "core/crane.h"
#include "core/part_poses.h"
#include "core/stability.h"
#include "session/server_wide.h"
#include "web/field_json.h"
#include "training/report_figures.h"
#include "training/task_score.h"

namespace clamsim::web {

namespace {

using ojson = nlohmann::ordered_json;

constexpr double kDeg = 180.0 / 3.14159265358979323846;

// Rounded to `decimals` places so a frame stays short: an integer over a power of ten is
// the double nlohmann prints shortest ("29.999", not "29.999000000000002"). -0 becomes 0;
// non-finite values pass through and print as null.
double r(double x, int decimals) {
  static constexpr double kPow10[] = {1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
  if (!std::isfinite(x)) return x;
  const double scale = kPow10[decimals < 0 ? 0 : decimals > 6 ? 6 : decimals];
  const double v = std::round(x * scale) / scale;
  return v == 0.0 ? 0.0 : v;
}

template <std::size_t N>
ojson arr(const std::array<double, N>& v, int decimals, double scale = 1.0) {
  ojson a = ojson::array();
  for (double x : v) a.push_back(r(x * scale, decimals));
  return a;
}

// Client text may hold anything; never let a bad byte throw while serialising.
std::string dump(const ojson& j) { return j.dump(-1, ' ', false, ojson::error_handler_t::replace); }

ojson link_json(const core::LinkParams& l) {
  ojson j;
  j["mass_kg"] = l.mass_kg;
  j["com_m"] = l.com_m;
  j["box_m"] = arr(box_from_inertia(l.mass_kg, l.inertia_kgm2), 3);
  return j;
}

// the rope's limits, its drum, and where it is reeved: the drum, foot and tip sheaves as
// points in the parts the frame places (core::rope_anchors), so the browser draws the rope
// along the boom from the parts' poses
ojson cable_json(const core::CraneParams& c, const core::WinchParams& w) {
  ojson j;
  j["min_length_m"] = w.min_length_m;
  j["max_length_m"] = w.max_length_m;
  j["drum_radius_m"] = w.drum_radius_m;
  // a loop longer than this is a slack event (display.flags.slack_m is the loop)
  j["slack_margin_m"] = w.slack_margin_m;
  ojson reeving = ojson::array();
  for (const core::RopeAnchor& a : core::rope_anchors(c, w.reeving))
    reeving.push_back({{"part", core::kPartNames[static_cast<std::size_t>(a.part)]},
                       {"at", {r(a.at.x(), 4), r(a.at.y(), 4), r(a.at.z(), 4)}}});
  j["reeving"] = std::move(reeving);
  return j;
}

}  // namespace

std::array<double, 3> box_from_inertia(double mass_kg, const std::array<double, 3>& inertia_kgm2) {
  std::array<double, 3> side{};
  if (!(mass_kg > 0.0)) return side;
  const double sum = inertia_kgm2[0] + inertia_kgm2[1] + inertia_kgm2[2];
  for (std::size_t a = 0; a < 3; ++a) {
    const double sq = 6.0 * (sum - 2.0 * inertia_kgm2[a]) / mass_kg;  // I_b + I_c - I_a
    side[a] = sq > 0.0 ? std::sqrt(sq) : 0.0;
  }
  return side;
}

ojson machine_json(const core::MachineParams& p) {
  const core::CraneParams& c = p.crane;
  ojson crane;
  crane["d1_m"] = c.d1_m;
  crane["a1_m"] = c.a1_m;
  crane["boom_min_deg"] = r(c.boom_min_rad * kDeg, 6);
  crane["boom_max_deg"] = r(c.boom_max_rad * kDeg, 6);
  crane["telescope_min_m"] = c.telescope_min_m;
  crane["telescope_max_m"] = c.telescope_max_m;
  // the swing cab as drawn, without its counterweight, which the dynamics fold into link 1
  crane["links"]["swing_cab"] = link_json(c.cab);
  crane["links"]["boom_base"] = link_json(c.links[1]);
  crane["links"]["telescopic"] = link_json(c.links[2]);
  crane["counterweight"] = {{"mass_kg", c.counterweight.mass_kg},
                            {"com_m", c.counterweight.com_m},
                            {"box_m", c.counterweight.size_m}};
  // the boom cylinder as drawn (parts boom_cylinder and boom_rod): eq 2.17's length at the
  // boom's lowest and highest angles, and the bore of one cylinder with the model's area
  const core::BoomGeometry& g = p.hydraulics.boom_geometry;
  crane["boom_cylinder"] = {
      {"retracted_m", r(core::boom_cylinder_length(g, c.boom_min_rad), 4)},
      {"extended_m", r(core::boom_cylinder_length(g, c.boom_max_rad), 4)},
      {"bore_m", r(std::sqrt(4.0 * p.hydraulics.boom_cylinders.cap_area_m2 / 3.14159265358979323846), 4)}};

  const core::ClamParams& k = p.clam;
  ojson clam;
  clam["link1_length_m"] = k.link1_length_m;
  clam["link2_length_m"] = k.link2_length_m;
  clam["lip_length_m"] = k.lip_length_m;
  clam["bucket_width_m"] = k.bucket_width_m;
  clam["theta2_open_deg"] = r(k.theta2_open_rad * kDeg, 6);
  clam["theta2_closed_deg"] = r(k.theta2_closed_rad * kDeg, 6);
  // two top links, two buckets, one pulley
  clam["mass_kg"] = 2.0 * k.link1_mass_kg + 2.0 * k.link2_mass_kg + k.link3_mass_kg;
  clam["max_load_kg"] = k.max_load_kg;
  // the closing rope's parts between the head and the block (docs/model.md, Decisions): a
  // viewer draws rope 2 down to the head and n parts on to C, and its hanging length is
  // the reach plus n times the head-to-block distance
  clam["closing_parts"] = k.closing_parts;

  ojson m;
  m["crane"] = std::move(crane);
  m["clam"] = std::move(clam);
  m["cables"] = ojson::array({cable_json(c, p.hydraulics.winches[0]),
                              cable_json(c, p.hydraulics.winches[1])});
  // each channel's relief setting, ControlSignal order: a line at it is a relief valve
  // blowing, which the browser hears (web/js/sound-model.js)
  ojson relief = ojson::array();
  for (const core::ActuatorChannel& ch : p.hydraulics.channels)
    relief.push_back(r(ch.valve.relief_pressure_Pa * 1e-6, 6));
  m["hydraulics"]["relief_MPa"] = std::move(relief);
  // what the machine stands on, and the load moment indicator's levels (the browser shows
  // the server's thresholds, docs/model.md Stability)
  const core::CarrierParams& car = p.carrier;
  m["carrier"] = {{"outrigger_front_m", car.front_m},
                  {"outrigger_rear_m", car.rear_m},
                  {"outrigger_half_span_m", car.half_span_m},
                  {"pad_height_m", car.pad_height_m}};
  m["load_moment"] = {{"warning_pct", p.load_moment.warning_pct},
                      {"cutout_pct", p.load_moment.cutout_pct}};
  return m;
}

std::string hello_json(const HelloInfo& info, const core::MachineParams& machine,
                       const ojson& scene) {
  ojson j;
  j["type"] = "hello";
  j["protocol"] = kProtocolVersion;
  j["session"] = info.session;
  j["server"] = info.server;
  j["frame_period_s"] = info.frame_period_s;
  j["frame_rates_hz"] = info.frame_rates_hz;
  j["model"] = info.model;
  j["scenario"] = info.scenario;
  if (!info.observing.is_null()) j["observing"] = info.observing;
  if (!info.replay.is_null()) j["replay"] = info.replay;
  if (!info.taken_over.is_null()) j["taken_over"] = info.taken_over;
  j["limits"] = {{"max_message_bytes", info.max_message_bytes},
                 {"max_messages_per_s", info.max_messages_per_s},
                 {"full_stick_V", core::kFullStick_V}};
  j["display_fields"] = core::kDisplayFields;
  j["machine"] = machine_json(machine);
  // the order of every display frame's `parts` (core/parts.h)
  j["parts"] = core::kPartNames;
  j["scene"] = scene;
  return dump(j);
}

ojson scene_load_ids(const ojson& scene) {
  ojson ids = ojson::array();
  const auto loads = scene.find("loads");
  if (!scene.is_object() || loads == scene.end() || !loads->is_array()) return ids;
  for (std::size_t i = 0; i < loads->size(); ++i) {
    const ojson& l = (*loads)[i];
    const auto id = l.is_object() ? l.find("id") : l.end();
    ids.push_back(l.is_object() && id != l.end() ? *id : ojson(i));
  }
  return ids;
}

DisplayEncoder::DisplayEncoder(const ojson& load_ids) {
  load_ids_.reserve(load_ids.size());
  for (const ojson& id : load_ids) load_ids_.push_back(dump(id));
}

namespace {

template <std::size_t N>
void write_array(JsonWriter& w, const std::array<double, N>& v, int decimals,
                 double scale = 1.0) {
  w.begin_array();
  for (double x : v) w.number(r(x * scale, decimals));
  w.end_array();
}

// display.loads: each load's pose and state; i = its index in the world
void write_loads(JsonWriter& w, const core::Outputs& o, int n_loads,
                 const std::vector<std::string>& ids) {
  w.begin_array();
  for (int i = 0; i < n_loads; ++i) {
    const core::Outputs::Load& l = o.loads[static_cast<std::size_t>(i)];
    w.begin_object();
    w.key("id");
    if (static_cast<std::size_t>(i) < ids.size()) w.raw(ids[static_cast<std::size_t>(i)]);
    else w.number(i);
    w.key("position_m");
    write_array(w, l.position_m, 3);
    w.key("orientation");
    write_array(w, l.orientation, 4);
    w.field("held", l.held);
    w.field("in_contact", l.in_contact);
    w.field("submerged", r(l.submerged, 2));
    w.end_object();
  }
  w.end_array();
}

void write_contacts(JsonWriter& w, const core::Outputs& o, int n_loads) {
  w.begin_array();
  const int n_contacts = std::clamp(o.contact_count, 0, core::kMaxContactMarkers);
  for (int i = 0; i < n_contacts; ++i) {
    const core::ContactMarker& c = o.contacts[static_cast<std::size_t>(i)];
    const bool world = c.pair == core::ContactPair::ClamWorld ||
                       c.pair == core::ContactPair::LoadWorld;
    w.begin_object();
    w.key("position_m");
    write_array(w, c.position_m, 3);
    w.field("force_N", r(c.force_N, 0));
    w.key("pair");
    w.string(core::to_string(c.pair));
    w.key("solid");
    if (world) w.string(core::to_string(c.solid));
    else w.null();
    w.key("load");
    if (c.load >= 0 && c.load < n_loads) w.number(c.load);
    else w.null();
    w.end_object();
  }
  w.end_array();
}

// display.parts: each part's pose, [x, y, z, qw, qx, qy, qz], in hello.parts' order
void write_parts(JsonWriter& w, const core::PartPoses& parts) {
  w.begin_array();
  for (const core::PartPose& p : parts) {
    w.begin_array();
    for (double x : p.position_m) w.number(r(x, 4));
    for (double x : p.orientation) w.number(r(x, 5));
    w.end_array();
  }
  w.end_array();
}

// display.flags: the world's own states (hysteresis), which the browser shows as they are
void write_flags(JsonWriter& w, const core::Outputs& o) {
  w.begin_object();
  w.key("slack");
  w.begin_array();
  w.boolean(o.rope_slack[0]);
  w.boolean(o.rope_slack[1]);
  w.end_array();
  w.key("slack_m");
  write_array(w, o.slack_m, 3);
  w.key("overload");
  w.boolean(o.overloaded);
  w.key("two_block");
  w.boolean(o.two_blocked);
  w.end_object();
}

void write_score(JsonWriter& w, const training::TaskScore& s) {
  if (s.enabled) {
    write_fields(w, training::kTaskScoreFields, s);
    return;
  }
  w.begin_object();
  w.field("enabled", false);
  w.end_object();
}

void write_lesson(JsonWriter& w, const training::LessonProgress& l) {
  w.begin_object();
  w.field("step", l.step);
  w.field("steps", l.steps);
  w.field("finished", l.finished);
  w.field("progress", r(l.progress, 2));
  w.field("elapsed_s", r(l.elapsed_s, 2));
  w.field("setbacks", l.setbacks);
  w.end_object();
}

}  // namespace

namespace {

constexpr int mm = 4, mdeg = 3;  // decimals: 0.1 mm and 0.001 deg

// The operator's instruments: the display's eight values, the joints' speeds, the cable
// tensions, the cylinder pressures and the machine's states.
void write_instruments(JsonWriter& w, const core::Outputs& o) {
  // Table 4.1: swing deg, boom deg, telescope m, clam-to-tip m, opening deg, cable 1 m,
  // cable 2 m, load kg
  const auto& d = o.display;
  static constexpr int kDisplayDecimals[] = {mdeg, mdeg, mm, mm, mdeg, mm, mm, 1};
  w.key("display");
  w.begin_array();
  for (std::size_t i = 0; i < 8; ++i) w.number(r(d[i], kDisplayDecimals[i]));
  w.end_array();
  w.key("joint_velocity");
  w.begin_array();
  w.number(r(o.joint_vel[0], mdeg));
  w.number(r(o.joint_vel[1], mdeg));
  w.number(r(o.joint_vel[2], mm));
  w.end_array();
  w.key("tension_N");
  write_array(w, o.tensions_N, 1);
  w.key("pressure_MPa");
  write_array(w, o.pressures_Pa, 4, 1e-6);
  w.key("working");
  w.string(core::to_string(o.working));
  w.key("geo");
  w.string(core::to_string(o.geo));
  w.key("load");
  w.string(core::to_string(o.load));
}

// The machine as the 3D view draws it: the clam's jaws, the key points, every part's pose
// and the rope and limit flags.
void write_geometry(JsonWriter& w, const core::Outputs& o) {
  w.field("theta1_deg", r(o.theta1_clam_deg, mdeg));
  w.field("theta2_deg", r(o.theta2_clam_deg, mdeg));
  w.field("jaw_gap_m", r(o.jaw_gap_m, mm));
  w.field("squeeze_N", r(o.squeeze_N, 1));
  w.field("stop_force_N", r(o.stop_force_N, 1));
  w.key("tip_m");
  write_array(w, o.tip, mm);
  w.key("point_a_m");
  write_array(w, o.point_a, mm);
  w.key("point_b_m");
  write_array(w, o.point_b, mm);
  w.key("point_c_m");
  write_array(w, o.point_c, mm);
  w.key("cable_rate_m_s");
  write_array(w, o.cable_rates_m_per_s, mm);
  w.key("clam_vel_m_s");
  write_array(w, o.clam_vel_m_per_s, mm);
  w.key("parts");
  write_parts(w, o.parts);
  w.key("flags");
  write_flags(w, o);
}

// The clam in the working world: its swing and attitude, what it touches, the water.
void write_clam_in_world(JsonWriter& w, const core::Outputs& o) {
  w.key("clam_swing_deg");
  write_array(w, o.clam_swing_deg, mdeg);
  w.key("clam_orientation");
  write_array(w, o.clam_orientation, 4);
  w.field("clam_contact_force_N", r(o.clam_contact_force_N, 1));
  w.field("clam_submerged", r(o.clam_submerged, 2));
  // an instructor's condition: how murky the water is, 0 clear .. 1 nil
  w.field("turbidity", r(o.turbidity, 2));
}

// Stability: the load moment indicator and the machine's tilt.
void write_stability(JsonWriter& w, const core::Outputs& o) {
  w.field("load_moment_pct", r(o.load_moment_pct, 1));
  w.field("hook_load_kg", r(o.hook_load_kg, 1));
  w.field("rated_kg", r(o.rated_kg, 1));
  w.field("radius_m", r(o.radius_m, mm));
  w.key("lmi");
  w.string(o.lmi_cutout ? "cutout" : o.lmi_warning ? "warning" : "ok");
  w.field("tilt_deg", r(o.tilt_deg, mdeg));
  w.key("tilt_edge");
  w.string(core::tip_edge_name(o.tilt_edge));
  w.key("tipped_over");
  w.boolean(o.tipped_over);
  // the line the machine turns about (a side of its pads), null while it stands on all four
  w.key("tilt_axis");
  if (o.tilt_edge == core::kNoEdge) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("point_m");
  write_array(w, o.tilt_axis_point_m, mm);
  w.key("direction");
  write_array(w, o.tilt_axis_direction, 6);
  w.end_object();
}

// The world's loads, which one the clam holds, the contacts and the frame's events.
void write_world(JsonWriter& w, const core::Outputs& o, const std::vector<std::string>& load_ids) {
  const int n_loads = std::clamp(o.load_count, 0, core::kMaxLoads);
  w.key("loads");
  write_loads(w, o, n_loads, load_ids);
  w.key("held_load");
  if (o.held_load >= 0 && o.held_load < n_loads) w.number(o.held_load);
  else w.null();
  w.key("contacts");
  write_contacts(w, o, n_loads);
  w.key("events");
  write_fields(w, core::kWorldEventFields, o.events);
}

}  // namespace

void DisplayEncoder::encode(const session::Frame& frame, std::string& out) const {
  const core::Outputs& o = frame.outputs;
  out.clear();  // keeps its capacity
  JsonWriter w(out);
  w.begin_object();
  w.key("type");
  w.string("display");
  w.field("seq", frame.seq);
  w.field("t", r(o.time_s, 4));
  w.field("control_seq", frame.control_seq);
  write_instruments(w, o);
  write_geometry(w, o);
  write_clam_in_world(w, o);
  write_stability(w, o);
  write_world(w, o, load_ids_);
  w.key("score");
  write_score(w, frame.score);
  if (frame.lesson.enabled) {
    w.key("lesson");
    write_lesson(w, frame.lesson);
  }
  w.end_object();
}

std::string display_json(const session::Frame& frame, const ojson& load_ids) {
  std::string text;
  DisplayEncoder(load_ids).encode(frame, text);
  return text;
}

std::string report_json(const session::Frame& frame) {
  if (!frame.report) return {};
  ojson j;
  j["type"] = "report";
  j["v"] = kReportVersion;
  j["seq"] = frame.seq;
  j["t"] = r(frame.outputs.time_s, 4);
  // the session wrote it; should it ever not parse, the browser still gets the text
  ojson report = ojson::parse(*frame.report, nullptr, /*allow_exceptions=*/false);
  j["report"] = report.is_discarded() ? ojson(*frame.report) : std::move(report);
  return dump(j);
}

std::string trainee_json(const std::string& name) {
  nlohmann::ordered_json j;
  j["type"] = "trainee";
  j["name"] = name;
  return j.dump();
}

std::string restarting_json(const nlohmann::json& id) {
  ojson j;
  j["type"] = "restarting";
  j["id"] = id;
  return dump(j);
}

std::string pong_json(const nlohmann::json& id, const nlohmann::json& t, double sim_t) {
  ojson j;
  j["type"] = "pong";
  j["id"] = id;
  j["t"] = t;
  j["sim_t"] = r(sim_t, 4);
  return dump(j);
}

std::string error_json(const std::string& code, const std::string& message) {
  ojson j;
  j["type"] = "error";
  j["code"] = code;
  j["message"] = message;
  return dump(j);
}

std::string drain_json(double seconds_left) {
  const long whole = session::drain_whole_seconds(std::max(0.0, seconds_left));
  ojson j;
  j["type"] = "drain";
  j["seconds_left"] = whole;
  j["message"] = session::drain_notice_text(whole);
  return dump(j);
}

}  // namespace clamsim::web
