// Validation of control voltages arriving from any transport (CORBA, WebSocket), before
// they can reach the model: five finite numbers; out-of-range values are clamped to the
// valves' -5..+5 V; NaN, infinities and a wrong count are rejected with a reason.
#pragma once

#include <cstddef>
#include <string>

#include "core/state.h"

namespace clamsim::session {

constexpr double kMaxVolts = core::kFullStick_V;

struct ControlVerdict {
  enum class Kind { Accepted, Clamped, Rejected };
  Kind kind = Kind::Accepted;
  std::string reason;   // empty when accepted; names the offending element otherwise
  core::Control control;
};

ControlVerdict validate_control(const double* volts, std::size_t count);
ControlVerdict validate_control(const float* volts, std::size_t count);

}  // namespace clamsim::session
