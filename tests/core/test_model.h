// Shared by the core tests: the shipped machine file and helpers to drive it.
#pragma once

#include <cmath>
#include <string>

#include "core/hydraulics.h"
#include "core/machine.h"
#include "model/machine_file.h"

namespace clamsim::testing {

inline core::MachineParams shipped_machine() {
  return model::load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
}

// The shipped machine with the thesis's valve law as published (eq 2.23: linear bypass).
inline core::MachineParams thesis_valve_machine() {
  core::MachineParams m = shipped_machine();
  for (auto& ch : m.hydraulics.channels) core::use_thesis_bypass(ch.valve);
  return m;
}

inline double deg(double d) { return d * M_PI / 180.0; }

inline core::InitialConditions default_pose() {
  core::InitialConditions ic;
  ic.swing_rad = 0.0;
  ic.boom_rad = deg(30);
  ic.telescope_m = 12.0;
  ic.clam_depth_m = 8.0;
  ic.clam_theta2_rad = deg(40);
  return ic;
}

inline core::Control volts(double v0, double v1, double v2, double v3, double v4) {
  core::Control u;
  u.volts = {v0, v1, v2, v3, v4};
  return u;
}

}  // namespace clamsim::testing
