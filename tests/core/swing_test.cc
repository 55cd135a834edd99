// The grab's swing as a double pendulum (ropes from the tip sheave to the head A, the body
// turning about A) and the anti-swing chain of Fig. 2.11 (docs/model.md, Coupling and swing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/clam.h"
#include "core/crane.h"
#include "core/derivative.h"
#include "core/machine.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::default_pose;
using testing::volts;

// The linearised double pendulum in one plane: head A on a rope of length L (stiffness
// M g / L), body of mass M, centre of gravity d below A, inertia J_G about it. With
// J_A = J_G + M d^2 the normal modes solve
//   J_G w^4 - g (J_A / L + M d) w^2 + M g^2 d / L = 0,
// and the slow mode's shape is tilt / head offset = (g / L - w^2) / (w^2 d).
struct Modes {
  double slow_w2 = 0.0, fast_w2 = 0.0;
  double slow_shape = 0.0;   // phi / x_A in the slow mode [rad/m]
};
Modes double_pendulum(const SwingBody& b, double length, double g) {
  const double jg = b.inertia_kgm2, ja = b.about_a_kgm2(), mass = b.mass_kg, d = b.cog_below_a_m;
  const double p = g * (ja / length + mass * d), q = mass * g * g * d / length;
  const double root = std::sqrt(p * p - 4.0 * jg * q);
  Modes mo;
  mo.slow_w2 = 2.0 * q / (p + root);   // the smaller root, without cancellation
  mo.fast_w2 = (p + root) / (2.0 * jg);
  mo.slow_shape = (g / length - mo.slow_w2) / (mo.slow_w2 * d);
  return mo;
}

// The head's offset along the boom's heading from where it rests (x at swing 0).
struct Trace {
  std::vector<double> t, x;
};
Trace run(const MachineParams& m, State st, double duration_s, double dt = 0.01) {
  Trace tr;
  for (int i = 1; i * dt <= duration_s + 1e-9; ++i) {
    advance_to(m, st, volts(0, 0, 0, 0, 0), {}, i * dt);
    tr.t.push_back(st.time_s);
    tr.x.push_back(st.x(ix::hx));
  }
  return tr;
}

// Period from the upward crossings of the trace's mean.
double period_of(const Trace& tr) {
  double mean = 0.0;
  for (double v : tr.x) mean += v;
  mean /= static_cast<double>(tr.x.size());
  std::vector<double> ups;
  for (std::size_t i = 1; i < tr.x.size(); ++i) {
    const double a = tr.x[i - 1] - mean, b = tr.x[i] - mean;
    if (a < 0.0 && b >= 0.0) ups.push_back(tr.t[i - 1] + (tr.t[i] - tr.t[i - 1]) * a / (a - b));
  }
  if (ups.size() < 2) return 0.0;
  return (ups.back() - ups.front()) / static_cast<double>(ups.size() - 1);
}

State hanging(const MachineParams& m, double rope_m) {
  InitialConditions ic = default_pose();
  ic.clam_depth_m = rope_m;
  return initial_state(m, ic);
}

class BarePendulum : public ::testing::TestWithParam<double> {};

TEST_P(BarePendulum, SlowSwingPeriodIsTheDoublePendulums) {
  MachineParams m = testing::shipped_machine();
  m.anti_swing.fitted = false;   // the bare pendulum
  const double rope = GetParam();
  State st = hanging(m, rope);
  const double g = m.crane.gravity_m_per_s2;
  const SwingBody body = swing_body(m.clam, 0.0);
  const double length = clam_context(m, st.x).reach;
  const Modes mo = double_pendulum(body, length, g);
  // started in the slow mode's shape: 0.1 m at the head, the body tilted with it
  const double kick = 0.1;
  st.x(ix::hx) += kick;
  st.x(ix::tilt) = kick * mo.slow_shape;
  const double expected = 4.0 * kHalfPi / std::sqrt(mo.slow_w2);
  const double period = period_of(run(m, st, 4.0 * expected));
  const double point_mass = 4.0 * kHalfPi * std::sqrt(length / g);
  RecordProperty("rope_m", std::to_string(length));
  RecordProperty("period_s", std::to_string(period));
  RecordProperty("closed_form_s", std::to_string(expected));
  RecordProperty("fast_period_s", std::to_string(4.0 * kHalfPi / std::sqrt(mo.fast_w2)));
  RecordProperty("point_mass_s", std::to_string(point_mass));
  EXPECT_NEAR(period, expected, 0.03 * expected)
      << "L = " << length << " m, d = " << body.cog_below_a_m << " m, J_G = "
      << body.inertia_kgm2 << " kg m^2; the point at A would swing in " << point_mass << " s";
}

INSTANTIATE_TEST_SUITE_P(Ropes, BarePendulum, ::testing::Values(2.0, 10.0, 28.0));

TEST(Swing, TheBodysCentreOfGravityIsWhereItsLinksPutIt) {
  const MachineParams m = testing::shipped_machine();
  const SwingBody b = swing_body(m.clam, 0.0);
  EXPECT_NEAR(b.mass_kg, clam_mass(m.clam, 0.0), 1e-9);
  // the buckets (700 of 800 kg) hang about 1.6 m below A (Table 2.1's links)
  EXPECT_GT(b.cog_below_a_m, 1.2);
  EXPECT_LT(b.cog_below_a_m, 1.8);
  EXPECT_GT(b.inertia_kgm2, 0.0);
  // a held load lowers it
  EXPECT_GT(swing_body(m.clam, 400.0).cog_below_a_m, b.cog_below_a_m);
}

// The device's pull on the eye: nothing on the plumb at rest, the spring back towards it, and
// the friction against the eye's run in any direction, never more than friction_N.
TEST(AntiSwing, ThePullIsTowardsThePlumbAndTheFrictionOpposesTheRun) {
  AntiSwingParams a = testing::shipped_machine().anti_swing;
  ASSERT_TRUE(a.fitted);
  const Eigen::Vector2d zero = Eigen::Vector2d::Zero();
  EXPECT_EQ(anti_swing_force(a, zero, zero), zero);
  const Eigen::Vector2d off(0.1, -0.2);
  EXPECT_LT((anti_swing_force(a, off, zero) + a.stiffness_N_per_m * off).norm(), 1e-9);
  // fast across the boom: brake and the whole friction against the run
  const Eigen::Vector2d run(0.0, 2.0);
  const Eigen::Vector2d f = anti_swing_force(a, zero, run);
  EXPECT_NEAR(f.x(), 0.0, 1e-12);
  EXPECT_NEAR(f.y(), -a.damping_Ns_per_m * 2.0 - a.friction_N, 0.01 * a.friction_N);
  a.fitted = false;
  EXPECT_EQ(anti_swing_force(a, off, run), zero);
}

// The roll pays out with the ropes: lowering the plumb grab 2 m and slewing does not work the
// device (no lift, no friction on the hoist), and at rest the ropes carry the whole weight.
TEST(AntiSwing, HoistingAPlumbGrabDoesNotWorkTheDevice) {
  const MachineParams m = testing::shipped_machine();
  State st = hanging(m, 10.0);
  EXPECT_LT(clam_context(m, st.x).chain.force_N.norm(), 1e-6);
  double most = 0.0;
  for (int f = 1; f <= 60; ++f) {   // 3 s lowering both ropes together
    advance_to(m, st, volts(0, 0, 0, 5.0, 5.0), {}, 0.05 * f);
    const AntiSwingChain ch = clam_context(m, st.x).chain;
    EXPECT_EQ(ch.force_N.z(), 0.0);
    most = std::max(most, ch.force_N.norm());
  }
  RecordProperty("largest_pull_N", std::to_string(most));
  // what there is comes from the grab's own small swing as the drums start and stop
  EXPECT_LT(most, 0.01 * clam_mass(m.clam, 0.0) * m.crane.gravity_m_per_s2);
}

// Kicked along the boom or across it, the grab's swing decays alike: the swivelling guide
// feels the chain's angle both ways. The period is the slow mode's under the extra stiffness
// (the ropes' M g / L plus the spring), and a 0.3 m swing is down to a few millimetres in
// three periods.
TEST(AntiSwing, TheSwingDecaysAlongAndAcrossTheBoomAlike) {
  const MachineParams m = testing::shipped_machine();
  double period[2] = {0.0, 0.0}, ratio[2] = {0.0, 0.0};
  for (int dir = 0; dir < 2; ++dir) {
    State st = hanging(m, 10.0);
    const double rest = st.x(ix::hx + dir);
    const Modes mo = double_pendulum(swing_body(m.clam, 0.0), clam_context(m, st.x).reach,
                                     m.crane.gravity_m_per_s2);
    st.x(ix::hx + dir) += 0.3;
    st.x(ix::tilt + dir) += 0.3 * mo.slow_shape;
    std::vector<double> t, peaks;
    double lobe = 0.0, prev = 0.3;
    std::vector<double> ups;
    for (int i = 1; i <= 2000; ++i) {
      advance_to(m, st, volts(0, 0, 0, 0, 0), {}, 0.01 * i);
      const double a = st.x(ix::hx + dir) - rest;
      if (a > 0.0) {
        lobe = std::max(lobe, a);
      } else if (lobe > 0.0) {
        peaks.push_back(lobe);
        lobe = 0.0;
      }
      if (prev < 0.0 && a >= 0.0) ups.push_back(st.time_s);
      prev = a;
    }
    ASSERT_GE(peaks.size(), 3u) << "direction " << dir;
    ASSERT_GE(ups.size(), 2u) << "direction " << dir;
    period[dir] = ups[1] - ups[0];
    ratio[dir] = peaks[1] / peaks[0];
    RecordProperty(dir == 0 ? "along_period_s" : "across_period_s", std::to_string(period[dir]));
    RecordProperty(dir == 0 ? "along_peak_ratio" : "across_peak_ratio", std::to_string(ratio[dir]));
    RecordProperty(dir == 0 ? "along_peaks_m" : "across_peaks_m",
                   std::to_string(peaks[0]) + " " + std::to_string(peaks[1]) + " " +
                       std::to_string(peaks[2]));
    EXPECT_LT(peaks[2], 0.02) << "direction " << dir;
  }
  EXPECT_NEAR(period[1], period[0], 0.03 * period[0]);
  EXPECT_NEAR(ratio[1], ratio[0], 0.1 * ratio[0] + 0.01);
}

// The step the model runs at (2.5 ms) and a 1 ms step give the same swing.
TEST(Swing, TheSwingDoesNotDependOnTheStep) {
  MachineParams m = testing::shipped_machine();
  MachineParams fine = m;
  fine.integrator.step_s = 0.001;
  for (bool fitted : {false, true}) {
    m.anti_swing.fitted = fine.anti_swing.fitted = fitted;
    State a = hanging(m, 6.0), b = hanging(fine, 6.0);
    for (State* s : {&a, &b}) {
      s->x(ix::hx) += 0.2;
      s->x(ix::hy) -= 0.1;
      s->x(ix::tilt + 1) = 0.05;
    }
    for (int f = 1; f <= 200; ++f) {   // 10 s, slewing for the first 3
      const double v = f <= 60 ? 5.0 : 0.0;
      advance_to(m, a, volts(v, 0, 0, 0, 0), {}, 0.05 * f);
      advance_to(fine, b, volts(v, 0, 0, 0, 0), {}, 0.05 * f);
    }
    EXPECT_NEAR(a.x(ix::hx), b.x(ix::hx), 2e-3) << "fitted " << fitted;
    EXPECT_NEAR(a.x(ix::hy), b.x(ix::hy), 2e-3) << "fitted " << fitted;
    EXPECT_NEAR(a.x(ix::tilt), b.x(ix::tilt), 2e-3) << "fitted " << fitted;
    EXPECT_NEAR(a.x(ix::tilt + 1), b.x(ix::tilt + 1), 2e-3) << "fitted " << fitted;
  }
}

}  // namespace
}  // namespace clamsim::core
