// Shared by the core tests: the shipped machine file and helpers to drive it.
#pragma once

#include <cmath>
#include <string>

#include "core/clam_pose.h"
#include "core/hydraulics.h"
#include "core/machine.h"
#include "core/world.h"
#include "model/machine_file.h"

namespace clamsim::testing {

inline core::MachineParams shipped_machine() {
  return model::load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
}

// The shipped machine with the thesis's valve law as published (eq 2.23: linear bypass).
inline core::MachineParams thesis_valve_machine() {
  core::MachineParams m = shipped_machine();
  core::use_thesis_valves(m.hydraulics);
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

// A small world for Table 2.5's grip: a log of `mass_kg` (1 m long, 0.2 m radius) lying
// between the open buckets of the clam as it hangs in `st`, along their width,
// `depth_in_lips` lip lengths below the hinge C (half a lip: in the throat, where the
// shells push it down and cannot lift it; three quarters: beside the lips, where closing
// turns them in under it; docs/model.md, Grip), on a narrow shelf that holds it there until the jaws close; the water
// far below. Take the shelf away (`solids.clear()`) once the log is in the jaws.
inline core::WorldParams log_between_jaws(const core::MachineParams& m, const core::State& st,
                                          double mass_kg, double depth_in_lips = 0.5) {
  const core::ClamPose pose = core::clam_pose(m, st.x);
  const Eigen::Vector3d along = pose.frame.col(1);   // the buckets' width
  core::LoadParams log;
  log.name = "log";
  log.shape = core::LoadShape::Cylinder;
  log.mass_kg = mass_kg;
  log.radius_m = 0.2;
  log.length_m = 1.0;
  log.position_m = pose.c - depth_in_lips * m.clam.lip_length_m * Eigen::Vector3d::UnitZ();
  log.yaw_rad = std::atan2(along.y(), along.x());
  core::SolidBox shelf;   // under the log's axis, narrower than the log across the jaws
  shelf.kind = core::SolidKind::Deck;
  shelf.name = "shelf";
  shelf.half_size_m = {0.4, 0.05, 0.05};
  shelf.center_m = log.position_m - (log.radius_m + shelf.half_size_m.z()) * Eigen::Vector3d::UnitZ();
  shelf.yaw = log.yaw_rad;
  core::WorldParams w;
  w.water.level_m = -1000.0;
  w.loads.push_back(log);
  w.solids.push_back(shelf);
  return w;
}

}  // namespace clamsim::testing
