#include "tools/receiver/joystick_mapping.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/params.h"
#include "model/json_fields.h"

namespace clamsim::receiver {
namespace {

constexpr std::array<const char*, 5> kSignals = {"swing", "boom", "telescope", "hoist1", "hoist2"};
constexpr int kMaxAxis = 63;  // the Linux joystick API reports at most ABS_CNT axes
constexpr int kMaxButton = 63;  // the format's limit, as for axes

AxisMapping parse_axis(model::Section& s, const nlohmann::json& raw) {
  AxisMapping m;
  const double axis = s.number("axis", 1.0, model::Bounds::closed(0, kMaxAxis));
  if (axis != std::floor(axis)) {
    s.fail("axis", "expected a whole axis number, got " + model::format_number(axis));
  }
  m.axis = static_cast<int>(axis);
  s.allow("invert");
  if (raw.contains("invert")) {
    if (!raw["invert"].is_boolean()) {
      s.fail("invert", "expected true or false, got " + raw["invert"].dump());
    }
    m.invert = raw["invert"].get<bool>();
  }
  if (s.has("deadzone")) {
    m.deadzone = s.number("deadzone", 1.0, model::Bounds::half_open(0.0, 0.95));
  }
  if (s.has("volts")) m.volts = s.number("volts", 1.0, {0.0, core::kFullStick_V, true, false});
  s.finish();
  return m;
}

// A button number, or null / absent for no button. A plain number, not a {value, source}
// leaf: a button is a choice, not a measurement with a source.
std::optional<int> parse_button(model::Section& s, const nlohmann::json& raw, const char* key) {
  s.allow(key);
  if (!raw.contains(key) || raw[key].is_null()) return std::nullopt;
  const nlohmann::json& v = raw[key];
  if (v.is_number()) {  // false for true/false
    const double b = v.get<double>();
    if (b >= 0.0 && b <= kMaxButton && b == std::floor(b)) return static_cast<int>(b);
  }
  std::string shown = v.dump();
  if (shown.size() > 60) shown = shown.substr(0, 60) + "...";
  s.fail(key, "expected a whole button number in [0, " + std::to_string(kMaxButton) + "], got " +
                  shown);
}

}  // namespace

const char* signal_key(std::size_t index) { return kSignals.at(index); }

JoystickMapping parse_mapping(const nlohmann::json& doc, const std::string& origin) {
  model::Section root(doc, origin);
  root.allow("description");  // free text for people
  if (root.has("version")) {
    const double version = root.number("version", 1.0, model::Bounds::finite());
    if (version != 1.0) {
      root.fail("version", "only version 1 is understood, got " + model::format_number(version));
    }
  }
  // read the raw object under its own name only (a misspelt "signal" must not stand in here)
  if (!doc.contains("signals")) root.fail("signals", "missing");
  model::Section signals = root.child("signals");
  const nlohmann::json& raw = doc.at("signals");
  JoystickMapping mapping;
  for (std::size_t i = 0; i < kSignals.size(); ++i) {
    const char* key = kSignals[i];
    if (!raw.contains(key)) signals.fail(key, "missing (null leaves this signal at 0 V)");
    signals.allow(key);
    if (raw[key].is_null()) continue;
    model::Section axis = signals.child(key);
    mapping.signals[i] = parse_axis(axis, raw[key]);
  }
  signals.finish();
  if (root.has("buttons")) {  // optional: files from before buttons stay valid
    model::Section buttons = root.child("buttons");
    mapping.restart_button = parse_button(buttons, doc.at("buttons"), "restart");
    buttons.finish();
  }
  root.finish();
  return mapping;
}

JoystickMapping parse_mapping_text(const std::string& json_text, const std::string& origin) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    const auto pos = what.find("] ");
    if (pos != std::string::npos) what = what.substr(pos + 2);
    throw model::ModelError(origin + ": invalid JSON: " + what);
  }
  return parse_mapping(doc, origin);
}

JoystickMapping load_mapping(const std::string& path) {
  return parse_mapping(model::read_json_file(path), path);
}

JoystickMapping default_mapping() {
  JoystickMapping m;
  // swing: stick right (+x) slews clockwise from above, which is negative volts
  m.signals[0] = AxisMapping{0, true, 0.05, core::kFullStick_V};
  // boom: stick pulled back (+y on Linux) raises the boom
  m.signals[1] = AxisMapping{1, false, 0.05, core::kFullStick_V};
  // telescope: twist right extends
  m.signals[2] = AxisMapping{2, false, 0.05, core::kFullStick_V};
  // the two handles: pulled back reels the cable in
  m.signals[3] = AxisMapping{3, false, 0.05, core::kFullStick_V};
  m.signals[4] = AxisMapping{4, false, 0.05, core::kFullStick_V};
  // the browser's restart button: free on 12-button sticks (Linux numbers pads by driver)
  m.restart_button = 9;
  return m;
}

std::array<float, 5> apply_mapping(const JoystickMapping& mapping, const std::int16_t* axes,
                                   std::size_t axis_count) {
  std::array<float, 5> volts{};
  for (std::size_t i = 0; i < mapping.signals.size(); ++i) {
    if (!mapping.signals[i]) continue;
    const AxisMapping& m = *mapping.signals[i];
    const auto a = static_cast<std::size_t>(m.axis);
    if (a >= axis_count) continue;
    double x = std::clamp(static_cast<double>(axes[a]) / 32767.0, -1.0, 1.0);
    if (m.invert) x = -x;
    const double mag = std::abs(x);
    if (mag <= m.deadzone) continue;
    const double scaled = (mag - m.deadzone) / (1.0 - m.deadzone) * m.volts;
    volts[i] = static_cast<float>(std::copysign(scaled, x));
  }
  return volts;
}

}  // namespace clamsim::receiver
