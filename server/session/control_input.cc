#include "session/control_input.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace clamsim::session {

namespace {

const char* const kNames[5] = {"swing", "boom", "telescope", "main hoist", "aux hoist"};

template <typename T>
ControlVerdict validate(const T* volts, std::size_t count) {
  ControlVerdict v;
  if (count != 5) {
    v.kind = ControlVerdict::Kind::Rejected;
    v.reason = "expected 5 voltages, got " + std::to_string(count);
    return v;
  }
  std::ostringstream clamped;
  for (std::size_t i = 0; i < 5; ++i) {
    const double x = static_cast<double>(volts[i]);
    if (!std::isfinite(x)) {
      v.kind = ControlVerdict::Kind::Rejected;
      v.reason = "voltage [" + std::to_string(i) + "] (" + kNames[i] + ") is not a finite number";
      v.control = core::Control{};
      return v;
    }
    v.control.volts[i] = std::clamp(x, -kMaxVolts, kMaxVolts);
    if (v.control.volts[i] != x) {
      v.kind = ControlVerdict::Kind::Clamped;
      clamped << (clamped.tellp() > 0 ? ", " : "") << "[" << i << "] " << x << " V";
    }
  }
  if (v.kind == ControlVerdict::Kind::Clamped)
    v.reason = "clamped to -5..+5 V: " + clamped.str();
  return v;
}

}  // namespace

ControlVerdict validate_control(const double* volts, std::size_t count) {
  return validate(volts, count);
}

ControlVerdict validate_control(const float* volts, std::size_t count) {
  return validate(volts, count);
}

}  // namespace clamsim::session
