#include "web/replay_json.h"

#include <cmath>

namespace clamsim::web {

using ojson = nlohmann::ordered_json;

namespace {

// The plots need no more: 0.1 N of rope pull, 0.001 deg/s or mm/s of joint speed.
double rounded(double v, double step) { return std::isfinite(v) ? std::round(v / step) * step : 0.0; }

template <class Vector>
ojson rounded_array(const Vector& values, double step) {
  ojson a = ojson::array();
  for (const double v : values) a.push_back(rounded(v, step));
  return a;
}

}  // namespace

ojson replay_hello_json(const std::string& name, const session::RecordedSession& r) {
  ojson j;
  j["recording"] = name;
  j["label"] = r.meta.count("label") ? r.meta.at("label") : "";
  j["trainee"] = r.trainee;
  j["frames"] = r.last_k;
  j["frame_period_s"] = r.frame_period_s();
  j["start_utc"] = r.meta.count("start_utc") ? r.meta.at("start_utc") : "";
  j["complete"] = r.truncated.empty();
  if (!r.seed_recording().empty())
    j["taken_over_from"] = {{"recording", r.seed_recording()}, {"k", r.seed_k()}};
  j["speeds"] = session::kReplaySpeeds;
  return j;
}

std::string replay_progress_json(std::uint64_t done, std::uint64_t of) {
  return ojson{{"type", "replay_progress"}, {"done", done}, {"of", of}}.dump();
}

std::string replay_timeline_json(const session::ReplayRun& run) {
  const double period = run.frame_period_s();
  ojson events = ojson::array();
  for (const session::ReplayEvent& e : run.events()) {
    ojson j{{"k", e.k}, {"t", rounded(static_cast<double>(e.k) * period, 1e-3)}, {"kind", e.kind},
            {"value", e.value}};
    if (!e.text.empty()) j["text"] = e.text;
    events.push_back(std::move(j));
  }
  const session::ReplaySeries& s = run.series();
  ojson t = ojson::array();
  for (const std::uint64_t k : s.k) t.push_back(rounded(static_cast<double>(k) * period, 1e-3));
  ojson series{{"k", s.k}, {"t", std::move(t)},
               {"tension_N", {rounded_array(s.tension_N[0], 0.1), rounded_array(s.tension_N[1], 0.1)}},
               {"joint_velocity", {rounded_array(s.joint_velocity[0], 1e-3),
                                   rounded_array(s.joint_velocity[1], 1e-3),
                                   rounded_array(s.joint_velocity[2], 1e-3)}}};
  return ojson{{"type", "replay_timeline"}, {"frames", run.frames()}, {"events", std::move(events)},
               {"series", std::move(series)}}.dump();
}

std::string replay_state_json(const session::ReplayState& state) {
  return ojson{{"type", "replay_state"}, {"playing", state.playing}, {"speed", state.speed},
               {"k", state.k}}.dump();
}

std::string take_over_json(const std::string& ticket) {
  return ojson{{"type", "take_over"}, {"ticket", ticket}}.dump();
}

std::string replay_ticket_json(const std::string& recording, const std::string& ticket) {
  return ojson{{"type", "replay_ticket"}, {"recording", recording}, {"ticket", ticket}}.dump();
}

}  // namespace clamsim::web
