#include "core/clam.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace clamsim::core {

namespace {

// Eqs 2.1-2.7 (Table 2.2's 13 unknowns) reduced by hand to the mechanism's two degrees of
// freedom. The 13 x 13 LU this replaces was a third of a session's CPU. The reduction is
// exact elimination, not a new model; tests/core/clam_test.cc solves the full system as
// published and compares.
//  - The two closure rows (B reached from A and from C, eqs 2.6-2.7) give the links'
//    angular accelerations from aC - aA.
//  - The four centre-of-gravity rows (eqs 2.4-2.5) then give every CoG acceleration.
//  - Of the seven Newton-Euler rows, five give the pin forces Ax, By, Cy, Fx and Bx.
//  - The two left over are the equations of motion. Bx is eliminated between links 1 and 2
//    by combining their moment rows, which needs no division.
// Every row is linear in (aA, aC, lambda), so their matrix is read off by evaluating the
// residuals at unit vectors.
struct ClamRows {
  const ClamParams& c;
  const ClamKinematics& k;
  double t1, t2, g, m2, stop_sign, lift;
  double s1, c1, s2, c2, w1s, w2s;
  // 1 / the closure rows' determinant, -l1 l2 sin(th1 + th2) (never 0): the same for every
  // evaluation, so the three evaluations a solve takes share one division
  double inv_det;

  // Residuals of the two equations of motion for accelerations aA, aC and stop force lam.
  Eigen::Vector2d operator()(double aA, double aC, double lam) const {
    const double l1 = c.link1_length_m, l2 = c.link2_length_m;
    const double h1 = 0.5 * l1, h2 = 0.5 * l2;
    const double m1 = c.link1_mass_kg, m3 = c.link3_mass_kg;
    const double sl = 0.5 * stop_sign;  // half the stop force acts on each link 1 at A
    // closure (eqs 2.6-2.7): l1 c1 al1 - l2 c2 al2 = r1, -l1 s1 al1 - l2 s2 al2 = r2
    const double r1 = l1 * s1 * w1s - l2 * s2 * w2s;
    const double r2 = l1 * c1 * w1s + l2 * c2 * w2s - aA + aC;
    const double al1 = (r1 * -l2 * s2 - -l2 * c2 * r2) * inv_det;
    const double al2 = (l1 * c1 * r2 - -l1 * s1 * r1) * inv_det;
    // centres of gravity (eqs 2.4-2.5 and link 2's)
    const double aG1x = h1 * c1 * al1 - h1 * s1 * w1s;
    const double aG1y = aA - h1 * s1 * al1 - h1 * c1 * w1s;
    const double aG2x = h2 * c2 * al2 - h2 * s2 * w2s;
    const double aG2y = aC + h2 * s2 * al2 + h2 * c2 * w2s;
    // pin forces from links 1 and 2's vertical rows; Ax = m1 aG1x - Bx, Fx = m2 aG2x + Bx
    // T1 / 2 on each link 1 at A, not eq 2.3's (T1 - T2) / 2: cable 2 reeves once round the
    // pulley at C (link 3) and pulls nowhere else (docs/model.md, Decisions)
    const double By = m1 * aG1y + sl * lam - m1 * g + 0.5 * t1;
    const double Cy = m2 * aG2y + By - m2 * g;
    // link 3 (pulley): rope T2 up, both buckets' Cy, the stop, the world's lift at C
    const double link3 = m3 * aC + 2.0 * Cy - stop_sign * lam - (m3 * g - t2 - lift);
    // the moment rows less their Bx terms (-2 h1 c1 Bx and +2 h2 c2 Bx), Bx eliminated
    const double q1 = c.link1_inertia_kgm2 * al1 + h1 * c1 * m1 * aG1x + h1 * s1 * By +
                      h1 * s1 * sl * lam + h1 * s1 * 0.5 * t1;
    const double q2 = c.link2_inertia_kgm2 * al2 + h2 * s2 * By + h2 * s2 * Cy +
                      h2 * c2 * m2 * aG2x;
    return {link3, h2 * c2 * q1 + h1 * c1 * q2};
  }
};

// Solves a x = b for 2 x 2 a; false when a is singular (relative to its own scale).
bool solve2(const Eigen::Matrix2d& a, const Eigen::Vector2d& b, Eigen::Vector2d* x) {
  const double det = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
  const double scale = std::fabs(a(0, 0) * a(1, 1)) + std::fabs(a(0, 1) * a(1, 0));
  if (!(std::fabs(det) > 1e-12 * scale)) return false;
  *x = Eigen::Vector2d(a(1, 1) * b(0) - a(0, 1) * b(1), a(0, 0) * b(1) - a(1, 0) * b(0)) / det;
  return x->allFinite();
}

ClamSolution solve_links(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                         double g, double load_kg, double stop_sign, double lift, bool locked) {
  const ClamRows rows{c,
                      k,
                      t1,
                      t2,
                      g,
                      c.link2_mass_kg + 0.5 * load_kg,  // a held load rides in the buckets
                      stop_sign,
                      lift,
                      k.s1,
                      k.c1,
                      k.s2,
                      k.c2,
                      k.omega1 * k.omega1,
                      k.omega2 * k.omega2,
                      -1.0 / (c.link1_length_m * c.link2_length_m * (k.c1 * k.s2 + k.s1 * k.c2))};
  ClamSolution sol;
  const Eigen::Vector2d r0 = rows(0.0, 0.0, 0.0);
  Eigen::Matrix2d a;
  Eigen::Vector2d x;
  if (!locked) {  // unknowns aA, aC
    a << rows(1.0, 0.0, 0.0) - r0, rows(0.0, 1.0, 0.0) - r0;
    sol.ok = solve2(a, -r0, &x);
    sol.aA = x(0);
    sol.aC = x(1);
  } else {  // aA = aC = x0 (no relative motion), stop force x1
    a << rows(1.0, 1.0, 0.0) - r0, rows(0.0, 0.0, 1.0) - r0;
    sol.ok = solve2(a, -r0, &x);
    sol.aA = sol.aC = x(0);
    sol.stop_force_N = x(1);
  }
  if (!sol.ok) sol = ClamSolution{0.0, 0.0, 0.0, false};
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
  // The cosines come straight from the law of cosines, the sines from them (both angles
  // lie in [0, pi]): no trigonometry beyond the two acos for the angles themselves.
  k.c1 = std::clamp((l1 * l1 + s * s - l2 * l2) / (2.0 * l1 * s), -1.0, 1.0);
  k.c2 = std::clamp((l2 * l2 + s * s - l1 * l1) / (2.0 * l2 * s), -1.0, 1.0);
  k.s1 = std::sqrt(1.0 - k.c1 * k.c1);
  k.s2 = std::sqrt(1.0 - k.c2 * k.c2);
  // s_dot = -l1 s1 w1 - l2 s2 w2 with l1 c1 w1 = l2 c2 w2 (B's x agrees on both links).
  k.omega2 = -k.s_dot * k.c1 / (l2 * (k.s1 * k.c2 + k.c1 * k.s2));
  k.omega1 = l2 * k.c2 * k.omega2 / (l1 * k.c1);
  return k;
}

double clam_distance_at(const ClamParams& c, double theta2) {
  const double l1 = c.link1_length_m, l2 = c.link2_length_m;
  const double s1 = l2 * std::sin(theta2) / l1;
  return l1 * std::sqrt(1.0 - s1 * s1) + l2 * std::cos(theta2);
}

ClamSolution clam_free(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                       double g, double lift_N) {
  return solve_links(c, k, t1, t2, g, 0.0, 0.0, lift_N, false);
}

ClamSolution clam_locked(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                         double g, double load_kg, double stop_sign, double lift_N) {
  return solve_links(c, k, t1, t2, g, load_kg, stop_sign, lift_N, true);
}

double clam_inelastic_velocity(const ClamParams& c, const ClamKinematics& k, double vA,
                               double vC, double load_kg) {
  // Vertical CoG speeds: G1 = A + l1/2 (s1, c1), G2 = C + l2/2 (s2, -c2); the load was at rest.
  const double v1 = vA - 0.5 * c.link1_length_m * k.s1 * k.omega1;
  const double v2 = vC + 0.5 * c.link2_length_m * k.s2 * k.omega2;
  const double p = 2.0 * c.link1_mass_kg * v1 + 2.0 * c.link2_mass_kg * v2 + c.link3_mass_kg * vC;
  return p / clam_mass(c, load_kg);
}

double clam_jaw_gap(const ClamParams& c, double theta2) {
  // The lips meet on the axis at the closed limit and part as the bucket turns back.
  return 2.0 * c.lip_length_m * std::sin(std::max(0.0, c.theta2_closed_rad - theta2));
}

double clam_ds_dtheta2(const ClamParams& c, const ClamKinematics& k) {
  // s = l1 cos th1 + l2 cos th2 with l1 sin th1 = l2 sin th2: ds/dth2 = -l2 sin(th1 + th2) / cos th1
  return c.link2_length_m * (k.s1 * k.c2 + k.c1 * k.s2) / k.c1;
}

SwingBody swing_body(const ClamParams& c, double load_kg) {
  const double l1 = c.link1_length_m, l2 = c.link2_length_m;
  const double theta2 = 0.5 * (c.theta2_open_rad + c.theta2_closed_rad);
  const double s2 = std::sin(theta2), c2 = std::cos(theta2);
  const double s1 = l2 * s2 / l1, c1 = std::sqrt(std::max(0.0, 1.0 - s1 * s1));
  const double yb = l1 * c1, s = yb + l2 * c2;   // depths of B and C below A
  const double m1 = c.link1_mass_kg, m2 = c.link2_mass_kg, m3 = c.link3_mass_kg;
  // each part: mass, depth of its centre below A, its centre's distance off the axis
  struct Piece { double m, y, x, j; };
  const Piece parts[4] = {{2.0 * m1, 0.5 * yb, 0.5 * l1 * s1, 2.0 * c.link1_inertia_kgm2},
                         {2.0 * m2, 0.5 * (yb + s), 0.5 * l2 * s2, 2.0 * c.link2_inertia_kgm2},
                         {m3, s, 0.0, 0.0},
                         {load_kg, s + 0.5 * c.lip_length_m, 0.0, 0.0}};
  SwingBody b;
  double first = 0.0;
  for (const Piece& p : parts) {
    b.mass_kg += p.m;
    first += p.m * p.y;
  }
  b.cog_below_a_m = first / b.mass_kg;
  for (const Piece& p : parts) {
    const double dy = p.y - b.cog_below_a_m;
    b.inertia_kgm2 += p.j + p.m * (dy * dy + p.x * p.x);
  }
  return b;
}

double clam_mass(const ClamParams& c, double load_kg) {
  return 2.0 * c.link1_mass_kg + 2.0 * c.link2_mass_kg + c.link3_mass_kg + load_kg;
}

double clam_energy(const ClamParams& c, const ClamKinematics& k, double yA, double yC,
                   double vA, double load_kg, double g) {
  const double l1 = c.link1_length_m, l2 = c.link2_length_m;
  const double s1 = k.s1, c1 = k.c1, s2 = k.s2, c2 = k.c2;
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
