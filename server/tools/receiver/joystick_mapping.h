// How joystick axes become the five ControlSignal voltages. The thesis's operator used one
// 3-axis stick for swing, boom and telescope and two single-axis handles for the cables,
// each giving -5..+5 V (section 3.3, Fig. 3.13); a mapping file says, for each signal,
// which axis drives it, whether it is inverted, its deadzone and its full-scale volts, and
// which button restarts the training task.
// Format: docs/receiver.md; the default: config/joystick-default.json.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/params.h"

namespace clamsim::receiver {

struct AxisMapping {
  int axis = 0;            // Linux joystick axis number (js_event.number)
  bool invert = false;     // flip the sign before scaling
  double deadzone = 0.05;  // fraction of full travel around centre that reads as 0
  double volts = core::kFullStick_V;   // volts at full deflection, 0 < volts <= full stick
};

struct JoystickMapping {
  // One entry per ControlSignal index; empty = that signal stays at 0 V.
  std::array<std::optional<AxisMapping>, 5> signals;
  // The button (js_event.number, 0..63) that asks for a new attempt at the task, like the
  // keyboard's n; empty = no button does.
  std::optional<int> restart_button;
};

// The signal names used in mapping files, in ControlSignal order:
// swing, boom, telescope, hoist1, hoist2.
const char* signal_key(std::size_t index);

// Parses a mapping document; errors throw model::ModelError naming the field, e.g.
// "my.json: signals.boom.deadzone: expected a number in [0, 0.95), got 1.5" or
// "my.json: buttons.restart: expected a whole button number in [0, 63], got 2.5".
JoystickMapping parse_mapping(const nlohmann::json& doc, const std::string& origin);
JoystickMapping parse_mapping_text(const std::string& json_text, const std::string& origin);
JoystickMapping load_mapping(const std::string& path);

// The thesis's layout, restart on button 9 (identical to config/joystick-default.json).
JoystickMapping default_mapping();

// The volts for raw axis values (-32767..32767); axes not present read as centred.
// Continuous at the deadzone edge: |x| in [dz, 1] maps linearly onto [0, volts].
std::array<float, 5> apply_mapping(const JoystickMapping& mapping, const std::int16_t* axes,
                                   std::size_t axis_count);

}  // namespace clamsim::receiver
