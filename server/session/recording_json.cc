#include "session/recording_json.h"

#include <stdexcept>

#include "record/crc32.h"

namespace clamsim::session {

using json = nlohmann::json;

const RecordingChannel kInputsChannel{"/inputs", "clamsim.Input", R"schema({
  "title": "clamsim.Input",
  "description": "An input as it reached the session at a frame boundary: k is the frame it took effect in.",
  "type": "object",
  "properties": {
    "k": {"type": "integer", "description": "frame index from the session's start (1, 2, ...)"},
    "kind": {"enum": ["control", "restart", "faults", "driver", "note", "message", "trainee"]},
    "volts": {"type": "array", "items": {"type": "number"}, "description": "control: the five valve voltages that drive the machine [V]"},
    "practice": {"type": "boolean", "description": "restart: a practice attempt (no time limit)"},
    "trainee_volts": {"type": "array", "items": {"type": "number"}, "description": "control: the trainee's stick, when it differs from volts [V]"},
    "faults": {"type": "object", "description": "faults: every physics fault slot in force"},
    "driver": {"enum": ["trainee", "instructor", "both"]},
    "instructor": {"type": "string"},
    "note": {"type": "string", "description": "note: control, message, fault, fault_cleared"},
    "detail": {"type": "string"},
    "by": {"type": "string"},
    "from": {"type": "string"},
    "text": {"type": "string"},
    "name": {"type": "string", "description": "trainee: the name at the controls"}
  },
  "required": ["k", "kind"]
})schema"};

const RecordingChannel kFramesChannel{"/frames", "clamsim.Frame", R"schema({
  "title": "clamsim.Frame",
  "description": "The machine's outputs at a frame (every Nth frame), SI units as named.",
  "type": "object",
  "properties": {
    "k": {"type": "integer"}, "seq": {"type": "integer"}, "time_s": {"type": "number"},
    "display": {"type": "array", "items": {"type": "number"}, "description": "DisplayData, thesis Table 4.1: swing deg, boom deg, telescope m, clam to tip m, opening deg, cable 1 m, cable 2 m, load kg"},
    "joint_vel": {"type": "array", "items": {"type": "number"}, "description": "swing deg/s, boom deg/s, telescope m/s"},
    "pressures_Pa": {"type": "array", "items": {"type": "number"}},
    "tensions_N": {"type": "array", "items": {"type": "number"}},
    "state_crc32": {"type": "integer", "description": "CRC-32 of the continuous state, time and step count"}
  },
  "required": ["k", "seq", "time_s", "display", "state_crc32"]
})schema"};

const RecordingChannel kEventsChannel{"/events", "clamsim.Events", R"schema({
  "title": "clamsim.Events",
  "description": "The world's event counts at a frame where one of them grew: hits, slack, overloads, grips, releases.",
  "type": "object",
  "properties": {
    "k": {"type": "integer"}, "time_s": {"type": "number"},
    "changed": {"type": "array", "items": {"type": "string"}},
    "events": {"type": "object", "additionalProperties": {"type": "integer"}}
  },
  "required": ["k", "time_s", "changed", "events"]
})schema"};

const RecordingChannel kScoreChannel{"/score", "clamsim.Score", R"schema({
  "title": "clamsim.Score",
  "description": "The training task's score, at each recorded frame and whenever more than its clock changed.",
  "type": "object",
  "properties": {
    "k": {"type": "integer"}, "time_s": {"type": "number"},
    "score": {"type": "object"}
  },
  "required": ["k", "time_s", "score"]
})schema"};

namespace {

template <std::size_t N>
json array_json(const std::array<double, N>& a) {
  return json(std::vector<double>(a.begin(), a.end()));
}

template <std::size_t N>
void array_from(const json& j, const char* name, std::array<double, N>& out) {
  if (!j.is_array() || j.size() != N)
    throw std::invalid_argument(std::string(name) + " is not an array of " + std::to_string(N));
  for (std::size_t i = 0; i < N; ++i) out[i] = j.at(i).get<double>();
}

std::uint32_t state_crc(const core::State& s) {
  std::uint32_t c = record::crc32(0, s.x.data(), sizeof(double) * core::ix::size);
  c = record::crc32(c, s.spool.data(), sizeof(double) * s.spool.size());
  c = record::crc32(c, &s.time_s, sizeof s.time_s);
  c = record::crc32(c, &s.steps, sizeof s.steps);
  const double clam[2] = {s.clam.load_mass_kg, s.clam.slip_s};
  return record::crc32(c, clam, sizeof clam);
}

json load_json(const core::Outputs::Load& l) {
  return {{"position_m", array_json(l.position_m)},
          {"orientation", array_json(l.orientation)},
          {"velocity_m_per_s", array_json(l.velocity_m_per_s)},
          {"held", l.held},
          {"in_contact", l.in_contact},
          {"asleep", l.asleep},
          {"submerged", l.submerged}};
}

}  // namespace

json frame_record(std::uint64_t k, std::uint64_t seq, const core::Outputs& o,
                  const core::State& state) {
  json j;
  j["k"] = k;
  j["seq"] = seq;
  j["time_s"] = o.time_s;
  j["display"] = array_json(o.display);
  j["joint_vel"] = array_json(o.joint_vel);
  j["pressures_Pa"] = array_json(o.pressures_Pa);
  j["tensions_N"] = array_json(o.tensions_N);
  j["cable_rates_m_per_s"] = array_json(o.cable_rates_m_per_s);
  j["theta1_clam_deg"] = o.theta1_clam_deg;
  j["theta2_clam_deg"] = o.theta2_clam_deg;
  j["jaw_gap_m"] = o.jaw_gap_m;
  j["squeeze_N"] = o.squeeze_N;
  j["stop_force_N"] = o.stop_force_N;
  j["clam_vel_m_per_s"] = array_json(o.clam_vel_m_per_s);
  j["working"] = core::to_string(o.working);
  j["geo"] = core::to_string(o.geo);
  j["load"] = core::to_string(o.load);
  j["point_a"] = array_json(o.point_a);
  j["energy_J"] = o.energy_J;
  j["clam_swing_deg"] = array_json(o.clam_swing_deg);
  j["clam_contact_force_N"] = o.clam_contact_force_N;
  j["turbidity"] = o.turbidity;
  json loads = json::array();
  for (int i = 0; i < o.load_count; ++i) loads.push_back(load_json(o.loads[static_cast<std::size_t>(i)]));
  j["loads"] = std::move(loads);
  j["held_load"] = o.held_load;
  j["state_crc32"] = state_crc(state);
  return j;
}

json faults_json(const core::Faults& f) {
  json hoses = json::array(), spools = json::array(), brakes = json::array();
  for (const core::HoseBurst& h : f.hoses)
    hoses.push_back({{"active", h.active}, {"line", h.line == core::HoseLine::A ? "A" : "B"},
                     {"diameter_m", h.diameter_m}});
  for (const core::SpoolStick& s : f.spools)
    spools.push_back({{"active", s.active}, {"volts", s.volts}});
  for (const core::BrakeSlip& b : f.brakes)
    brakes.push_back({{"active", b.active}, {"creep_m_per_s_per_N", b.creep_m_per_s_per_N}});
  return {{"hoses", hoses}, {"spools", spools}, {"brakes", brakes},
          {"water_velocity_m_per_s", array_json(f.water_velocity_m_per_s)},
          {"turbidity", f.turbidity}};
}

core::Faults faults_from_json(const json& j) {
  core::Faults f;
  try {
    for (std::size_t i = 0; i < f.hoses.size(); ++i) {
      const json& h = j.at("hoses").at(i);
      f.hoses[i] = {h.at("active").get<bool>(),
                    h.at("line").get<std::string>() == "A" ? core::HoseLine::A : core::HoseLine::B,
                    h.at("diameter_m").get<double>()};
    }
    for (std::size_t i = 0; i < f.spools.size(); ++i) {
      const json& s = j.at("spools").at(i);
      f.spools[i] = {s.at("active").get<bool>(), s.at("volts").get<double>()};
    }
    for (std::size_t i = 0; i < f.brakes.size(); ++i) {
      const json& b = j.at("brakes").at(i);
      f.brakes[i] = {b.at("active").get<bool>(), b.at("creep_m_per_s_per_N").get<double>()};
    }
    array_from(j.at("water_velocity_m_per_s"), "water_velocity_m_per_s", f.water_velocity_m_per_s);
    f.turbidity = j.at("turbidity").get<double>();
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("faults: ") + e.what());
  }
  return f;
}

json events_json(const core::WorldEvents& e) {
  json j = json::object();
  for (const auto& f : core::kWorldEventFields) j[f.name] = e.*f.member;
  return j;
}

json score_json(const training::TaskScore& s) {
  json j = json::object();
  core::for_each_field(training::kTaskScoreFields, [&](const auto& f) { j[f.name] = s.*f.member; });
  return j;
}

json initial_json(const core::InitialConditions& c) {
  return {{"swing_rad", c.swing_rad}, {"boom_rad", c.boom_rad}, {"telescope_m", c.telescope_m},
          {"clam_depth_m", c.clam_depth_m}, {"clam_theta2_rad", c.clam_theta2_rad}};
}

core::InitialConditions initial_from_json(const json& j) {
  try {
    return {j.at("swing_rad").get<double>(), j.at("boom_rad").get<double>(),
            j.at("telescope_m").get<double>(), j.at("clam_depth_m").get<double>(),
            j.at("clam_theta2_rad").get<double>()};
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("initial pose: ") + e.what());
  }
}

Driver driver_from_string(const std::string& name) {
  for (Driver d : {Driver::Trainee, Driver::Instructor, Driver::Both})
    if (name == to_string(d)) return d;
  throw std::invalid_argument("driver '" + name + "' is not trainee, instructor or both");
}

}  // namespace clamsim::session
