// A timed control script: the five ControlSignal voltages as a function of time,
// for the offline simulator and for reproducing the thesis's step experiments (5.1).
// Format (docs/control-script.md), one statement per line, '#' starts a comment:
//   initial swing_deg=0 boom_deg=30 telescope_m=12 clam_depth_m=8 clam_theta2_deg=40
//   duration 12
//   step 0  0 0 0 -3 3     # at t = 0 s jump to these volts and hold
//   ramp 6  0 0 0  0 0     # go linearly from the previous breakpoint's volts to these
// The volts are in ControlSignal order: swing, boom, telescope, main hoist (cable 1),
// aux hoist (cable 2), each -5..+5 V.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/params.h"
#include "core/state.h"

namespace clamsim::model {

enum class Segment { Step, Ramp };

struct Breakpoint {
  double time_s = 0.0;
  Segment segment = Segment::Step;   // how the volts get here from the previous breakpoint
  std::array<double, 5> volts{};
  int line = 0;                      // source line, for messages
};

class ControlScript {
 public:
  // An empty script: zero volts forever, no initial pose, no duration.
  ControlScript() = default;

  // The volts at time t [s]. Before the first breakpoint the script starts from zero
  // volts at t = 0; after the last one it holds. Right-continuous at steps.
  core::Control at(double t) const;

  const std::vector<Breakpoint>& breakpoints() const { return breakpoints_; }
  const std::optional<core::InitialConditions>& initial() const { return initial_; }
  const std::optional<double>& duration_s() const { return duration_s_; }
  const std::string& origin() const { return origin_; }
  int initial_line() const { return initial_line_; }

  // The initial pose must fit the machine it drives: throws ModelError
  // "ORIGIN:LINE: initial boom_deg=60 is outside the machine's range 0..50".
  // Does nothing when the script has no initial line.
  void check_initial(const core::MachineParams& machine) const;

 private:
  friend ControlScript parse_control_script(const std::string& text, const std::string& origin);

  std::vector<Breakpoint> breakpoints_;   // strictly increasing in time
  std::optional<core::InitialConditions> initial_;
  std::optional<double> duration_s_;
  std::string origin_;
  int initial_line_ = 0;
};

// Parse a script's text. Errors throw ModelError "ORIGIN:LINE: problem".
ControlScript parse_control_script(const std::string& text, const std::string& origin);

// Read and parse a file; the path is the origin in messages.
ControlScript load_control_script(const std::string& path);

}  // namespace clamsim::model
