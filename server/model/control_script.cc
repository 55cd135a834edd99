#include "model/control_script.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

#include "core/params.h"
#include "model/json_fields.h"
#include "model/machine_file.h"

namespace clamsim::model {
namespace {

// A script's times and duration: about 11 days of simulated time, far beyond any experiment;
// a larger one would only overflow the simulator's row count.
constexpr double kMaxTimeS = 1e6;
constexpr double kPi = 3.14159265358979323846;
constexpr const char* kChannelNames[5] = {"swing", "boom", "telescope", "main hoist (cable 1)",
                                          "aux hoist (cable 2)"};

// Collects "origin:line: " so every message names where it happened.
class LineError {
 public:
  LineError(const std::string& origin, int line) : origin_(origin), line_(line) {}
  [[noreturn]] void fail(const std::string& problem) const {
    throw ModelError(origin_ + ":" + std::to_string(line_) + ": " + problem);
  }

 private:
  const std::string& origin_;
  int line_;
};

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

// Locale-independent; accepts a leading '+' because "+3" is how people write volts.
std::optional<double> to_number(const std::string& word) {
  const char* first = word.data();
  const char* last = word.data() + word.size();
  if (first != last && *first == '+') {
    ++first;
    if (first != last && (*first == '+' || *first == '-')) return std::nullopt;
  }
  double v = 0.0;
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last || !std::isfinite(v)) return std::nullopt;
  return v;
}

double number(const LineError& err, const std::string& word, const std::string& what) {
  const auto v = to_number(word);
  if (!v) err.fail(what + ": '" + word + "' is not a number");
  return *v;
}

std::string fmt(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

Breakpoint parse_breakpoint(const LineError& err, const std::vector<std::string>& words,
                            Segment segment, int line) {
  const std::string& kw = words[0];
  if (words.size() != 7) {
    const std::size_t given = words.size() - 1;
    err.fail("'" + kw + "' needs a time and 5 voltages (6 values), got " +
             std::to_string(given) + (given == 1 ? " value" : " values"));
  }
  Breakpoint bp;
  bp.segment = segment;
  bp.line = line;
  bp.time_s = number(err, words[1], "time");
  if (bp.time_s < 0.0) err.fail("time " + fmt(bp.time_s) + " s is negative");
  if (bp.time_s > kMaxTimeS)
    err.fail("time " + fmt(bp.time_s) + " s is beyond " + fmt(kMaxTimeS) + " s");
  for (std::size_t i = 0; i < 5; ++i) {
    const std::string what = std::string("voltage ") + std::to_string(i) + " (" +
                             kChannelNames[i] + ")";
    const double v = number(err, words[i + 2], what);
    if (std::abs(v) > core::kFullStick_V) err.fail(what + " = " + fmt(v) + " V is outside -5..+5 V");
    bp.volts[i] = v;
  }
  return bp;
}

core::InitialConditions parse_initial(const LineError& err,
                                      const std::vector<std::string>& words) {
  static const char* const kKeys[5] = {"swing_deg", "boom_deg", "telescope_m", "clam_depth_m",
                                       "clam_theta2_deg"};
  std::array<std::optional<double>, 5> values{};
  for (std::size_t w = 1; w < words.size(); ++w) {
    const std::string& word = words[w];
    const auto eq = word.find('=');
    if (eq == std::string::npos) err.fail("initial: '" + word + "' is not key=value");
    const std::string key = word.substr(0, eq);
    const auto* k = std::find(std::begin(kKeys), std::end(kKeys), key);
    if (k == std::end(kKeys)) {
      err.fail("initial: unknown key '" + key +
               "' (expected swing_deg, boom_deg, telescope_m, clam_depth_m, clam_theta2_deg)");
    }
    auto& slot = values[static_cast<std::size_t>(k - std::begin(kKeys))];
    if (slot) err.fail("initial: '" + key + "' given twice");
    slot = number(err, word.substr(eq + 1), "initial " + key);
  }
  for (std::size_t i = 0; i < 5; ++i) {
    if (!values[i]) err.fail(std::string("initial: '") + kKeys[i] + "' is missing");
  }
  if (*values[2] <= 0.0) err.fail("initial: telescope_m must be positive");
  if (*values[3] <= 0.0) err.fail("initial: clam_depth_m must be positive");

  constexpr double deg = kPi / 180.0;
  core::InitialConditions init;
  init.swing_rad = *values[0] * deg;
  init.boom_rad = *values[1] * deg;
  init.telescope_m = *values[2];
  init.clam_depth_m = *values[3];
  init.clam_theta2_rad = *values[4] * deg;
  return init;
}

}  // namespace

core::Control ControlScript::at(double t) const {
  core::Control c;   // zero volts before anything is scheduled
  if (breakpoints_.empty() || !(t >= 0.0)) return c;
  const auto next = std::upper_bound(
      breakpoints_.begin(), breakpoints_.end(), t,
      [](double v, const Breakpoint& b) { return v < b.time_s; });
  if (next == breakpoints_.end()) {
    c.volts = breakpoints_.back().volts;
    return c;
  }
  // the segment [prev, next): prev is the breakpoint before or the implicit zero at t = 0
  double t0 = 0.0;
  std::array<double, 5> v0{};
  if (next != breakpoints_.begin()) {
    t0 = std::prev(next)->time_s;
    v0 = std::prev(next)->volts;
  }
  if (next->segment == Segment::Step || next->time_s <= t0) {
    c.volts = v0;
    return c;
  }
  const double f = (t - t0) / (next->time_s - t0);
  for (std::size_t i = 0; i < 5; ++i) c.volts[i] = v0[i] + (next->volts[i] - v0[i]) * f;
  return c;
}

void ControlScript::check_initial(const core::MachineParams& machine) const {
  if (!initial_) return;
  if (const std::string why = initial_out_of_range(*initial_, machine); !why.empty())
    LineError(origin_, initial_line_).fail("initial " + why);
}

ControlScript parse_control_script(const std::string& text, const std::string& origin) {
  ControlScript script;
  script.origin_ = origin;
  int duration_line = 0;

  std::istringstream in(text);
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const LineError err(origin, line);
    const auto hash = raw.find('#');
    if (hash != std::string::npos) raw.erase(hash);
    const auto words = split_words(raw);
    if (words.empty()) continue;
    const std::string& kw = words[0];

    if (kw == "step" || kw == "ramp") {
      const Breakpoint bp =
          parse_breakpoint(err, words, kw == "step" ? Segment::Step : Segment::Ramp, line);
      if (!script.breakpoints_.empty()) {
        const Breakpoint& prev = script.breakpoints_.back();
        if (bp.time_s <= prev.time_s) {
          err.fail("time " + fmt(bp.time_s) + " s is not after the previous breakpoint (" +
                   fmt(prev.time_s) + " s on line " + std::to_string(prev.line) +
                   "); times must increase");
        }
      }
      script.breakpoints_.push_back(bp);
    } else if (kw == "initial") {
      if (script.initial_line_ != 0) {
        err.fail("'initial' given twice (first on line " + std::to_string(script.initial_line_) +
                 ")");
      }
      script.initial_ = parse_initial(err, words);
      script.initial_line_ = line;
    } else if (kw == "duration") {
      if (duration_line != 0) {
        err.fail("'duration' given twice (first on line " + std::to_string(duration_line) + ")");
      }
      if (words.size() != 2) err.fail("'duration' needs exactly one value in seconds");
      const double d = number(err, words[1], "duration");
      if (d <= 0.0) err.fail("duration " + fmt(d) + " s must be positive");
      if (d > kMaxTimeS) err.fail("duration " + fmt(d) + " s is beyond " + fmt(kMaxTimeS) + " s");
      script.duration_s_ = d;
      duration_line = line;
    } else {
      err.fail("unknown keyword '" + kw + "' (expected step, ramp, initial or duration)");
    }
  }
  return script;
}

ControlScript load_control_script(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw ModelError("cannot open control script '" + path + "': " + std::strerror(errno));
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw ModelError("cannot read control script '" + path + "'");
  return parse_control_script(text.str(), path);
}

}  // namespace clamsim::model
