// The grip as contact mechanics (core/clam_grip.h; docs/model.md, Grip): a load is held only
// where the shells press it from both sides and their contacts, with friction, can carry it.
#include "core/clam_grip.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/clam.h"
#include "core/clam_pose.h"
#include "core/machine.h"
#include "core/world_step.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::default_pose;
using testing::volts;

ClamParams flat_shells() {
  ClamParams c = testing::shipped_machine().clam;
  c.shell_curl_rad = 0.0;
  return c;
}

TEST(ShellGeometry, AFlatShellPushesWhatIsInTheThroatDownAtItsOwnAngle) {
  // A straight shell at phi from the vertical pushes along its normal, phi below the
  // horizontal: per newton it carries -sin phi + mu cos phi, so only mu > tan phi pinches.
  const ClamParams c = flat_shells();
  for (double phi_deg : {10.0, 26.6, 43.5}) {
    const double phi = testing::deg(phi_deg);
    // a point 0.3 m inside the shell, off its middle
    const PlanePoint along(std::sin(phi), -std::cos(phi)), inward(-std::cos(phi), -std::sin(phi));
    const PlanePoint p = 0.45 * along + 0.3 * inward;
    const ShellTouch t = shell_touch(c, phi, p);
    ASSERT_TRUE(t.inside);
    EXPECT_NEAR(t.distance_m, 0.3, 1e-12);
    EXPECT_NEAR(contact_support(t.normal, 0.5), -std::sin(phi) + 0.5 * std::cos(phi), 1e-12);
  }
}

TEST(ShellGeometry, ACurledShellTurnsInUnderTheLoadTowardsItsLip) {
  const ClamParams c = testing::shipped_machine().clam;
  const double phi = testing::deg(25);
  // the arc ends at the hinge and at the lip, and bulges away from the inside between them
  EXPECT_NEAR(shell_point(c, phi, 0.0).norm(), 0.0, 1e-12);
  EXPECT_NEAR((shell_point(c, phi, 1.0) - c.lip_length_m * PlanePoint(std::sin(phi), -std::cos(phi))).norm(),
              0.0, 1e-12);
  // the proxies' points, turned step by step, are the arc's
  const std::array<PlanePoint, kShellProxies> proxies = shell_proxy_points(c, phi);
  for (int i = 0; i < kShellProxies; ++i)
    EXPECT_NEAR((proxies[i] - shell_point(c, phi, (i + 0.5) / kShellProxies)).norm(), 0.0, 1e-12);
  const PlanePoint mid = shell_point(c, phi, 0.5);
  const double sagitta = 0.5 * c.lip_length_m * std::tan(0.25 * c.shell_curl_rad);
  EXPECT_NEAR(mid.dot(PlanePoint(std::cos(phi), std::sin(phi))), sagitta, 1e-12);
  // a load deep in the lips is carried from below; one in the throat is pushed down
  const ShellTouch deep = shell_touch(c, phi, PlanePoint(0.0, -0.75 * c.lip_length_m));
  const ShellTouch throat = shell_touch(c, phi, PlanePoint(0.0, -0.3 * c.lip_length_m));
  EXPECT_GT(contact_support(deep.normal, 0.5), 0.3);
  EXPECT_LT(contact_support(throat.normal, 0.5), 0.0);
}

TEST(ShellGeometry, TheShellsPressHarderTheHarderTheStopForceAndTheShorterTheLever) {
  GripGeometry g;
  g.support = {0.5, 0.5};
  g.lever_m = {0.6, 0.3};
  const std::array<double, 2> n = shell_normal_forces(g, 0.8, 10000.0);
  // virtual work: lambda ds = 2 M dtheta2, N = M / lever
  EXPECT_NEAR(n[0], 0.5 * 10000.0 * 0.8 / 0.6, 1e-9);
  EXPECT_NEAR(n[1], 0.5 * 10000.0 * 0.8 / 0.3, 1e-9);
  EXPECT_NEAR(grip_capacity_N(g, 0.8, 20000.0), 2.0 * grip_capacity_N(g, 0.8, 10000.0), 1e-9);
  EXPECT_EQ(grip_capacity_N(g, 0.8, -5000.0), 0.0) << "shells pulled apart press nothing";
}

// Closing in place: the closing rope draws C up towards A while the holding rope lets the
// head sink a third as fast (four parts in the clam), so the buckets close where they hang.
const Control kClose = volts(0, 0, 0, -1.2, 2.5);

// The fully open grab, hanging in the default pose, with a log on a shelf between its jaws.
struct Rig {
  MachineParams m = testing::shipped_machine();
  State st;
  WorldParams w;
  Rig(double mass_kg, double depth_in_lips) {
    InitialConditions open = default_pose();
    open.clam_theta2_rad = m.clam.theta2_open_rad;
    st = initial_state(m, open);
    w = testing::log_between_jaws(m, st, mass_kg, depth_in_lips);
    reset_world(w, st.world);
  }
  Outputs run(const Control& u, double seconds) {
    const Environment env{&w};
    advance_to(m, st, u, env, st.time_s + seconds);
    return outputs(m, st, env);
  }
};

TEST(Grip, ALogInTheThroatStopsTheJawsButIsNotLifted) {
  Rig rig(300.0, 0.3);
  Outputs o = rig.run(kClose, 0.05);   // close on it, and stop when the shells stop on it
  for (int f = 0; f < 60 && !rig.st.clam.on_object; ++f) o = rig.run(kClose, 0.05);
  ASSERT_TRUE(rig.st.clam.on_object);
  o = rig.run(volts(0, 0, 0, 0, 0), 0.5);
  EXPECT_EQ(o.load, LoadStatus::WithoutLoad) << "the shells only push it down and out";
  EXPECT_NE(o.working, WorkingState::Free) << "the links stop on it";
  EXPECT_GT(o.jaw_gap_m, 2 * rig.w.loads[0].radius_m) << "the jaws do not pass through it";
  const double lay = o.loads[0].position_m[2];
  o = rig.run(volts(0, 0, 0, 3, 3), 3.0);   // hoist on both ropes
  EXPECT_EQ(o.events.grips, 0u);
  EXPECT_FALSE(o.loads[0].held);
  EXPECT_NEAR(o.loads[0].position_m[2], lay, 0.05) << "it stays where it lay";
  EXPECT_GT(o.point_c[2] - lay, 1.0) << "the grab went up without it";
}

TEST(Grip, AnOpenGrabThatLandsOnALogAndIsHoistedLeavesIt) {
  // The open grab lowered on both ropes onto a log under its hinge: it lands, its head sinks
  // and turns the buckets a little, and hoisting takes nothing along.
  Rig rig(471.0, 1.0);
  rig.w.loads[0].position_m = clam_pose(rig.m, rig.st.x).c - Eigen::Vector3d(0, 0, 0.5);
  rig.w.solids[0].center_m = rig.w.loads[0].position_m - Eigen::Vector3d(0, 0, 0.25);
  reset_world(rig.w, rig.st.world);
  Outputs o = rig.run(volts(0, 0, 0, -2, -2), 2.5);
  const double lay = o.loads[0].position_m[2];
  o = rig.run(volts(0, 0, 0, 3, 3), 4.0);
  EXPECT_EQ(o.events.grips, 0u);
  EXPECT_FALSE(o.loads[0].held);
  EXPECT_NEAR(o.loads[0].position_m[2], lay, 0.05);
}

TEST(Grip, ALogBesideTheLipsIsGrippedCarriedOnTheClosingRopeAndDroppedWhenPulledOpen) {
  Rig rig(471.0, 0.75);
  Outputs o = rig.run(kClose, 3.0);
  ASSERT_EQ(o.load, LoadStatus::WithLoad);
  EXPECT_GT(o.jaw_gap_m, 2 * rig.w.loads[0].radius_m) << "stopped on the log, not shut";
  rig.w.solids.clear();
  // hung on the closing rope the grab's and the log's weight squeeze it (two-rope grabs)
  o = rig.run(volts(0, 0, 0, 0, 3), 3.0);
  EXPECT_TRUE(o.loads[0].held);
  const double squeeze = o.squeeze_N;
  EXPECT_GT(squeeze, 471.0 * 9.81) << "more than the log weighs";
  // the holding rope takes the head, the closing rope is let out: nothing pulls the shells
  // shut, the buckets are pulled open and the log slips out
  for (int f = 0; f < 200 && o.tensions_N[0] < 1000.0; ++f) o = rig.run(volts(0, 0, 0, 3, 0), 0.05);
  ASSERT_GE(o.tensions_N[0], 1000.0) << "cable 1 taken up";
  EXPECT_TRUE(o.loads[0].held);
  o = rig.run(volts(0, 0, 0, 0, -3), 3.0);
  EXPECT_FALSE(o.loads[0].held);
  EXPECT_EQ(rig.st.health.loads_released, 1u);
}

TEST(Grip, AHeavierLogIsSqueezedHarderOnTheClosingRope) {
  // the self-closing of a two-rope grab: the closing rope's parts pull the shells together
  // with the weight they carry, so the squeeze grows with the load
  double squeeze[2];
  const double mass[2] = {200.0, 900.0};
  for (int i = 0; i < 2; ++i) {
    Rig rig(mass[i], 0.75);
    rig.run(kClose, 3.0);
    rig.w.solids.clear();
    const Outputs o = rig.run(volts(0, 0, 0, 0, 3), 3.0);
    ASSERT_TRUE(o.loads[0].held) << mass[i];
    squeeze[i] = o.squeeze_N;
  }
  EXPECT_GT(squeeze[1], 1.5 * squeeze[0]);
}

}  // namespace
}  // namespace clamsim::core
