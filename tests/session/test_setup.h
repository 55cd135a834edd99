// Shared by the session tests: the shipped machine as a MachineSetup.
#pragma once

#include <memory>
#include <string>

#include "model/machine_file.h"
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

}  // namespace clamsim::testing
