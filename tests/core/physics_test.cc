// Physics checked independently of the simulator's equations: experiment 5.1.2's
// steady joint speeds against pump flow over cylinder area or motor displacement, computed
// from the model file's numbers.
#include <gtest/gtest.h>

#include <cmath>

#include "core/crane.h"
#include "core/machine.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

constexpr double kRadToDeg = 180.0 / M_PI;

// 5.1.2's step (the same signal on swing, boom and telescope, winches still) at full stick,
// where the centre bypass is shut and the whole pump flow goes to the actuator. 6 s: the
// slewing drive takes about 3 s to bring the superstructure up to speed and its oil spring
// rings once about it (docs/model.md, Slewing drive).
TEST(Physics, Experiment512SteadySpeedsArePumpFlowOverArea) {
  const MachineParams m = testing::shipped_machine();
  InitialConditions ic = testing::default_pose();
  ic.boom_rad = testing::deg(20);
  ic.clam_depth_m = 5.0;
  State st = initial_state(m, ic);
  advance_to(m, st, testing::volts(5, 5, 5, 0, 0), {}, 6.0);
  const Outputs o = outputs(m, st, {});
  const HydraulicsParams& hy = m.hydraulics;

  const double q_swing = hy.channels[0].valve.pump_flow_m3_per_s;
  const double swing = q_swing / (hy.swing_motor.displacement_m3_per_rad * hy.swing_motor.gear_ratio);
  EXPECT_NEAR(o.joint_vel[0], swing * kRadToDeg, 0.1 * swing * kRadToDeg) << "swing deg/s";

  // the cylinder's speed over its lever dX/dtheta at the boom angle reached (eqs 2.17-2.19)
  const double cyl_v = hy.channels[1].valve.pump_flow_m3_per_s / hy.boom_cylinders.cap_area_m2;
  const double lever = boom_cylinder_lever(hy.boom_geometry, testing::deg(o.joint_pos[1]));
  const double boom = cyl_v / lever * kRadToDeg;
  EXPECT_NEAR(o.joint_vel[1], boom, 0.1 * boom) << "boom deg/s";

  const double tel = hy.channels[2].valve.pump_flow_m3_per_s / hy.telescope_cylinder.cap_area_m2;
  EXPECT_NEAR(o.joint_vel[2], tel, 0.1 * tel) << "telescope m/s";
  RecordProperty("swing_deg_s", std::to_string(o.joint_vel[0]));
  RecordProperty("boom_deg_s", std::to_string(o.joint_vel[1]));
  RecordProperty("telescope_m_s", std::to_string(o.joint_vel[2]));
}

// The winches at full stick: rope speed = pump flow over motor displacement, through the
// gear, at the drum's radius.
TEST(Physics, HoistRopeSpeedIsPumpFlowOverDisplacement) {
  const MachineParams m = testing::shipped_machine();
  State st = initial_state(m, testing::default_pose());
  advance_to(m, st, testing::volts(0, 0, 0, 5, 5), {}, 1.5);   // both reel in: the clam rises
  const Outputs o = outputs(m, st, {});
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = m.hydraulics.winches[i];
    const double v = m.hydraulics.channels[3 + i].valve.pump_flow_m3_per_s /
                     (w.motor.displacement_m3_per_rad * w.motor.gear_ratio) * w.drum_radius_m;
    EXPECT_NEAR(-o.cable_rates_m_per_s[i], v, 0.1 * v) << "winch " << i;
  }
}

}  // namespace
}  // namespace clamsim::core
