#include "session/fault_catalog.h"

#include "core/params.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace clamsim::session {

namespace {

using nlohmann::json;

// ControlSignal order, named as in the machine file (docs/machine-file.md).
const std::vector<std::string> kFunctions{"swing", "boom", "telescope", "main_hoist", "aux_hoist"};
const std::vector<std::string> kWinches{"main_hoist", "aux_hoist"};
constexpr double kTonneForce_N = 9806.65;   // standard gravity x 1000 kg
constexpr double kPi = 3.14159265358979323846;

// A number with its unit and range, or (choices non-empty) one of a list of names.
struct Param {
  std::string name;
  std::string unit;
  std::string help;
  double min = 0.0, max = 0.0, def = 0.0;
  std::vector<std::string> choices;
  std::string def_choice;
};

Param number(std::string name, std::string unit, std::string help, double min, double max,
             double def) {
  return {std::move(name), std::move(unit), std::move(help), min, max, def, {}, {}};
}

Param choice(std::string name, std::string help, std::vector<std::string> choices,
             std::string def) {
  return {std::move(name), "", std::move(help), 0.0, 0.0, 0.0, std::move(choices), std::move(def)};
}

// values: every parameter, validated, defaults filled in. target: the index of the target
// parameter's value among its choices (-1: the fault has no target).
using Apply = void (*)(ActiveFaults&, const json& values, int target, const FaultContext&);
using Clear = void (*)(ActiveFaults&, int target);

struct Spec {
  std::string name;
  std::string summary;     // one line for the instructor
  std::string target;      // the parameter naming what it acts on; "" = the whole machine/world
  std::vector<Param> params;
  Apply apply;
  Clear clear;
};

double num(const json& values, const char* name) { return values.at(name).get<double>(); }

std::size_t at(int target) { return static_cast<std::size_t>(target); }

// ---- the table ------------------------------------------------------------------------

const std::vector<Spec>& table() {
  static const std::vector<Spec> specs{
      {"burst_hose",
       "A hose bursts: the function's line leaks to tank, so a boom or load it holds sinks.",
       "function",
       {choice("function", "The function whose hose bursts.", kFunctions, "boom"),
        choice("line", "A: the holding side (cap side of a cylinder, hoisting side of a winch, "
                       "counter-clockwise swing); B: the other.",
               {"A", "B"}, "A"),
        number("diameter_mm", "mm", "Equivalent diameter of the leak.", 0.5, 10.0, 3.0)},
       [](ActiveFaults& f, const json& v, int t, const FaultContext&) {
         core::HoseBurst& h = f.physics.hoses[at(t)];
         h.active = true;
         h.line = v.at("line") == "A" ? core::HoseLine::A : core::HoseLine::B;
         h.diameter_m = num(v, "diameter_mm") / 1000.0;
       },
       [](ActiveFaults& f, int t) { f.physics.hoses[at(t)] = {}; }},
      {"sticking_spool",
       "A valve spool sticks: the function keeps the opening it had, whatever the stick says.",
       "function",
       {choice("function", "The function whose spool sticks.", kFunctions, "boom"),
        number("duration_s", "s", "How long it sticks; 0 = until cleared.", 0.0, 3600.0, 10.0)},
       [](ActiveFaults& f, const json&, int t, const FaultContext& c) {
         f.physics.spools[at(t)] = {true, c.control.volts[at(t)]};
       },
       [](ActiveFaults& f, int t) { f.physics.spools[at(t)] = {}; }},
      {"brake_slip",
       "A winch brake slips: the drum creeps, paying out rope, faster the heavier the load.",
       "winch",
       {choice("winch", "The winch whose brake slips (main_hoist: cable 1, aux_hoist: cable 2).",
               kWinches, "main_hoist"),
        number("creep_mm_per_s_per_t", "mm/s per t",
               "Pay-out speed per tonne of rope pull (the empty grab hangs about 0.8 t on its two ropes).",
               1.0, 500.0, 50.0)},
       [](ActiveFaults& f, const json& v, int t, const FaultContext&) {
         f.physics.brakes[at(t)] = {true, num(v, "creep_mm_per_s_per_t") / 1000.0 / kTonneForce_N};
       },
       [](ActiveFaults& f, int t) { f.physics.brakes[at(t)] = {}; }},
      {"axis_drift",
       "A joystick axis drifts: an offset grows on the trainee's stick up to a limit.",
       "axis",
       {choice("axis", "The trainee's axis that drifts.", kFunctions, "swing"),
        number("rate_V_per_s", "V/s", "How fast the offset grows; the sign is its direction.",
               -5.0, 5.0, 0.1),
        number("limit_V", "V", "Largest offset.", 0.0, core::kFullStick_V, 1.5)},
       [](ActiveFaults& f, const json& v, int t, const FaultContext& c) {
         f.input.drift[at(t)] = {true, num(v, "rate_V_per_s"), num(v, "limit_V"), c.time_s};
       },
       [](ActiveFaults& f, int t) { f.input.drift[at(t)] = {}; }},
      {"axis_dead",
       "A joystick axis dies: it reads a fixed voltage whatever the trainee does.",
       "axis",
       {choice("axis", "The trainee's axis that dies.", kFunctions, "boom"),
        number("value_V", "V", "What the dead axis reads (0: neutral).", -core::kFullStick_V,
               core::kFullStick_V, 0.0)},
       [](ActiveFaults& f, const json& v, int t, const FaultContext&) {
         f.input.dead[at(t)] = {true, num(v, "value_V")};
       },
       [](ActiveFaults& f, int t) { f.input.dead[at(t)] = {}; }},
      {"turbidity",
       "Murky water: underwater visibility from clear (0) to nil (1), in every view.",
       "",
       {number("level", "", "0 clear .. 1 nothing visible under the surface.", 0.0, 1.0, 0.7)},
       [](ActiveFaults& f, const json& v, int, const FaultContext&) {
         f.physics.turbidity = num(v, "level");
       },
       [](ActiveFaults& f, int) { f.physics.turbidity = 0.0; }},
      {"current",
       "A current through the intake: the water moves and pushes floating debris toward the rack.",
       "",
       {number("speed_m_per_s", "m/s", "Speed of the water.", 0.0, 2.0, 0.3),
        number("heading_deg", "deg",
               "Where the water flows to, from the base frame's +x (boom at swing 0) "
               "counter-clockwise; 180 = toward the dam face and its rack.",
               0.0, 360.0, 180.0)},
       [](ActiveFaults& f, const json& v, int, const FaultContext&) {
         const double speed = num(v, "speed_m_per_s");
         const double heading = num(v, "heading_deg") * kPi / 180.0;
         f.physics.water_velocity_m_per_s = {speed * std::cos(heading), speed * std::sin(heading)};
       },
       [](ActiveFaults& f, int) { f.physics.water_velocity_m_per_s = {0.0, 0.0}; }},
      {"anti_two_block_override",
       "Override the anti-two-block cut-out (the crane's bypass key): with the clam at the tip "
       "sheave, hoisting up, telescoping out and booming down are no longer stopped.",
       "",
       {},
       [](ActiveFaults& f, const json&, int, const FaultContext&) {
         f.physics.anti_two_block_bypass = true;
       },
       [](ActiveFaults& f, int) { f.physics.anti_two_block_bypass = false; }},
      {"lmi_override",
       "Override the load moment limiter (the crane's override key): past 100 % of the load "
       "chart, hoisting up, telescoping out and booming down are no longer stopped, and past "
       "the tipping load the machine tips over.",
       "",
       {},
       [](ActiveFaults& f, const json&, int, const FaultContext&) { f.physics.lmi_bypass = true; },
       [](ActiveFaults& f, int) { f.physics.lmi_bypass = false; }},
  };
  return specs;
}

// ---- validation -----------------------------------------------------------------------

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string fault_names() {
  std::vector<std::string> names;
  for (const Spec& s : table()) names.push_back(s.name);
  return joined(names);
}

const Spec* find_spec(std::string_view name) {
  for (const Spec& s : table())
    if (s.name == name) return &s;
  return nullptr;
}

const Param* find_param(const Spec& s, const std::string& name) {
  for (const Param& p : s.params)
    if (p.name == name) return &p;
  return nullptr;
}

std::string param_names(const Spec& s) {
  std::vector<std::string> names;
  for (const Param& p : s.params) names.push_back(p.name);
  return joined(names);
}

std::string format_number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// "" if `value` suits p, else why not.
std::string check_value(const Spec& s, const Param& p, const json& value) {
  const std::string where = s.name + ": " + p.name;
  if (!p.choices.empty()) {
    if (!value.is_string())
      return where + " must be a string, one of " + joined(p.choices) + "; got " + value.type_name();
    const std::string v = value.get<std::string>();
    if (std::find(p.choices.begin(), p.choices.end(), v) == p.choices.end())
      return where + " \"" + v + "\" is not one of " + joined(p.choices);
    return "";
  }
  const std::string range =
      format_number(p.min) + ".." + format_number(p.max) + (p.unit.empty() ? "" : " " + p.unit);
  if (!value.is_number())
    return where + " must be a number in " + range + "; got " + value.type_name();
  const double v = value.get<double>();
  if (!(v >= p.min && v <= p.max))
    return where + " = " + format_number(v) + " is out of range " + range;
  return "";
}

std::string check_object(const json& params) {
  if (params.is_null() || params.is_object()) return "";
  return std::string("fault parameters must be a JSON object; got ") + params.type_name();
}

// Validates params against s and fills in the defaults. "" or the problem.
std::string resolve(const Spec& s, const json& params, json& values) {
  if (std::string e = check_object(params); !e.empty()) return e;
  values = json::object();
  if (params.is_object())
    for (auto it = params.begin(); it != params.end(); ++it) {
      const Param* p = find_param(s, it.key());
      if (p == nullptr)
        return s.name + " has no parameter \"" + it.key() + "\"; its parameters: " + param_names(s);
      if (std::string e = check_value(s, *p, it.value()); !e.empty()) return e;
    }
  for (const Param& p : s.params) {
    if (params.is_object() && params.contains(p.name))
      values[p.name] = params.at(p.name);
    else if (p.choices.empty())
      values[p.name] = p.def;
    else
      values[p.name] = p.def_choice;
  }
  return "";
}

int target_index(const Spec& s, const json& values) {
  if (s.target.empty()) return -1;
  const Param* p = find_param(s, s.target);
  const auto it = std::find(p->choices.begin(), p->choices.end(), values.at(s.target).get<std::string>());
  return static_cast<int>(it - p->choices.begin());
}

// The list entry of fault s on target t: matched by name and the target's value.
bool same_fault(const ActiveFault& a, const Spec& s, const std::string& target_value) {
  return a.name == s.name && (s.target.empty() || a.params.at(s.target) == target_value);
}

void clear_one(ActiveFaults& f, const Spec& s, int target) {
  s.clear(f, target);
  const std::string value = target < 0 ? "" : find_param(s, s.target)->choices[at(target)];
  f.list.erase(std::remove_if(f.list.begin(), f.list.end(),
                              [&](const ActiveFault& a) { return same_fault(a, s, value); }),
               f.list.end());
}

// Every target of s (or none, for a fault without one).
void clear_every_target(ActiveFaults& f, const Spec& s) {
  if (s.target.empty()) {
    clear_one(f, s, -1);
    return;
  }
  const int n = static_cast<int>(find_param(s, s.target)->choices.size());
  for (int t = 0; t < n; ++t) clear_one(f, s, t);
}

// The range of a number parameter in the table, scaled to the unit core::Faults holds it in.
struct Range {
  double min, max;
};
Range range_of(std::string_view fault, const std::string& param, double scale) {
  const Param& p = *find_param(*find_spec(fault), param);
  return {p.min * scale, p.max * scale};
}

std::string check_slot(const std::string& what, bool active, double v, Range r) {
  if (!std::isfinite(v)) return what + " is not a finite number";
  // the slot was worked out from the table's units (mm, mm/s per t, a heading): an ulp's leeway
  const double tol = 1e-9 * std::max(std::abs(r.min), std::abs(r.max));
  if (active && !(v >= r.min - tol && v <= r.max + tol))
    return what + " = " + format_number(v) + " is out of range " + format_number(r.min) + ".." +
           format_number(r.max);
  return "";
}

}  // namespace

std::string check_physics_faults(const core::Faults& f) {
  const Range hole = range_of("burst_hose", "diameter_mm", 1e-3);
  const Range creep = range_of("brake_slip", "creep_mm_per_s_per_t", 1e-3 / kTonneForce_N);
  const Range volts = range_of("axis_dead", "value_V", 1.0);
  const Range speed = range_of("current", "speed_m_per_s", 1.0);
  const Range murk = range_of("turbidity", "level", 1.0);
  std::string e;
  for (std::size_t i = 0; i < f.hoses.size() && e.empty(); ++i)
    e = check_slot("hoses[" + std::to_string(i) + "].diameter_m", f.hoses[i].active,
                   f.hoses[i].diameter_m, hole);
  for (std::size_t i = 0; i < f.spools.size() && e.empty(); ++i)
    e = check_slot("spools[" + std::to_string(i) + "].volts", f.spools[i].active, f.spools[i].volts, volts);
  for (std::size_t i = 0; i < f.brakes.size() && e.empty(); ++i)
    e = check_slot("brakes[" + std::to_string(i) + "].creep_m_per_s_per_N", f.brakes[i].active,
                   f.brakes[i].creep_m_per_s_per_N, creep);
  if (e.empty())
    e = check_slot("water_velocity_m_per_s (its speed)", true,
                   std::hypot(f.water_velocity_m_per_s[0], f.water_velocity_m_per_s[1]), speed);
  if (e.empty()) e = check_slot("turbidity", true, f.turbidity, murk);
  return e;
}

std::string inject_fault(ActiveFaults& f, std::string_view name, const json& params,
                         const FaultContext& context) {
  const Spec* s = find_spec(name);
  if (s == nullptr) return "unknown fault \"" + std::string(name) + "\"; faults: " + fault_names();
  json values;
  if (std::string e = resolve(*s, params, values); !e.empty()) return e;
  const int target = target_index(*s, values);
  clear_one(f, *s, target);   // a fault injected again replaces the earlier one
  s->apply(f, values, target, context);
  ActiveFault entry{s->name, values, context.time_s};
  if (values.contains("duration_s") && num(values, "duration_s") > 0.0)
    entry.until_s = context.time_s + num(values, "duration_s");
  f.list.push_back(std::move(entry));
  return "";
}

std::string clear_fault(ActiveFaults& f, std::string_view name, const json& params) {
  if (std::string e = check_object(params); !e.empty()) return e;
  if (name == "all") {
    if (params.is_object() && !params.empty()) return "clearing all faults takes no parameters";
    f = ActiveFaults{};
    return "";
  }
  const Spec* s = find_spec(name);
  if (s == nullptr)
    return "unknown fault \"" + std::string(name) + "\"; faults: " + fault_names() + ", or all";
  if (params.is_object())
    for (auto it = params.begin(); it != params.end(); ++it)
      if (s->target.empty() || it.key() != s->target)
        return s->name + " is cleared " +
               (s->target.empty() ? std::string("without parameters")
                                  : "by its " + s->target + " alone") +
               "; got \"" + it.key() + "\"";
  if (s->target.empty() || !params.is_object() || !params.contains(s->target)) {
    clear_every_target(f, *s);
    return "";
  }
  const Param& p = *find_param(*s, s->target);
  if (std::string e = check_value(*s, p, params.at(s->target)); !e.empty()) return e;
  clear_one(f, *s, target_index(*s, params));
  return "";
}

void expire_faults(ActiveFaults& f, double time_s) {
  // collect first: clear_one edits the list
  std::vector<std::pair<const Spec*, int>> ended;
  for (const ActiveFault& a : f.list)
    if (a.until_s <= time_s) {
      const Spec* s = find_spec(a.name);
      ended.emplace_back(s, target_index(*s, a.params));
    }
  for (const auto& [s, target] : ended) clear_one(f, *s, target);
}

core::Control trainee_input(const InputFaults& faults, const core::Control& volts, double time_s) {
  core::Control out = volts;
  for (std::size_t i = 0; i < out.volts.size(); ++i) {
    double& v = out.volts[i];
    const AxisDrift& drift = faults.drift[i];
    if (drift.active) {
      const double limit = std::fabs(drift.limit_V);
      const double elapsed = std::max(0.0, time_s - drift.since_s);
      v += std::clamp(drift.rate_V_per_s * elapsed, -limit, limit);
    }
    if (faults.dead[i].active) v = faults.dead[i].value_V;
    v = std::clamp(v, -5.0, 5.0);
  }
  return out;
}

std::string fault_text(std::string_view name, const json& params) {
  const Spec* s = find_spec(name);
  if (s == nullptr) return std::string(name);
  std::string text = s->name;
  std::replace(text.begin(), text.end(), '_', ' ');
  std::string sep = ": ";
  for (const Param& p : s->params) {
    if (!params.is_object() || !params.contains(p.name)) continue;
    const json& v = params.at(p.name);
    // "diameter_mm" 3 -> "diameter 3 mm": the unit once, after the value
    std::string label = p.name;
    if (!p.unit.empty()) {
      std::string suffix = "_" + p.unit;
      for (std::size_t i = 0; (i = suffix.find('/', i)) != std::string::npos;) suffix.replace(i, 1, "_per_");
      std::replace(suffix.begin(), suffix.end(), ' ', '_');
      if (label.size() > suffix.size() && label.compare(label.size() - suffix.size(), suffix.size(), suffix) == 0)
        label.resize(label.size() - suffix.size());
    }
    std::replace(label.begin(), label.end(), '_', ' ');
    const std::string value = v.is_string() ? v.get<std::string>()
                              : v.is_number() ? format_number(v.get<double>()) : v.dump();
    text += sep + label + " " + value + (p.unit.empty() ? "" : " " + p.unit);
    sep = ", ";
  }
  return text;
}

json fault_catalog_json() {
  json out = json::array();
  for (const Spec& s : table()) {
    json params = json::array();
    for (const Param& p : s.params) {
      json j{{"name", p.name}, {"help", p.help}};
      if (p.choices.empty()) {
        j["unit"] = p.unit;
        j["min"] = p.min;
        j["max"] = p.max;
        j["default"] = p.def;
      } else {
        j["choices"] = p.choices;
        j["default"] = p.def_choice;
      }
      params.push_back(std::move(j));
    }
    out.push_back({{"name", s.name}, {"summary", s.summary}, {"target", s.target},
                   {"params", std::move(params)}});
  }
  return out;
}

json active_faults_json(const ActiveFaults& f) {
  json out = json::array();
  for (const ActiveFault& a : f.list) {
    json j{{"name", a.name}, {"text", fault_text(a.name, a.params)}, {"params", a.params},
           {"since_s", a.since_s}};
    if (std::isfinite(a.until_s)) j["until_s"] = a.until_s;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace clamsim::session
