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

// The spring roll's pull: never below 0 (a chain does not push), 0 when the eye is nearer
// the roll than the stowed chain, preload + rate at a length, +- friction with the run.
TEST(AntiSwing, AChainNeverPushes) {
  AntiSwingParams a = testing::shipped_machine().anti_swing;
  ASSERT_TRUE(a.fitted);
  EXPECT_EQ(anti_swing_tension(a, 0.5 * a.stowed_m, 0.0), 0.0);
  EXPECT_EQ(anti_swing_tension(a, 0.5 * a.stowed_m, -5.0), 0.0);
  EXPECT_NEAR(anti_swing_tension(a, a.stowed_m + 10.0, 0.0), a.preload_N + 10.0 * a.rate_N_per_m,
              1e-9);
  EXPECT_NEAR(anti_swing_tension(a, a.stowed_m + 10.0, 1.0),
              a.preload_N + 10.0 * a.rate_N_per_m + a.friction_N, 1e-6);
  // a roll whose friction outweighs its spring: reeling in fast, the chain goes slack, no push
  a.friction_N = 3.0 * a.preload_N;
  EXPECT_EQ(anti_swing_tension(a, a.stowed_m + 0.1, -1.0), 0.0);
  a.fitted = false;
  EXPECT_EQ(anti_swing_tension(a, a.stowed_m + 10.0, 1.0), 0.0);
}

// A chain stowed just short of the eye's resting distance: the swing takes it slack and taut
// in turn. Its force on the grab always points to the roll, and is 0 while it is short.
TEST(AntiSwing, TheSwingingGrabMakesTheChainSlackAndTautAndItOnlyPulls) {
  MachineParams m = testing::shipped_machine();
  State st = hanging(m, 2.0);
  const AntiSwingChain rest = clam_context(m, st.x).chain;
  m.anti_swing.stowed_m = rest.length_m - 0.02;
  st = hanging(m, 2.0);
  st.x(ix::hx) -= 0.4;   // towards the roll: the chain runs short
  int slack = 0, taut = 0;
  for (int i = 1; i <= 600; ++i) {
    advance_to(m, st, volts(0, 0, 0, 0, 0), {}, 0.01 * i);
    const ClamContext c = clam_context(m, st.x);
    const AntiSwingChain& ch = c.chain;
    ASSERT_GE(ch.tension_N, 0.0);
    const Vec3 eye = Vec3(st.x(ix::hx), st.x(ix::hy), -st.x(ix::yA)) +
                     m.anti_swing.attach_below_a_m * c.axis.down;
    Vec3 q = st.x.segment<3>(ix::q);
    q(2) -= m.anti_swing.roll_behind_tip_m;
    const Vec3 roll = tip_position(m.crane, q);
    ASSERT_LE(ch.force_N.dot(eye - roll), 1e-9) << "the chain pushed at t = " << st.time_s;
    if (ch.length_m <= m.anti_swing.stowed_m) {
      ++slack;
      ASSERT_EQ(ch.tension_N, 0.0);
    } else {
      ++taut;
    }
  }
  EXPECT_GT(slack, 10);
  EXPECT_GT(taut, 10);
}

// With the chain fitted, the grab kicked along the boom loses the same amount of swing each
// period (Coulomb friction in the roll): 4 F x / K per period, F the friction, x how much
// the chain's length changes per metre of the head's swing, K the slow mode's stiffness
// (docs/model.md). Across the boom, the chain's length changes only at second order.
TEST(AntiSwing, TheRollsFrictionTakesAFixedAmountOfSwingEachPeriod) {
  const MachineParams m = testing::shipped_machine();
  State st = hanging(m, 10.0);
  const double rest = st.x(ix::hx);
  {
    const ClamContext c0 = clam_context(m, st.x);
    const Modes mo0 = double_pendulum(swing_body(m.clam, 0.0), c0.reach, m.crane.gravity_m_per_s2);
    st.x(ix::hx) += 0.3;   // in the slow mode's shape
    st.x(ix::tilt) += 0.3 * mo0.slow_shape;
  }
  const Trace tr = run(m, st, 40.0);
  std::vector<double> peaks;   // the head's largest offset from rest in each swing out
  double lobe = 0.0;
  for (double v : tr.x) {
    const double a = v - rest;
    if (a > 0.0) {
      lobe = std::max(lobe, a);
    } else if (lobe > 0.0) {
      peaks.push_back(lobe);
      lobe = 0.0;
    }
  }
  ASSERT_GE(peaks.size(), 3u);
  const double period = period_of(tr);
  const double per_period = (peaks[0] - peaks[2]) / 2.0;   // two periods, after the first
  RecordProperty("period_s", std::to_string(period));
  RecordProperty("loss_per_period_m", std::to_string(per_period));
  // the prediction, from the chain's geometry at rest and the slow mode
  const MachineParams& mm = m;
  const State still = hanging(mm, 10.0);
  const ClamContext c = clam_context(mm, still.x);
  const double g = mm.crane.gravity_m_per_s2;
  const SwingBody body = swing_body(mm.clam, 0.0);
  const Modes mo = double_pendulum(body, c.reach, g);
  const double r = mo.slow_shape;
  const Vec3 along = -c.chain.force_N.normalized();   // roll to eye
  const double e = mm.anti_swing.attach_below_a_m;
  const double run_per_m = along.x() * (1.0 + e * r);   // d(length)/d(head offset)
  const double stiffness = c.vertical_pull() / c.drop + body.mass_kg * g * body.cog_below_a_m * r * r;
  const double predicted = 4.0 * mm.anti_swing.friction_N * std::fabs(run_per_m) / stiffness;
  RecordProperty("predicted_loss_per_period_m", std::to_string(predicted));
  EXPECT_NEAR(per_period, predicted, 0.3 * predicted) << "peaks " << peaks[0] << ", " << peaks[2];
  // and after 40 s hardly anything is left of 0.3 m
  double late = 0.0;
  for (std::size_t i = tr.x.size() - 500; i < tr.x.size(); ++i)
    late = std::max(late, std::fabs(tr.x[i] - rest));
  EXPECT_LT(late, 0.05);
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
