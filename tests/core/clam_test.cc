// The clam's Newton-Euler systems (eqs 2.1-2.9) against closed forms and virtual work.
#include "core/clam.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "test_model.h"

namespace clamsim::core {
namespace {

constexpr double g = 9.81;

ClamParams params() { return testing::shipped_machine().clam; }

ClamKinematics at_rest(const ClamParams& c, double theta2) {
  return clam_kinematics(c, 0.0, clam_distance_at(c, theta2), 0.0, 0.0);
}

// Potential energy of the mechanism as a function of yA, yC (y down), from the geometry.
double potential(const ClamParams& c, double yA, double yC) {
  return clam_energy(c, clam_kinematics(c, yA, yC, 0.0, 0.0), yA, yC, 0.0, 0.0, g);
}

// Eqs 2.1-2.7 as the thesis writes them: Table 2.2's 13 unknowns (14 with the stop force
// and aA = aC when locked), solved as one linear system. The server solves a hand-reduced
// two-unknown form (core/clam.cc); this is the reference it must reproduce.
struct Table22 {
  double aA, aC, stop_force_N;
};
Table22 table22_system(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                       double load_kg, double stop_sign, double lift, bool locked) {
  enum U { Ax, Bx, By, Fx, Cy, aG1x, aG1y, al1, aG2x, aG2y, al2, aA, aC, lam };
  const int n = locked ? 14 : 13;
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(n);
  const double l1 = c.link1_length_m, l2 = c.link2_length_m, h1 = l1 / 2, h2 = l2 / 2;
  const double m1 = c.link1_mass_kg, m2 = c.link2_mass_kg + 0.5 * load_kg, m3 = c.link3_mass_kg;
  const double s1 = std::sin(k.theta1()), c1 = std::cos(k.theta1());
  const double s2 = std::sin(k.theta2()), c2 = std::cos(k.theta2());
  const double w1s = k.omega1 * k.omega1, w2s = k.omega2 * k.omega2, sl = 0.5 * stop_sign;
  int e = 0;
  // link 1: eqs 2.1-2.3
  m(e, aG1x) = m1, m(e, Ax) = -1, m(e, Bx) = -1, ++e;
  m(e, aG1y) = m1, m(e, By) = -1, r(e) = m1 * g - t1 / 2;
  if (locked) m(e, lam) = sl;
  ++e;
  m(e, al1) = c.link1_inertia_kgm2, m(e, Ax) = h1 * c1, m(e, Bx) = -h1 * c1, m(e, By) = h1 * s1;
  r(e) = -h1 * s1 * t1 / 2;
  if (locked) m(e, lam) = h1 * s1 * sl;
  ++e;
  // link 2 (bucket) and link 3 (pulley)
  m(e, aG2x) = m2, m(e, Bx) = 1, m(e, Fx) = -1, ++e;
  m(e, aG2y) = m2, m(e, By) = 1, m(e, Cy) = -1, r(e) = m2 * g, ++e;
  m(e, al2) = c.link2_inertia_kgm2, m(e, By) = h2 * s2, m(e, Bx) = h2 * c2, m(e, Cy) = h2 * s2;
  m(e, Fx) = h2 * c2, ++e;
  m(e, aC) = m3, m(e, Cy) = 2, r(e) = m3 * g - t2 - lift;
  if (locked) m(e, lam) = -stop_sign;
  ++e;
  // eqs 2.4-2.5 and link 2's centre of gravity; eqs 2.6-2.7
  m(e, aG1x) = 1, m(e, al1) = -h1 * c1, r(e) = -h1 * s1 * w1s, ++e;
  m(e, aG1y) = 1, m(e, aA) = -1, m(e, al1) = h1 * s1, r(e) = -h1 * c1 * w1s, ++e;
  m(e, aG2x) = 1, m(e, al2) = -h2 * c2, r(e) = -h2 * s2 * w2s, ++e;
  m(e, aG2y) = 1, m(e, aC) = -1, m(e, al2) = -h2 * s2, r(e) = h2 * c2 * w2s, ++e;
  m(e, al1) = l1 * c1, m(e, al2) = -l2 * c2, r(e) = l1 * s1 * w1s - l2 * s2 * w2s, ++e;
  m(e, aA) = 1, m(e, al1) = -l1 * s1, m(e, aC) = -1, m(e, al2) = -l2 * s2;
  r(e) = l1 * c1 * w1s + l2 * c2 * w2s, ++e;
  if (locked) m(e, aA) = 1, m(e, aC) = -1, ++e;
  const Eigen::VectorXd u = m.fullPivLu().solve(r);
  return {u(aA), u(aC), locked ? u(lam) : 0.0};
}

TEST(ClamSolver, ReproducesTheFullTable22SystemOverTheWholeRange) {
  // Every opening, both directions of motion, slack to overloaded ropes, a lift from the
  // world, with and without a held load, free and against either stop.
  const ClamParams c = params();
  const double th_open = c.theta2_open_rad, th_closed = c.theta2_closed_rad;
  int cases = 0;
  for (int i = 0; i <= 20; ++i) {
    const double th = th_open + (th_closed - th_open) * i / 20.0;
    for (const double s_dot : {-0.8, 0.0, 0.35}) {
      const ClamKinematics k = clam_kinematics(c, 2.0, 2.0 + clam_distance_at(c, th), 0.1,
                                               0.1 + s_dot);
      for (const auto& [t1, t2] : {std::pair{0.0, 0.0}, {4000.0, 500.0}, {300.0, 9000.0},
                                   {60000.0, 2.0e5}}) {
        for (const double lift : {0.0, 2500.0}) {
          SCOPED_TRACE(::testing::Message() << "theta2 " << th << " s_dot " << s_dot << " T1 "
                                            << t1 << " T2 " << t2 << " lift " << lift);
          const Table22 f = table22_system(c, k, t1, t2, 0.0, 0.0, lift, false);
          const ClamSolution free = clam_free(c, k, t1, t2, g, lift);
          ASSERT_TRUE(free.ok);
          const double tol = 1e-9 * (1.0 + std::fabs(f.aA) + std::fabs(f.aC));
          if (getenv("DBG")) printf("%g %g %g %g | %.3e %.3e\n", th, s_dot, t1, t2, free.aA - f.aA, free.aC - f.aC);
          EXPECT_NEAR(free.aA, f.aA, tol);
          EXPECT_NEAR(free.aC, f.aC, tol);
          for (const double load : {0.0, 1200.0}) {
            for (const double sign : {1.0, -1.0}) {
              const Table22 l = table22_system(c, k, t1, t2, load, sign, lift, true);
              const ClamSolution locked = clam_locked(c, k, t1, t2, g, load, sign, lift);
              ASSERT_TRUE(locked.ok);
              EXPECT_NEAR(locked.aA, l.aA, 1e-9 * (1.0 + std::fabs(l.aA)));
              EXPECT_NEAR(locked.aC, l.aA, 1e-9 * (1.0 + std::fabs(l.aA)));
              EXPECT_NEAR(locked.stop_force_N, l.stop_force_N,
                          1e-9 * (1.0 + std::fabs(l.stop_force_N)));
              ++cases;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 21 * 3 * 4 * 2 * 4);
}

TEST(ClamKinematics, BothHalvesOfTheLinkageMeetAtB) {
  const ClamParams c = params();
  for (double th = 20; th <= 65; th += 5) {
    const ClamKinematics k = clam_kinematics(c, 1.0, 1.0 + clam_distance_at(c, testing::deg(th)),
                                             0.3, -0.2);
    EXPECT_NEAR(k.theta2(), testing::deg(th), 1e-9);
    // x of B from A and from C (eq 2.7's position form), y of B (eq 2.6's).
    EXPECT_NEAR(c.link1_length_m * std::sin(k.theta1()), c.link2_length_m * std::sin(k.theta2()), 1e-12);
    EXPECT_NEAR(c.link1_length_m * std::cos(k.theta1()) + c.link2_length_m * std::cos(k.theta2()), k.s,
                1e-12);
    // velocity form: l1 cos th1 w1 = l2 cos th2 w2, and s_dot consistent
    EXPECT_NEAR(c.link1_length_m * std::cos(k.theta1()) * k.omega1,
                c.link2_length_m * std::cos(k.theta2()) * k.omega2, 1e-12);
    EXPECT_NEAR(-c.link1_length_m * std::sin(k.theta1()) * k.omega1 -
                    c.link2_length_m * std::sin(k.theta2()) * k.omega2,
                k.s_dot, 1e-12);
  }
}

TEST(ClamFree, StaticTensionsEqualVirtualWork) {
  // At rest, T1 = dV/dyA and T2 = dV/dyC (y down: the ropes hold the weight). Feeding those
  // tensions into the 13-equation system must give zero accelerations.
  const ClamParams c = params();
  for (double th = 25; th <= 60; th += 5) {
    const double s = clam_distance_at(c, testing::deg(th)), h = 1e-6;
    const double t1 = -(potential(c, h, s) - potential(c, -h, s)) / (2 * h);
    const double t2 = -(potential(c, 0, s + h) - potential(c, 0, s - h)) / (2 * h);
    EXPECT_NEAR(t1 + t2, clam_mass(c, 0) * g, 1e-3) << "the ropes carry the whole weight";
    const ClamSolution sol = clam_free(c, at_rest(c, testing::deg(th)), t1, t2, g);
    ASSERT_TRUE(sol.ok);
    EXPECT_NEAR(sol.aA, 0.0, 1e-5) << th << " deg";
    EXPECT_NEAR(sol.aC, 0.0, 1e-5) << th << " deg";
  }
}

TEST(ClamFree, ReleasingCableTwoOpensAndReleasingCableOneCloses) {
  const ClamParams c = params();
  const ClamKinematics k = at_rest(c, testing::deg(40));
  const double w = clam_mass(c, 0) * g;
  const ClamSolution hang_on_a = clam_free(c, k, w, 0.0, g);
  EXPECT_GT(hang_on_a.aC - hang_on_a.aA, 0.0) << "C drops away from A: the clam opens";
  const ClamSolution hang_on_c = clam_free(c, k, 0.0, w, g);
  EXPECT_LT(hang_on_c.aC - hang_on_c.aA, 0.0) << "A drops towards C: the clam closes";
  const ClamSolution free_fall = clam_free(c, k, 0.0, 0.0, g);
  EXPECT_NEAR(free_fall.aA, g, 1e-9);
  EXPECT_NEAR(free_fall.aC, g, 1e-9);
}

TEST(ClamLocked, OneRopeGivesEquation28) {
  // Eq 2.8: a = -(T - (m1 + m2 + m3 + ml) g) / (m1 + m2 + m3 + ml), whichever point carries.
  const ClamParams c = params();
  const double load = 1200.0, m = clam_mass(c, load), t = 0.7 * m * g;
  const ClamKinematics closed = at_rest(c, c.theta2_closed_rad);
  const ClamSolution on_c = clam_locked(c, closed, 0.0, t, g, load, +1.0);
  EXPECT_NEAR(on_c.aA, -(t - m * g) / m, 1e-9);
  EXPECT_NEAR(on_c.aC, on_c.aA, 1e-12);
  EXPECT_GT(on_c.stop_force_N, 0.0) << "hanging on the closing rope presses the stop";
  const ClamKinematics open = at_rest(c, c.theta2_open_rad);
  const ClamSolution on_a = clam_locked(c, open, t, 0.0, g, 0.0, -1.0);
  EXPECT_NEAR(on_a.aA, -(t - clam_mass(c, 0) * g) / clam_mass(c, 0), 1e-9);
  EXPECT_GT(on_a.stop_force_N, 0.0) << "hanging on the holding rope presses the open stop";
}

TEST(ClamLocked, StopForceVanishesAtTheFreeEquilibriumSplit) {
  const ClamParams c = params();
  const ClamKinematics k = at_rest(c, c.theta2_closed_rad);
  const double s = k.s, h = 1e-6;
  const double t1 = -(potential(c, h, s) - potential(c, -h, s)) / (2 * h);
  const double t2 = -(potential(c, 0, s + h) - potential(c, 0, s - h)) / (2 * h);
  const ClamSolution sol = clam_locked(c, k, t1, t2, g, 0.0, +1.0);
  EXPECT_NEAR(sol.stop_force_N, 0.0, 1e-3);
  // More weight on cable 1 pulls the links off the closed stop (negative reaction).
  EXPECT_LT(clam_locked(c, k, t1 + 500, t2 - 500, g, 0.0, +1.0).stop_force_N, 0.0);
}

TEST(ClamImpact, Equation29ConservesVerticalMomentum) {
  const ClamParams c = params();
  const double s = clam_distance_at(c, testing::deg(64.9));
  const ClamKinematics k = clam_kinematics(c, 0.0, s, 0.4, -0.3);  // closing fast
  const double v = clam_inelastic_velocity(c, k, 0.4, -0.3, 0.0);
  // Momentum before from the links' CoG speeds, computed from energy-consistent kinematics.
  const double v1 = 0.4 - 0.5 * c.link1_length_m * std::sin(k.theta1()) * k.omega1;
  const double v2 = -0.3 + 0.5 * c.link2_length_m * std::sin(k.theta2()) * k.omega2;
  const double p = 2 * c.link1_mass_kg * v1 + 2 * c.link2_mass_kg * v2 + c.link3_mass_kg * -0.3;
  EXPECT_NEAR(v * clam_mass(c, 0), p, 1e-9);
  EXPECT_GT(v, -0.3);
  EXPECT_LT(v, 0.4);
  // With a load at rest joining in, the common speed is lower (eq 2.9's m_l).
  EXPECT_NEAR(clam_inelastic_velocity(c, k, 0.4, -0.3, 500.0), p / clam_mass(c, 500.0), 1e-12);
}

TEST(ClamJaws, GapClosesAndTheStopForcesLeverFollowsTheLinkage) {
  const ClamParams c = params();
  EXPECT_NEAR(clam_jaw_gap(c, c.theta2_closed_rad), 0.0, 1e-12);
  EXPECT_GT(clam_jaw_gap(c, c.theta2_open_rad), 1.0);
  for (double deg : {25.0, 40.0, 50.0, 60.0}) {
    const double th = testing::deg(deg), h = 1e-7;
    const ClamKinematics k = at_rest(c, th);
    const double ds = clam_distance_at(c, th + h) - clam_distance_at(c, th - h);
    EXPECT_NEAR(clam_ds_dtheta2(c, k), std::fabs(ds / (2 * h)), 1e-6) << deg << " deg";
  }
}

}  // namespace
}  // namespace clamsim::core
