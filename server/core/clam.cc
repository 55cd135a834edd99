#include "core/clam.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace clamsim::core {

namespace {

// Unknowns of Table 2.2 (right half), then the stop force for the locked states.
enum U { Ax, Bx, By, Fx, Cy, aG1x, aG1y, al1, aG2x, aG2y, al2, aA, aC, lam, kCount };

template <int N>
ClamSolution solve_links(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                         double g, double load_kg, double stop_sign, double lift) {
  static_assert(N == 13 || N == 14, "free or locked system");
  using Mat = Eigen::Matrix<double, N, N>;
  using Vec = Eigen::Matrix<double, N, 1>;
  const double l1 = c.link1_length_m, l2 = c.link2_length_m;
  const double m1 = c.link1_mass_kg, m3 = c.link3_mass_kg;
  const double m2 = c.link2_mass_kg + 0.5 * load_kg;  // a held load rides in the buckets
  const double s1 = std::sin(k.theta1), c1 = std::cos(k.theta1);
  const double s2 = std::sin(k.theta2), c2 = std::cos(k.theta2);
  const double w1s = k.omega1 * k.omega1, w2s = k.omega2 * k.omega2;
  const double h1 = 0.5 * l1, h2 = 0.5 * l2;
  const double sl = 0.5 * stop_sign;  // half the stop force acts on each link 1 at A

  Mat m = Mat::Zero();
  Vec r = Vec::Zero();
  int e = 0;
  // Link 1, forces (Ax, -T1/2 - stop/2) at A and (Bx, By) at B; eqs 2.1-2.3.
  m(e, aG1x) = m1; m(e, Ax) = -1; m(e, Bx) = -1; ++e;
  m(e, aG1y) = m1; m(e, By) = -1; r(e) = m1 * g - 0.5 * t1;
  if (N == 14) m(e, lam) = sl;
  ++e;
  m(e, al1) = c.link1_inertia_kgm2; m(e, Ax) = h1 * c1; m(e, Bx) = -h1 * c1; m(e, By) = h1 * s1;
  r(e) = -h1 * s1 * 0.5 * t1;
  if (N == 14) m(e, lam) = h1 * s1 * sl;
  ++e;
  // Link 2 (bucket), forces (-Bx, -By) at B and (Fx, Cy) at C.
  m(e, aG2x) = m2; m(e, Bx) = 1; m(e, Fx) = -1; ++e;
  m(e, aG2y) = m2; m(e, By) = 1; m(e, Cy) = -1; r(e) = m2 * g; ++e;
  m(e, al2) = c.link2_inertia_kgm2; m(e, By) = h2 * s2; m(e, Bx) = h2 * c2; m(e, Cy) = h2 * s2;
  m(e, Fx) = h2 * c2; ++e;
  // Link 3 (pulley, both buckets pull on it), rope T2 up, stop force down; the world's
  // vertical push (contacts under the buckets, buoyancy) enters here, where the buckets hinge.
  m(e, aC) = m3; m(e, Cy) = 2; r(e) = m3 * g - t2 - lift;
  if (N == 14) m(e, lam) = -stop_sign;
  ++e;
  // Kinematics of the centres of gravity, eqs 2.4-2.5 and their link-2 counterparts.
  m(e, aG1x) = 1; m(e, al1) = -h1 * c1; r(e) = -h1 * s1 * w1s; ++e;
  m(e, aG1y) = 1; m(e, aA) = -1; m(e, al1) = h1 * s1; r(e) = -h1 * c1 * w1s; ++e;
  m(e, aG2x) = 1; m(e, al2) = -h2 * c2; r(e) = -h2 * s2 * w2s; ++e;
  m(e, aG2y) = 1; m(e, aC) = -1; m(e, al2) = -h2 * s2; r(e) = h2 * c2 * w2s; ++e;
  // B reached from A and from C must agree, eqs 2.6-2.7.
  m(e, al1) = l1 * c1; m(e, al2) = -l2 * c2; r(e) = l1 * s1 * w1s - l2 * s2 * w2s; ++e;
  m(e, aA) = 1; m(e, al1) = -l1 * s1; m(e, aC) = -1; m(e, al2) = -l2 * s2;
  r(e) = l1 * c1 * w1s + l2 * c2 * w2s; ++e;
  if (N == 14) {  // locked: no relative motion of A and C
    m(e, aA) = 1; m(e, aC) = -1; ++e;
  }

  const Eigen::PartialPivLU<Mat> lu(m);
  const Vec u = lu.solve(r);
  ClamSolution sol;
  sol.aA = u(aA);
  sol.aC = u(aC);
  if (N == 14) sol.stop_force_N = u(N - 1);
  sol.ok = u.allFinite() && std::fabs(lu.determinant()) > 1e-12;
  return sol;
}

}  // namespace

ClamKinematics clam_kinematics(const ClamParams& c, double yA, double yC, double vA, double vC) {
  const double l1 = c.link1_length_m, l2 = c.link2_length_m;
  ClamKinematics k;
  k.s = yC - yA;
  k.s_dot = vC - vA;
  const double lo = std::fabs(l1 - l2) * 1.000001, hi = (l1 + l2) * 0.999999;
  const double s = std::clamp(k.s, lo, hi);  // guards acos; stops keep s well inside
  k.theta1 = std::acos(std::clamp((l1 * l1 + s * s - l2 * l2) / (2.0 * l1 * s), -1.0, 1.0));
  k.theta2 = std::acos(std::clamp((l2 * l2 + s * s - l1 * l1) / (2.0 * l2 * s), -1.0, 1.0));
  // s_dot = -l1 s1 w1 - l2 s2 w2 with l1 c1 w1 = l2 c2 w2 (B's x agrees on both links).
  const double c1 = std::cos(k.theta1);
  k.omega2 = -k.s_dot * c1 / (l2 * std::sin(k.theta1 + k.theta2));
  k.omega1 = l2 * std::cos(k.theta2) * k.omega2 / (l1 * c1);
  return k;
}

double clam_distance_at(const ClamParams& c, double theta2) {
  const double l1 = c.link1_length_m, l2 = c.link2_length_m;
  const double s1 = l2 * std::sin(theta2) / l1;
  return l1 * std::sqrt(1.0 - s1 * s1) + l2 * std::cos(theta2);
}

ClamSolution clam_free(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                       double g, double lift_N) {
  return solve_links<13>(c, k, t1, t2, g, 0.0, 0.0, lift_N);
}

ClamSolution clam_locked(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                         double g, double load_kg, double stop_sign, double lift_N) {
  return solve_links<14>(c, k, t1, t2, g, load_kg, stop_sign, lift_N);
}

double clam_inelastic_velocity(const ClamParams& c, const ClamKinematics& k, double vA,
                               double vC, double load_kg) {
  // Vertical CoG speeds: G1 = A + l1/2 (s1, c1), G2 = C + l2/2 (s2, -c2); the load was at rest.
  const double v1 = vA - 0.5 * c.link1_length_m * std::sin(k.theta1) * k.omega1;
  const double v2 = vC + 0.5 * c.link2_length_m * std::sin(k.theta2) * k.omega2;
  const double p = 2.0 * c.link1_mass_kg * v1 + 2.0 * c.link2_mass_kg * v2 + c.link3_mass_kg * vC;
  return p / clam_mass(c, load_kg);
}

double clam_jaw_gap(const ClamParams& c, double theta2) {
  // The lips meet on the axis at the closed limit and part as the bucket turns back.
  return 2.0 * c.lip_length_m * std::sin(std::max(0.0, c.theta2_closed_rad - theta2));
}

double clam_squeeze_force(const ClamParams& c, const ClamKinematics& k, double stop_force_N) {
  // Virtual work: lambda ds = F dgap. ds/dth2 = -l2 sin(th1 + th2) / cos(th1) (see kinematics),
  // dgap/dth2 = -2 L_lip cos(th_closed - th2).
  const double ds = c.link2_length_m * std::sin(k.theta1 + k.theta2) / std::cos(k.theta1);
  const double dgap = 2.0 * c.lip_length_m * std::cos(c.theta2_closed_rad - k.theta2);
  return stop_force_N * ds / dgap;
}

double clam_mass(const ClamParams& c, double load_kg) {
  return 2.0 * c.link1_mass_kg + 2.0 * c.link2_mass_kg + c.link3_mass_kg + load_kg;
}

double clam_energy(const ClamParams& c, const ClamKinematics& k, double yA, double yC,
                   double vA, double load_kg, double g) {
  const double l1 = c.link1_length_m, l2 = c.link2_length_m;
  const double s1 = std::sin(k.theta1), c1 = std::cos(k.theta1);
  const double s2 = std::sin(k.theta2), c2 = std::cos(k.theta2);
  const double vC = vA + k.s_dot;
  const double v1x = 0.5 * l1 * c1 * k.omega1, v1y = vA - 0.5 * l1 * s1 * k.omega1;
  const double v2x = 0.5 * l2 * c2 * k.omega2, v2y = vC + 0.5 * l2 * s2 * k.omega2;
  const double m1 = c.link1_mass_kg, m2 = c.link2_mass_kg, m3 = c.link3_mass_kg;
  const double kinetic =
      m1 * (v1x * v1x + v1y * v1y) + c.link1_inertia_kgm2 * k.omega1 * k.omega1 +
      m2 * (v2x * v2x + v2y * v2y) + c.link2_inertia_kgm2 * k.omega2 * k.omega2 +
      0.5 * m3 * vC * vC + 0.5 * load_kg * vC * vC;  // both halves: 2 * (1/2) m v^2
  const double y1 = yA + 0.5 * l1 * c1, y2 = yC - 0.5 * l2 * c2;
  const double potential = -g * (2.0 * m1 * y1 + 2.0 * m2 * y2 + m3 * yC + load_kg * yC);
  return kinetic + potential;
}

}  // namespace clamsim::core
