// The ropes reeved along the boom: the path's length and gradient, the
// ropes' reaction on the crane by virtual work, telescoping raising the clam by the extension
// with the drums stopped, and the stiffness of the whole rope (docs/model.md, Rope reeving).
#include "core/reeving.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/derivative.h"
#include "core/machine.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

// The path from its definition: |foot - drum| + |tip - foot| in the boom's plane, with the
// sheave on the boom written through the tip transform's axes (not reeving.cc's closed form).
double path_by_points(const CraneParams& c, const ReevingParams& r, const Vec3& q) {
  const double beta = q(1) - kHalfPi;                 // boom angle above level
  const Eigen::Vector2d pivot(-c.a1_m, c.d1_m);
  const Eigen::Vector2d u(std::cos(beta), std::sin(beta)), n(-std::sin(beta), std::cos(beta));
  const Eigen::Vector2d foot = pivot + r.foot_along_m * u + r.foot_above_m * n;
  const Vec3 tip3 = tip_position(c, q);
  const Eigen::Vector2d tip(tip3.x() * std::cos(q(0)) + tip3.y() * std::sin(q(0)), tip3.z());
  return (foot - Eigen::Vector2d(r.drum_radial_m, r.drum_height_m)).norm() + (tip - foot).norm();
}

TEST(Reeving, PathLengthAndGradientMatchTheGeometry) {
  const MachineParams m = testing::shipped_machine();
  for (int i = 0; i < 2; ++i) {
    const ReevingParams& r = m.hydraulics.winches[i].reeving;
    for (const Vec3& q : {Vec3(0.3, kHalfPi + testing::deg(10), 11.0),
                          Vec3(-1.0, kHalfPi + testing::deg(45), 20.0)}) {
      const ReevedPath p = reeved_path(m.crane, r, q);
      EXPECT_NEAR(p.length_m, path_by_points(m.crane, r, q), 1e-12);
      for (int k = 0; k < 3; ++k) {
        const double h = 1e-6;
        Vec3 qp = q, qm = q;
        qp(k) += h;
        qm(k) -= h;
        const double fd = (path_by_points(m.crane, r, qp) - path_by_points(m.crane, r, qm)) / (2 * h);
        EXPECT_NEAR(p.grad(k), fd, 1e-7) << "rope " << i << " joint " << k;
      }
    }
  }
}

// Only the ropes act: no anti-swing chain, valves and stops out of the way.
MachineParams ropes_only() {
  MachineParams m = testing::shipped_machine();
  m.anti_swing = {};
  return m;
}

// The ropes' potential energy with the clam's points held: sum EA/(2L) e^2 over the whole
// rope, stretched length path(q) + |tip(q) to the point|.
double rope_energy_at(const MachineParams& m, StateVector x, const Vec3& q) {
  x.segment<3>(ix::q) = q;
  const ClamContext c = clam_context(m, x);
  double v = 0.0;
  for (int i = 0; i < 2; ++i)
    v += rope_energy(m.hydraulics.winches[i], c.path[i] + c.span[i], x(ix::len + i));
  return v;
}

// Virtual work: the generalised forces the ropes put on the crane's joints are -dV/dq of
// their strain energy, including the pull along the boom on the foot and tip sheaves.
TEST(Reeving, RopeReactionOnTheCraneIsVirtualWork) {
  const MachineParams m = ropes_only();
  InitialConditions ic = testing::default_pose();
  ic.boom_rad = testing::deg(35);
  ic.telescope_m = 15.0;
  State st = initial_state(m, ic);
  st.x(ix::hx) += 0.4;   // the clam swung off the tip: the ropes pull sideways too
  st.x(ix::hy) -= 0.2;
  StateVector x = st.x;
  x.segment<3>(ix::qd).setZero();
  x(ix::vA) = x(ix::vC) = 0.0;
  x.segment<2>(ix::lend).setZero();
  x.segment<2>(ix::hvx).setZero();
  const ClamContext c = clam_context(m, x);
  ASSERT_GT(c.rope[0].tension_N, 1000.0);
  ASSERT_GT(c.rope[1].tension_N, 1000.0);
  const ForceStage f = force_stage(m, x, c, HydraulicStage{}, WorldPush{});
  const Vec3 q = x.segment<3>(ix::q);
  Vec3 along_boom = Vec3::Zero();
  for (int k = 0; k < 3; ++k) {
    const double h = 1e-6;
    Vec3 qp = q, qm = q;
    qp(k) += h;
    qm(k) -= h;
    const double work = -(rope_energy_at(m, x, qp) - rope_energy_at(m, x, qm)) / (2 * h);
    EXPECT_NEAR(f.joint(k), work, 1e-5 * (std::abs(work) + 1e3)) << "joint " << k;
  }
  for (int i = 0; i < 2; ++i) along_boom -= c.rope[i].tension_N * c.path_grad[i];
  // the reeved part is not small: it pulls the telescope in with about the whole tension
  EXPECT_LT(along_boom(2), -0.9 * (c.rope[0].tension_N + c.rope[1].tension_N));
  RecordProperty("telescope_pull_along_boom_N", std::to_string(along_boom(2)));
  RecordProperty("boom_torque_along_boom_Nm", std::to_string(along_boom(1)));
}

// Telescoping out by d with the drums stopped: the rope along the boom grows by
// dP = sqrt((d3 + d - f_a)^2 + f_n^2) - sqrt((d3 - f_a)^2 + f_n^2) (about d), and with the
// whole rope's length and tension unchanged, the hanging span shrinks by the same: the clam
// rises dP towards the tip, and dP + d sin(beta) in the world.
TEST(Reeving, TelescopingOutRaisesTheClamByTheExtension) {
  const MachineParams m = testing::shipped_machine();
  InitialConditions ic = testing::default_pose();
  ic.boom_rad = testing::deg(20);
  ic.telescope_m = 11.0;
  ic.clam_depth_m = 10.0;
  State st = initial_state(m, ic);
  const Outputs before = outputs(m, st, {});
  const double len0 = st.x(ix::len);
  advance_to(m, st, testing::volts(0, 0, 5, 0, 0), {}, 15.0);
  advance_to(m, st, testing::volts(0, 0, 0, 0, 0), {}, 40.0);   // the clam settles
  const Outputs after = outputs(m, st, {});
  const double d = after.joint_pos[2] - before.joint_pos[2];
  ASSERT_GT(d, 1.5) << "the telescope ran out";
  // The drum held, but its oil spring (the winch's lines through motor and gear, about
  // 1.2e6 N/m at the rope) lets it turn a few millimetres as the tension settles: measured
  // 3.5 mm. What the rope gives, drum and stretch, is taken out below: path + reach =
  // L (1 + T / EA) before and after.
  const double len1 = st.x(ix::len);
  EXPECT_LT(std::abs(len1 - len0), 0.01);
  const double ea = m.hydraulics.winches[0].rope_EA_N;
  const double given = len1 * (1.0 + after.tensions_N[0] / ea) -
                       len0 * (1.0 + before.tensions_N[0] / ea);
  const ReevingParams& r = m.hydraulics.winches[0].reeving;
  auto leg = [&](double d3) { return std::hypot(d3 - r.foot_along_m, r.foot_above_m); };
  const double dP = leg(after.joint_pos[2]) - leg(before.joint_pos[2]);
  EXPECT_NEAR(dP, d, 1e-3 * d) << "the rope along the boom grows by about d";
  const double rise_to_tip = before.display[3] - after.display[3];
  EXPECT_NEAR(rise_to_tip, dP - given, 0.002)
      << "tip to A shrinks by the rope taken up along the boom";
  const double rise = after.point_a[2] - before.point_a[2];
  EXPECT_NEAR(rise, dP - given + d * std::sin(ic.boom_rad), 0.005) << "A's height";
  EXPECT_LT(std::abs(given), 0.01);
  RecordProperty("extension_m", std::to_string(d));
  RecordProperty("clam_rise_to_tip_m", std::to_string(rise_to_tip));
}

// The whole rope is the spring: the closed clam hanging on rope 2 alone (rope 1 slack)
// stretches it by W L / EA, L the unstretched length from the drum, not the hanging part.
// (The rope's tension is the weight: its parts in the clam pull the block up and the head
// down alike, clam_pulls.)
TEST(Reeving, StaticStretchIsWeightTimesWholeLengthOverEA) {
  const MachineParams m = testing::shipped_machine();
  InitialConditions ic = testing::default_pose();
  ic.clam_theta2_rad = m.clam.theta2_closed_rad;
  State st = initial_state(m, ic);
  st.x(ix::len) += 0.5;   // rope 1 slack
  advance_to(m, st, testing::volts(0, 0, 0, 0, 0), {}, 15.0);
  const Outputs o = outputs(m, st, {});
  ASSERT_EQ(o.tensions_N[0], 0.0) << "rope 1 slack";
  const WinchParams& w = m.hydraulics.winches[1];
  const Vec3 q = st.x.segment<3>(ix::q);
  const Vec3 tip(o.tip[0], o.tip[1], o.tip[2]), a(o.point_a[0], o.point_a[1], o.point_a[2]);
  const Vec3 c(o.point_c[0], o.point_c[1], o.point_c[2]);
  // drum to tip sheave, down to the head, then its parts between the head and the block
  const double hanging = (a - tip).norm() + m.clam.closing_parts * (a - c).norm();
  const double stretched = reeved_path(m.crane, w.reeving, q).length_m + hanging;
  const double length = st.x(ix::len + 1);
  const double weight = clam_mass(m.clam, 0.0) * m.crane.gravity_m_per_s2;
  const double expected = weight * length / w.rope_EA_N;
  EXPECT_NEAR(stretched - length, expected, 0.01 * expected);
  // the hanging part alone would give a stretch several times smaller
  EXPECT_GT(length / hanging, 1.5);
  RecordProperty("stretch_mm", std::to_string(1e3 * (stretched - length)));
  RecordProperty("expected_mm", std::to_string(1e3 * expected));
}

}  // namespace
}  // namespace clamsim::core
