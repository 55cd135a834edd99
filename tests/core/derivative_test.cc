// The derivative's stages (core/derivative.h), each called alone: kinematics and ropes,
// hydraulics, forces, and their composition.
#include "core/derivative.h"
#include "core/reeving.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/machine.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::default_pose;
using testing::volts;

// The machine at rest in its start pose is in static equilibrium (initial_state builds it
// so): stage by stage, the lines hold their pressures, the forces on every joint balance
// gravity, the drums hold their ropes and nothing pushes the clam sideways.
TEST(Derivative, EveryStageBalancesAtTheStartPose) {
  const MachineParams m = testing::shipped_machine();
  const State st = initial_state(m, default_pose());
  const Spools centred = spools_for(m, volts(0, 0, 0, 0, 0), {});
  const HydraulicStage hy = hydraulic_stage(m, st.x, centred, {});
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(hy.pressure_rate[i], 0.0, 1.0) << "line " << i;  // Pa/s

  const ClamContext c = clam_context(m, st.x);
  const ForceStage f = force_stage(m, st.x, c, hy, WorldPush{});
  const CraneDynamics dyn = crane_dynamics(m.crane, st.x.segment<3>(ix::q), Vec3::Zero(), 0.0);
  for (int j = 0; j < 3; ++j)
    EXPECT_NEAR(f.joint(j), dyn.gravity(j), 1e-6 * (1.0 + std::fabs(dyn.gravity(j)))) << "joint " << j;
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(f.drum_N[i], 0.0, 1e-6) << "drum " << i;
  EXPECT_LT(f.clam_horizontal.norm(), 1e-9);

  const StateVector dx = derivative(m, derived_model(m), st.x, st.clam, centred, {},
                                    WorldPush{}, nullptr);
  EXPECT_LT(dx.segment<3>(ix::qd).norm(), 1e-9);
}

// Stage 3 alone: a boom valve opened upward fills the cap line (the rod line, at tank
// pressure at rest, stays there) and no other channel's lines; its pressure rows are
// exactly what derivative() puts in dx.
TEST(Derivative, TheHydraulicStageFeedsTheLinesTheValveOpens) {
  const MachineParams m = testing::shipped_machine();
  const Spools up = spools_for(m, volts(0, 5, 0, 0, 0), {});
  const State st = initial_state(m, default_pose());
  const HydraulicStage hy = hydraulic_stage(m, st.x, up, {});
  EXPECT_GT(hy.pressure_rate[2], 1e6) << "cap line, Pa/s";
  EXPECT_LE(hy.pressure_rate[3], 0.0) << "rod line";
  for (int i : {0, 1, 4, 5, 6, 7, 8, 9}) EXPECT_NEAR(hy.pressure_rate[i], 0.0, 1.0) << "line " << i;
  const StateVector dx = derivative(m, derived_model(m), st.x, st.clam, up, {},
                                    WorldPush{}, nullptr);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(dx(ix::p + i), hy.pressure_rate[i]) << "line " << i;
}

// The step's first stage hands the integrator its decay rates from the same valve flows:
// they are decay_rates' for every line, and zero for the mechanical states.
TEST(Derivative, TheFirstStageGivesTheIntegratorsDecayRates) {
  const MachineParams m = testing::shipped_machine();
  const Spools spool = spools_for(m, volts(1, 5, -3, 2, -4), {});
  State st = initial_state(m, default_pose());
  st.x(ix::p + 2) = 9e6;   // a loaded cap line: conductances off their idle values
  StateVector decay;
  const StateVector dx = derivative(m, derived_model(m), st.x, clam_context(m, st.x), st.clam,
                                    spool, {}, WorldPush{}, nullptr, &decay);
  const StateVector expected = decay_rates(m, st.x, spool, {});
  for (int i = 0; i < StateVector::RowsAtCompileTime; ++i) EXPECT_EQ(decay(i), expected(i)) << i;
  EXPECT_GT(expected.segment<10>(ix::p).maxCoeff(), 1.0) << "1/s: the lines are stiff";
  EXPECT_EQ(dx, derivative(m, derived_model(m), st.x, st.clam, spool, {}, WorldPush{}, nullptr));
}

// Stage 4 alone: the ropes' pull on the crane does the virtual work of lowering the tip and
// of shortening their paths along the boom, tau = -(T1v + T2v) d(tip z)/dq - sum Ti dPi/dq,
// with the clam hanging straight under the tip (Pi: core/reeving.h, by finite differences).
TEST(Derivative, TheRopesPullTheTipDownByVirtualWork) {
  const MachineParams m = testing::shipped_machine();
  const State st = initial_state(m, default_pose());
  const ClamContext c = clam_context(m, st.x);
  HydraulicStage none;  // no actuator forces: only stops (none engaged) and ropes
  const ForceStage f = force_stage(m, st.x, c, none, WorldPush{});
  const double pull = c.vertical_pull();
  ASSERT_GT(pull, 1000.0);
  const Vec3 q = st.x.segment<3>(ix::q);
  for (int j = 0; j < 3; ++j) {
    const double h = 1e-6;
    const double dz = (tip_position(m.crane, q + h * Vec3::Unit(j))(2) -
                       tip_position(m.crane, q - h * Vec3::Unit(j))(2)) / (2 * h);
    double along = 0.0;
    for (int i = 0; i < 2; ++i) {
      const ReevingParams& r = m.hydraulics.winches[i].reeving;
      along += c.rope[i].tension_N *
               (reeved_path(m.crane, r, q + h * Vec3::Unit(j)).length_m -
                reeved_path(m.crane, r, q - h * Vec3::Unit(j)).length_m) / (2 * h);
    }
    EXPECT_NEAR(f.joint(j), -pull * dz - along, 1e-6 * pull) << "joint " << j;
  }
}

}  // namespace
}  // namespace clamsim::core
