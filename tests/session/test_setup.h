// Shared by the session tests: the shipped machine as a MachineSetup, alone or in the
// shipped dam scenario.
#pragma once

#include <memory>
#include <string>

#include "model/machine_file.h"
#include "model/scenario_file.h"
#include "session/session.h"

namespace clamsim::testing {

inline session::MachineSetup shipped_setup() {
  session::MachineSetup m;
  m.name = "t250";
  const std::string path = std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json";
  m.params = std::make_shared<const core::MachineParams>(model::load_machine_file(path));
  m.initial.boom_rad = 30.0 * M_PI / 180.0;
  m.initial.telescope_m = 12.0;
  m.initial.clam_depth_m = 8.0;
  m.initial.clam_theta2_rad = 40.0 * M_PI / 180.0;
  return m;
}

// The shipped machine at work in config/scenarios/dam_intake.json, at its start pose.
// `edit` may change the scenario (e.g. a short optimum time) before it is shared.
template <typename Edit>
session::MachineSetup world_setup(Edit edit) {
  session::MachineSetup m = shipped_setup();
  model::Scenario s = model::load_scenario_file(
      std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json", *m.params);
  edit(s);
  m.initial = s.start;
  m.scenario = std::make_shared<const model::Scenario>(std::move(s));
  m.world_name = "dam_intake";
  return m;
}

inline session::MachineSetup world_setup() {
  return world_setup([](model::Scenario&) {});
}

}  // namespace clamsim::testing
