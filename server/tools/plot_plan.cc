#include "tools/plot_plan.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <stdexcept>

#include "core/state.h"

namespace clamsim::tools {
namespace {

// A panel's caption for each experiment, in the thesis's words where it has the figure
// (chapter 5's list of figures); the rest say what is shown.
struct Captions {
  const char* key;
  const char* by_experiment[4];   // indexed by Experiment
};
// clang-format off
const Captions kCaptions[] = {
  {"controls", {"Fig. 5.1: Control signal to the servo valves",
                "Fig. 5.5: Control signal to the crane model",
                "Figs. 5.12, 5.16: Control signals to the claming device and the crane actuators",
                "Control signals to the servo valves"}},
  {"joints",   {"Crane joint positions",
                "Figs. 5.6, 5.8, 5.10: Swing and boom rotation angles, telescopic arm length",
                "Fig. 5.17: Crane joint position profiles",
                "Crane joint positions"}},
  {"rates",    {"Crane joint velocities",
                "Figs. 5.7, 5.9, 5.11: Swing and boom angular velocities, telescope speed",
                "Fig. 5.18: Joint velocity profiles",
                "Crane joint velocities"}},
  {"tensions", {"Fig. 5.2: Tensions applied on cables",
                "Tensions applied on cables",
                "Tensions applied on cables",
                "Tensions applied on cables"}},
  {"theta2",   {"Fig. 5.3: Angle of theta2",
                "Angle of theta2",
                "Fig. 5.14: Angle of theta2",
                "Angle of theta2"}},
  {"working",  {"Working state of the claming device (Table 2.3)",
                "Working state of the claming device (Table 2.3)",
                "Working state of the claming device (Table 2.3)",
                "Working state of the claming device (Table 2.3)"}},
  {"speeds",   {"Fig. 5.4: Vertical speed of the claming device's bodies",
                "Vertical speed of the claming device's bodies",
                "Fig. 5.15: Velocity of points A and C on claming device",
                "Vertical speed of the claming device's bodies"}},
  {"load_path", {"Path of the load", "Path of the load",
                "Path of the load (cf. Fig. 5.13): height and distance carried",
                "Path of the load"}},
};

const char* kFigureCaptions[4] = {
  "Figures 5.1-5.4: Simulation of the claming device model, response to step inputs on the two winches",
  "Figures 5.5-5.11: Simulation of the crane model, response to a step input on swing, boom and telescope",
  "Figures 5.12-5.18: Machine performing a pick-and-place task",
  "Response of the crane and the claming device to the control signals",
};
// clang-format on

std::string caption_of(const std::string& key, Experiment e) {
  for (const Captions& c : kCaptions)
    if (key == c.key) return c.by_experiment[static_cast<std::size_t>(e)];
  return key;
}

bool any_nonzero(const CsvTable& t, std::initializer_list<const char*> columns) {
  for (const char* c : columns) {
    if (!t.has(c)) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const double v = t.number(r, c);
      if (std::isfinite(v) && v != 0.0) return true;
    }
  }
  return false;
}

// Loads that were in the jaws at some time: the "<name>_held" columns with a 1 in them.
std::vector<std::string> carried_loads(const CsvTable& t) {
  const std::string tail = "_held";
  std::vector<std::string> names;
  for (const std::string& h : t.header()) {
    if (h.size() <= tail.size() || h.compare(h.size() - tail.size(), tail.size(), tail) != 0)
      continue;
    const std::string name = h.substr(0, h.size() - tail.size());
    if (!t.has(name + "_x_m") || !t.has(name + "_y_m") || !t.has(name + "_z_m")) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      if (t.number(r, h) == 1.0) {
        names.push_back(name);
        break;
      }
    }
  }
  return names;
}

// Grip and release from the Load-Status flag: a marker wherever it changes, at the time
// of the first row with the new value.
std::vector<Marker> find_markers(const CsvTable& t, const std::string& time) {
  std::vector<Marker> out;
  if (!t.has("load")) return out;
  const std::string with = core::to_string(core::LoadStatus::WithLoad);
  const std::string without = core::to_string(core::LoadStatus::WithoutLoad);
  std::string last;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const std::string& s = t.text(r, "load");
    if (s != with && s != without) continue;   // a legacy receiver frame has no flags
    if (!last.empty() && s != last)
      out.push_back({s == with ? Marker::Kind::Grip : Marker::Kind::Release, t.number(r, time)});
    last = s;
  }
  return out;
}

Experiment classify(const CsvTable& t, const std::vector<Marker>& markers,
                    const std::vector<std::string>& carried) {
  const bool gripped = !carried.empty() ||
                       std::any_of(markers.begin(), markers.end(),
                                   [](const Marker& m) { return m.kind == Marker::Kind::Grip; });
  if (gripped) return Experiment::PickPlace;
  const bool crane = any_nonzero(t, {"swing_V", "boom_V", "telescope_V"});
  const bool winches = any_nonzero(t, {"hoist1_V", "hoist2_V"});
  if (winches && !crane) return Experiment::ClamSteps;
  if (crane && !winches) return Experiment::CraneSteps;
  return Experiment::Run;
}

double value_of(const CsvTable& t, std::size_t row, const Series& s) {
  switch (s.kind) {
    case Series::Kind::Value:
      return t.number(row, s.column) * s.scale;
    case Series::Kind::WorkingLevel: {
      const std::string& w = t.text(row, s.column);
      for (int level = 0; level < 3; ++level)
        if (w == core::to_string(static_cast<core::WorkingState>(level))) return level;
      return NAN;
    }
    case Series::Kind::Distance:
      return std::hypot(t.number(row, s.column) - s.x0, t.number(row, s.column_y) - s.y0);
  }
  return NAN;
}

}  // namespace

double wrap_degrees(double deg) {
  double w = std::fmod(deg, 360.0);   // (-360, 360)
  if (w > 180.0) w -= 360.0;
  if (w <= -180.0) w += 360.0;
  return w;
}

std::vector<double> unwrap_degrees(const std::vector<double>& deg) {
  std::vector<double> out(deg.size());
  std::optional<double> last;   // the last finite value out
  for (std::size_t i = 0; i < deg.size(); ++i) {
    const double v = deg[i];
    if (!std::isfinite(v)) {
      out[i] = v;
      continue;
    }
    out[i] = last ? *last + wrap_degrees(v - *last) : wrap_degrees(v);
    last = out[i];
  }
  return out;
}

std::pair<Range, Range> align_zeros(Range a, Range b) {
  // each axis as the parts below and above 0 (both >= 0: 0 is on the axis)
  double below[2] = {std::max(0.0, -a.lo), std::max(0.0, -b.lo)};
  double above[2] = {std::max(0.0, a.hi), std::max(0.0, b.hi)};
  for (int i = 0; i < 2; ++i)
    if (below[i] + above[i] <= 0.0) below[i] = above[i] = 1.0;   // all 0: any scale
  // the share of the height under 0: the larger one, unless that is all of it on one axis
  // while the other has something above 0 (no finite room below would do); then the
  // other's, or the middle when one axis is all below 0 and the other all above
  const double share[2] = {below[0] / (below[0] + above[0]), below[1] / (below[1] + above[1])};
  double f = std::max(share[0], share[1]);
  if (f >= 1.0 && std::min(share[0], share[1]) < 1.0) {
    f = std::min(share[0], share[1]);
    if (f <= 0.0) f = 0.5;
  }
  for (int i = 0; i < 2; ++i) {
    if (share[i] < f) below[i] = f * above[i] / (1.0 - f);
    if (share[i] > f) above[i] = below[i] * (1.0 - f) / f;
  }
  constexpr double kRoom = 1.05;
  return {Range{-below[0] * kRoom, above[0] * kRoom}, Range{-below[1] * kRoom, above[1] * kRoom}};
}

CurveLook curve_look(std::size_t index) {
  // dark colours (each at least 6.5:1 on white) and five dash patterns: solid, dashes,
  // dash-dot, dots, dash-dot-dot
  static constexpr CurveLook kLooks[kCurveLooks] = {
      {"#000000", 1}, {"#0055aa", 2}, {"#b2182b", 4}, {"#006d2c", 3}, {"#7a0177", 5}};
  return kLooks[index % kCurveLooks];
}

std::vector<double> series_values(const CsvTable& t, const Series& s) {
  std::vector<double> v(t.rows());
  for (std::size_t r = 0; r < t.rows(); ++r) v[r] = value_of(t, r, s);
  return s.unwrap ? unwrap_degrees(v) : v;
}

namespace {

// The finite values of the curves on one axis: none when there are none.
std::optional<Range> data_range(const CsvTable& t, const Panel& p, bool right) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (const Series& s : p.series) {
    if (s.right_axis != right) continue;
    for (const double v : series_values(t, s)) {
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!(hi >= lo)) return std::nullopt;
  return Range{lo, hi};
}

// Autoscale unless the curves on that axis span less than `span`: then a range of `span`
// centred on them, so noise in a quantity at rest is not drawn as motion.
std::optional<Range> at_least(const std::optional<Range>& data, double span) {
  if (!data || data->hi - data->lo >= span) return std::nullopt;
  const double mid = 0.5 * (data->hi + data->lo);
  return Range{mid - 0.5 * span, mid + 0.5 * span};
}

// Keeps the series whose columns exist; false when none is left (the panel is dropped).
bool keep_present(const CsvTable& t, Panel& p) {
  p.series.erase(std::remove_if(p.series.begin(), p.series.end(),
                                [&](const Series& s) {
                                  return !t.has(s.column) ||
                                         (!s.column_y.empty() && !t.has(s.column_y));
                                }),
                 p.series.end());
  return !p.series.empty();
}

Series value(const char* title, const char* column, const char* style = "", bool right = false,
             double scale = 1.0) {
  Series s;
  s.title = title;
  s.column = column;
  s.style = style;
  s.right_axis = right;
  s.scale = scale;
  return s;
}

std::vector<Panel> crane_panels() {
  Panel controls{"controls", "", "voltage [V]", "", {}, Range{-5.5, 5.5}, std::nullopt, false};
  // widths step down so channels driven with the same signal (5.1.2) stay visible
  controls.series = {value("swing", "swing_V", "lw 5"), value("boom", "boom_V", "lw 3"),
                     value("telescope", "telescope_V", "lw 1"),
                     value("cable 1 (main hoist)", "hoist1_V", "lw 3"),
                     value("cable 2 (aux hoist)", "hoist2_V", "lw 1.5")};
  Panel joints{"joints", "", "angle [deg]", "telescope length [m]", {}, {}, {}, false};
  joints.series = {value("swing [deg]", "swing_deg"), value("boom [deg]", "boom_deg"),
                   value("telescope [m]", "telescope_m", "", true)};
  joints.series[0].unwrap = true;   // a replay's swing comes in 0..360
  Panel rates{"rates", "", "angular velocity [deg/s]", "telescope speed [m/s]", {}, {}, {}, false};
  rates.series = {value("swing [deg/s]", "swing_rate_deg_s"),
                  value("boom [deg/s]", "boom_rate_deg_s"),
                  value("telescope [m/s]", "telescope_rate_m_s", "", true)};
  return {controls, joints, rates};
}

std::vector<Panel> clam_panels() {
  Panel tensions{"tensions", "", "tension [kN]", "", {}, {}, {}, false};
  tensions.series = {value("T1 (cable 1, point A)", "T1_N", "", false, 1e-3),
                     value("T2 (cable 2, point C)", "T2_N", "", false, 1e-3)};
  Panel theta2{"theta2", "", "theta2 [deg]", "", {}, {}, {}, false};
  theta2.series = {value("theta2 [deg]", "theta2_clam_deg", "lw 2")};
  // its own panel: sharing theta2's axis put "Distributed" on theta2 = 40 deg
  Panel working{"working", "", "working state", "", {}, Range{-0.4, 2.4}, {}, true};
  Series w;
  w.kind = Series::Kind::WorkingLevel;
  w.title = "working state";
  w.column = "working";
  w.style = "with steps lw 2";
  working.series = {w};
  Panel speeds{"speeds", "", "speed [m/s]", "", {}, {}, {}, false};
  speeds.series = {value("A (top, cable 1)", "vA_up_m_s"),
                   value("C (pulley, cable 2)", "vC_up_m_s")};
  return {tensions, theta2, working, speeds};
}

// Each carried load's height (left) and horizontal distance from where it lay (right).
std::optional<Panel> load_path_panel(const CsvTable& t, const std::vector<std::string>& carried) {
  if (carried.empty() || t.rows() == 0) return std::nullopt;
  Panel p{"load_path", "", "height z, deck = 0 [m]", "distance carried [m]", {}, {}, {}, false};
  for (const std::string& name : carried) {
    Series z = value("", "", "lw 2");
    z.title = name + " height [m]";
    z.column = name + "_z_m";
    Series d;
    d.kind = Series::Kind::Distance;
    d.title = name + " distance [m]";
    d.column = name + "_x_m";
    d.column_y = name + "_y_m";
    d.x0 = t.number(0, d.column);
    d.y0 = t.number(0, d.column_y);
    d.right_axis = true;
    p.series.push_back(z);
    p.series.push_back(d);
  }
  return p;
}

// The least span an axis shows, per panel: below it the values are at rest.
struct MinSpan {
  const char* key;
  double y, y2;
};
constexpr MinSpan kMinSpans[] = {{"joints", 2.0, 0.5},   {"rates", 1.0, 0.05},
                                 {"tensions", 1.0, 0.0}, {"theta2", 5.0, 0.0},
                                 {"speeds", 0.1, 0.0},   {"load_path", 1.0, 1.0}};

}  // namespace

const char* to_string(Experiment e) {
  switch (e) {
    case Experiment::ClamSteps: return "5.1.1 claming device";
    case Experiment::CraneSteps: return "5.1.2 crane";
    case Experiment::PickPlace: return "5.1.3 pick-and-place";
    case Experiment::Run: return "run";
  }
  return "?";
}

const Panel* PlotPlan::panel(const std::string& key) const {
  for (const Panel& p : panels)
    if (p.key == key) return &p;
  return nullptr;
}

PlotPlan plan_plot(const CsvTable& t) {
  PlotPlan plan;
  // clamsim-sim's simulated time, else the receiver's arrival time (its simulated time
  // starts again at 0 after a restart, so it is not a time axis)
  if (t.has("time_s")) {
    plan.time_column = "time_s";
    plan.xlabel = "time [s]";
  } else if (t.has("arrival_s")) {
    plan.time_column = "arrival_s";
    plan.xlabel = "time since subscription [s]";
  } else {
    throw std::runtime_error("no time column: expected time_s (clamsim-sim) or arrival_s "
                             "(clamsim-receiver)");
  }
  double t_lo = std::numeric_limits<double>::infinity(), t_hi = -t_lo;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const double v = t.number(r, plan.time_column);
    if (std::isfinite(v)) t_lo = std::min(t_lo, v), t_hi = std::max(t_hi, v);
  }
  if (t_hi > t_lo) plan.x = Range{t_lo, t_hi};
  plan.markers = find_markers(t, plan.time_column);
  const std::vector<std::string> carried = carried_loads(t);
  plan.experiment = classify(t, plan.markers, carried);
  plan.caption = kFigureCaptions[static_cast<std::size_t>(plan.experiment)];

  std::vector<Panel> candidates = crane_panels();
  for (Panel& p : clam_panels()) candidates.push_back(std::move(p));
  if (auto path = load_path_panel(t, carried)) candidates.push_back(std::move(*path));
  for (Panel& p : candidates) {
    if (!keep_present(t, p)) continue;
    p.caption = caption_of(p.key, plan.experiment);
    const std::optional<Range> left = data_range(t, p, false), right = data_range(t, p, true);
    for (const MinSpan& m : kMinSpans) {
      if (p.key != m.key) continue;
      if (m.y > 0.0) p.y = at_least(left, m.y);
      if (m.y2 > 0.0) p.y2 = at_least(right, m.y2);
    }
    // two axes: their zeros at one height, so curves at 0 on either meet
    if (left && right) {
      const auto [y, y2] = align_zeros(p.y.value_or(*left), p.y2.value_or(*right));
      p.y = y;
      p.y2 = y2;
    }
    plan.panels.push_back(std::move(p));
  }
  return plan;
}

}  // namespace clamsim::tools
