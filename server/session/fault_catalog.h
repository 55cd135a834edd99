// Every fault an instructor can inject (docs/instructor.md, "Faults you can inject"), in ONE
// table: its name, one line for the instructor, its parameters (unit, range, default, or choices)
// and how it applies. The physics faults land in core::Faults (core/faults.h); the joystick
// axis faults act on the trainee's five volts before the machine sees them (trainee_input).
// The instructor page builds its form from fault_catalog_json(): the browser does not know
// the table. docs/instructor.md, "Faults you can inject", lists it for people.
#pragma once

#include <array>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/faults.h"
#include "core/state.h"

namespace clamsim::session {

// A joystick axis that drifts: an offset growing at rate_V_per_s from since_s, up to
// |limit_V|, added to what the trainee's stick says.
struct AxisDrift {
  bool active = false;
  double rate_V_per_s = 0.0;
  double limit_V = 0.0;
  double since_s = 0.0;
};

// A joystick axis that died: it reads value_V whatever the trainee does.
struct AxisDead {
  bool active = false;
  double value_V = 0.0;
};

// The joystick axis faults, by ControlSignal index.
struct InputFaults {
  std::array<AxisDrift, 5> drift{};
  std::array<AxisDead, 5> dead{};
};

// One injected fault as the instructor set it (defaults filled in), for the page and the
// report's timeline.
struct ActiveFault {
  std::string name;
  nlohmann::json params;
  double since_s = 0.0;
  double until_s = std::numeric_limits<double>::infinity();  // when it ends by itself
};

struct ActiveFaults {
  core::Faults physics;              // the session copies it into core::Environment
  InputFaults input;                 // trainee_input applies it
  std::vector<ActiveFault> list;     // in order of injection; one per fault and target
};

// When a fault is injected: the session's time (monotonic across restarts: expiry and drift
// count on it) and the volts in force (a sticking spool holds its channel's).
struct FaultContext {
  double time_s = 0.0;
  core::Control control;
};

// Validates name and params (a JSON object or null; missing params take their defaults;
// unknown params, wrong types and out-of-range values are refused) and applies the fault,
// replacing the same fault on the same target. Returns "" on success, else a message naming
// the problem and the valid choices or range.
std::string inject_fault(ActiveFaults& faults, std::string_view name,
                         const nlohmann::json& params, const FaultContext& context);

// Clears one fault: its name and, where it has one, its target (e.g. {"function":"boom"};
// without the target, that fault on every target). Name "all" clears every fault. Clearing a
// fault that is not active is not an error. "" or an error message as for inject_fault.
std::string clear_fault(ActiveFaults& faults, std::string_view name,
                        const nlohmann::json& params);

// "" when every physics fault slot could have come from this table (a recording's faults,
// read back: recording_read.h), else the first slot that could not, named with its range.
// Inactive slots must hold finite values.
std::string check_physics_faults(const core::Faults& faults);

// Ends the faults whose time is up at session time time_s (a sticking spool's).
void expire_faults(ActiveFaults& faults, double time_s);

// The trainee's five volts as the machine gets them: each drifting axis offset, each dead
// axis at its value, clamped to the -5..+5 V of ControlSignal.
core::Control trainee_input(const InputFaults& faults, const core::Control& volts, double time_s);

// A fault in words, for the instructor's list and the report's timeline: "burst hose:
// function boom, line A, diameter 3 mm" (the parameters given, in the table's order, with
// their units). An unknown name is returned as it is.
std::string fault_text(std::string_view name, const nlohmann::json& params);

// The table: [{name, summary, target, params: [{name, unit, help, min, max, default} or
// {name, help, choices, default}]}].
nlohmann::json fault_catalog_json();

// What is active: [{name, text, params, since_s[, until_s]}], in order of injection.
nlohmann::json active_faults_json(const ActiveFaults& faults);

}  // namespace clamsim::session
