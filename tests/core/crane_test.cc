// The crane's eq 2.12-2.14 implementation against an independent Lagrangian: kinetic and
// potential energy written here from first principles (rigid bodies with their own
// forward kinematics), differentiated numerically.
#include "core/crane.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <random>
#include <utility>
#include <vector>

#include "crane_trace_form.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

// Independent forward kinematics: each link's orientation and origin, built from
// rotations rather than the D-H matrices of the code under test.
struct Pose {
  Eigen::Matrix3d r;
  Eigen::Vector3d o;
};

std::array<Pose, 3> link_poses(const CraneParams& c, const Vec3& q) {
  using Eigen::AngleAxisd;
  const Eigen::Vector3d z = Eigen::Vector3d::UnitZ(), x = Eigen::Vector3d::UnitX();
  // link 1: rotate theta1 about the vertical, then the frame tips 90 deg about its x.
  const Eigen::Matrix3d r1 = (AngleAxisd(q(0), z) * AngleAxisd(M_PI / 2, x)).toRotationMatrix();
  const Eigen::Vector3d o1(-c.a1_m * std::cos(q(0)), -c.a1_m * std::sin(q(0)), c.d1_m);
  const Eigen::Matrix3d r2 = r1 * (AngleAxisd(q(1), z) * AngleAxisd(M_PI / 2, x)).toRotationMatrix();
  const Eigen::Vector3d o3 = o1 + r2 * Eigen::Vector3d(0, 0, q(2));
  return {Pose{r1, o1}, Pose{r2, o1}, Pose{r2, o3}};
}

double kinetic(const CraneParams& c, const Vec3& q, const Vec3& qd, double carried) {
  const double h = 1e-6;
  const auto p0 = link_poses(c, q - 0.5 * h * qd);
  const auto p1 = link_poses(c, q + 0.5 * h * qd);
  double t = 0.0;
  for (int i = 0; i < 3; ++i) {
    const LinkParams& l = c.links[i];
    const Eigen::Vector3d com(l.com_m[0], l.com_m[1], l.com_m[2]);
    const Eigen::Vector3d v = ((p1[i].o + p1[i].r * com) - (p0[i].o + p0[i].r * com)) / h;
    // body angular velocity from dR: skew(w) = R^T dR/dt
    const Eigen::Matrix3d w_hat = p0[i].r.transpose() * (p1[i].r - p0[i].r) / h;
    const Eigen::Vector3d w(w_hat(2, 1), w_hat(0, 2), w_hat(1, 0));
    const Eigen::Vector3d inertia(l.inertia_kgm2[0], l.inertia_kgm2[1], l.inertia_kgm2[2]);
    t += 0.5 * l.mass_kg * v.squaredNorm() + 0.5 * w.dot(inertia.asDiagonal() * w);
  }
  const Eigen::Vector3d tip_v = (p1[2].o - p0[2].o) / h;
  t += 0.5 * carried * tip_v.head<2>().squaredNorm();  // the clam rides horizontally
  return t;
}

double potential(const CraneParams& c, const Vec3& q) {
  const auto p = link_poses(c, q);
  double v = 0.0;
  for (int i = 0; i < 3; ++i) {
    const LinkParams& l = c.links[i];
    v += l.mass_kg * c.gravity_m_per_s2 *
         (p[i].o + p[i].r * Eigen::Vector3d(l.com_m[0], l.com_m[1], l.com_m[2]))(2);
  }
  return v;
}

// M_ij from the quadratic form, exact for a quadratic T up to the velocity difference error.
Mat3 mass_numeric(const CraneParams& c, const Vec3& q, double carried) {
  Mat3 m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3 ei = Vec3::Unit(i), ej = Vec3::Unit(j);
      m(i, j) = kinetic(c, q, ei + ej, carried) - kinetic(c, q, ei, carried) -
                kinetic(c, q, ej, carried);
    }
  return m;
}

// Links with every CoG offset and inertia nonzero, and the pivot's offsets: the shipped
// links have some zero, which would hide a wrong term.
void randomise_links(CraneParams& c, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (LinkParams& l : c.links) {
    for (double& r : l.com_m) r = 4.0 * (u(rng) - 0.5);
    for (double& i : l.inertia_kgm2) i = 100.0 + 5000.0 * u(rng);
    l.mass_kg = 500.0 + 3000.0 * u(rng);
  }
  c.a1_m = 2.0 * (u(rng) - 0.5);
  c.d1_m = 3.0 * u(rng);
}

TEST(CraneDynamics, MatchesNumericalLagrangianAtRandomStates) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 30; ++trial) {
    CraneParams c = testing::shipped_machine().crane;
    if (trial % 3 == 2) randomise_links(c, rng);
    const Vec3 q(2 * M_PI * u(rng), M_PI / 2 + testing::deg(50) * u(rng), 9.7 + 14.7 * u(rng));
    const Vec3 qd(0.4 * (u(rng) - 0.5), 0.2 * (u(rng) - 0.5), 0.5 * (u(rng) - 0.5));
    const double carried = trial % 2 ? 775.0 : 0.0;
    const CraneDynamics d = crane_dynamics(c, q, qd, carried);

    const Mat3 m = mass_numeric(c, q, carried);
    EXPECT_LT((d.mass - m).norm(), 1e-5 * m.norm()) << "trial " << trial;

    // Gravity: dV/dq by central differences.
    const double h = 1e-6;
    Vec3 g;
    for (int i = 0; i < 3; ++i)
      g(i) = (potential(c, q + h * Vec3::Unit(i)) - potential(c, q - h * Vec3::Unit(i))) / (2 * h);
    EXPECT_LT((d.gravity - g).norm(), 1e-5 * (1.0 + g.norm())) << "trial " << trial;

    // Velocity terms: h = dM/dt qd - 1/2 d(qd^T M qd)/dq.
    Mat3 m_dot = Mat3::Zero();
    Vec3 grad;
    const double hq = 1e-5;
    for (int k = 0; k < 3; ++k) {
      const Mat3 mp = mass_numeric(c, q + hq * Vec3::Unit(k), carried);
      const Mat3 mm = mass_numeric(c, q - hq * Vec3::Unit(k), carried);
      m_dot += (mp - mm) / (2 * hq) * qd(k);
      grad(k) = 0.5 * qd.dot((mp - mm) / (2 * hq) * qd);
    }
    const Vec3 vel = m_dot * qd - grad;
    EXPECT_LT((d.velocity - vel).norm(), 1e-3 * (1.0 + vel.norm())) << "trial " << trial;
  }
}

TEST(CraneKinematics, TipFollowsTable27) {
  const CraneParams c = testing::shipped_machine().crane;
  // Level boom (theta2 = 90 deg), swing 0: the tip is d3 - a1 ahead at the pivot height.
  const Vec3 tip = tip_position(c, Vec3(0.0, M_PI / 2, 12.0));
  EXPECT_NEAR(tip(0), 12.0 - c.a1_m, 1e-12);
  EXPECT_NEAR(tip(1), 0.0, 1e-12);
  EXPECT_NEAR(tip(2), c.d1_m, 1e-12);
  const auto t = dh_base_transforms(c, Vec3(0.3, 2.0, 15.0));
  const Vec3 from_dh = t[2].topRightCorner<3, 1>();
  EXPECT_LT((from_dh - tip_position(c, Vec3(0.3, 2.0, 15.0))).norm(), 1e-12);
}

// The closed forms the step uses (shared joint trigonometry, 90 deg twists exact) against
// Table 2.7's general D-H product, 1e-12 relative.
TEST(CraneKinematics, ClosedFormsMatchTheGeneralDenavitHartenbergProduct) {
  const CraneParams c = testing::shipped_machine().crane;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 q(2 * M_PI * u(rng), M_PI / 2 + testing::deg(50) * u(rng), 9.7 + 14.7 * u(rng));
    const Vec3 qd(0.4 * (u(rng) - 0.5), 0.2 * (u(rng) - 0.5), 0.5 * (u(rng) - 0.5));
    const JointTrig t = joint_trig(q);
    const auto a = dh_link_transforms(c, q);
    const Mat4 ref[3] = {a[0], a[0] * a[1], a[0] * a[1] * a[2]};
    const auto fast = dh_base_transforms(c, q, t);
    for (int p = 0; p < 3; ++p)
      EXPECT_LT((fast[p] - ref[p]).norm(), 1e-12 * ref[p].norm()) << "T" << p + 1;
    const Vec3 tip_ref = ref[2].topRightCorner<3, 1>();
    EXPECT_LT((tip_position(c, q, t) - tip_ref).norm(), 1e-12 * tip_ref.norm());
  }
}

// A crane at a random state: the shipped links on even trials, on odd ones links with every
// CoG offset and inertia nonzero (the shipped links have some zero, which would hide a wrong
// term); any swing, the boom's range, any extension, moderate rates.
struct RandomState {
  CraneParams c;
  Vec3 q, qd;
};
RandomState random_state(std::mt19937& rng, int trial) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  RandomState s{testing::shipped_machine().crane, Vec3::Zero(), Vec3::Zero()};
  if (trial % 2) randomise_links(s.c, rng);
  s.q = Vec3(2 * M_PI * u(rng), M_PI / 2 + testing::deg(80) * (u(rng) - 0.3), 9.7 + 14.7 * u(rng));
  s.qd = Vec3(0.6 * (u(rng) - 0.5), 0.4 * (u(rng) - 0.5), 0.8 * (u(rng) - 0.5));
  return s;
}

// The closed form the step uses against eq 2.13's trace form, summed term by term, at
// random states.
TEST(CraneDynamics, ClosedFormMatchesTheTraceFormOfEq213) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 40; ++trial) {
    const auto [c, q, qd] = random_state(rng, trial);
    const CraneDynamics fast = crane_dynamics(c, q, qd, 0.0);
    const CraneDynamics ref = testing::crane_dynamics_trace_form(c, q, qd);
    EXPECT_LT((fast.mass - ref.mass).norm(), 1e-12 * ref.mass.norm()) << "trial " << trial;
    EXPECT_LT((fast.velocity - ref.velocity).norm(), 1e-11 * (1.0 + ref.velocity.norm()))
        << "trial " << trial;
    EXPECT_LT((fast.gravity - ref.gravity).norm(), 1e-12 * (1.0 + ref.gravity.norm()))
        << "trial " << trial;
  }
}

// The written-out LDL^T solve of eq 2.13 against Eigen's pivoting LDLT, and its residual
// M qdd - b, at random states and loads: shipped links, links with every term nonzero, and
// a carried mass on the tip.
TEST(CraneDynamics, JointAccelerationsSolveEq213AsEigensLdltDoes) {
  std::mt19937 rng(2013);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 40; ++trial) {
    const auto [c, q, qd] = random_state(rng, trial);
    const CraneDynamics dyn = crane_dynamics(c, q, qd, 5000.0 * u(rng));
    const Vec3 tau(2e5 * (u(rng) - 0.5), 1e6 * (u(rng) - 0.5), 5e4 * (u(rng) - 0.5));
    const Vec3 b = tau - dyn.velocity - dyn.gravity;
    const Vec3 ours = joint_accelerations(dyn, tau), eigen = dyn.mass.ldlt().solve(b);
    EXPECT_LT((ours - eigen).norm(), 1e-12 * (1.0 + eigen.norm())) << "trial " << trial;
    EXPECT_LT((dyn.mass * ours - b).norm(), 1e-12 * b.norm()) << "trial " << trial;
  }
}

TEST(BoomCylinder, LeverIsTheDerivativeOfLength) {
  const BoomGeometry g = testing::shipped_machine().hydraulics.boom_geometry;
  for (double b = 0.0; b <= 50.0; b += 5.0) {
    const double a = testing::deg(b), h = 1e-6;
    const double numeric = (boom_cylinder_length(g, a + h) - boom_cylinder_length(g, a - h)) / (2 * h);
    EXPECT_NEAR(boom_cylinder_lever(g, a), numeric, 1e-6) << b << " deg";
    EXPECT_GT(boom_cylinder_lever(g, a), 0.0) << "cylinder extends as the boom rises";
  }
}

// The derivative's form (the linkage's constants and the joint's trigonometry, by the
// angle-sum identities) is the same lever as eq 2.19's, over the whole boom range and beyond.
TEST(BoomCylinder, TheLinkageFormIsEquationTwoNineteen) {
  const BoomGeometry g = testing::shipped_machine().hydraulics.boom_geometry;
  const BoomLinkage linkage = boom_linkage(g);
  for (double b = -10.0; b <= 80.0; b += 2.5) {
    const double a = testing::deg(b);
    const JointTrig t = joint_trig(Vec3(0.3, a + kHalfPi, 12.0));
    EXPECT_NEAR(boom_cylinder_lever(linkage, t), boom_cylinder_lever(g, a), 1e-12) << b << " deg";
  }
}

// The cab and its counterweight folded into one link, against the same two bodies integrated
// point by point (each a uniform box cut into 20^3 cells): mass, centre and the moments about
// the common centre, the one about y (the swing's) to 0.3 %, the grid's error.
TEST(Counterweight, FoldedLinkIsTheTwoBodiesIntegrated) {
  const CraneParams& c = testing::shipped_machine().crane;
  const LinkParams& folded = c.links[0];
  const std::array<double, 3> cab_box = {4.0, 1.4, 2.4};   // models/t250.json, swing_cab
  struct Body {
    double mass;
    std::array<double, 3> com, size;
  };
  const Body bodies[] = {{c.cab.mass_kg, c.cab.com_m, cab_box},
                         {c.counterweight.mass_kg, c.counterweight.com_m, c.counterweight.size_m}};
  constexpr int n = 20;
  double mass = 0.0;
  Vec3 first = Vec3::Zero();
  std::vector<std::pair<double, Vec3>> cells;
  for (const Body& b : bodies) {
    const double dm = b.mass / (n * n * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) {
          const Vec3 r(b.com[0] + b.size[0] * ((i + 0.5) / n - 0.5), b.com[1] + b.size[1] * ((j + 0.5) / n - 0.5),
                       b.com[2] + b.size[2] * ((k + 0.5) / n - 0.5));
          cells.push_back({dm, r});
          mass += dm;
          first += dm * r;
        }
  }
  const Vec3 com = first / mass;
  Vec3 moments = Vec3::Zero();
  for (const auto& [dm, r] : cells) {
    const Vec3 d = r - com;
    moments += dm * Vec3(d.y() * d.y() + d.z() * d.z(), d.x() * d.x() + d.z() * d.z(),
                         d.x() * d.x() + d.y() * d.y());
  }
  EXPECT_NEAR(folded.mass_kg, mass, 1e-6);
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(folded.com_m[a], com[a], 1e-9) << "axis " << a;
    EXPECT_NEAR(folded.inertia_kgm2[a], moments[a], 3e-3 * moments[a]) << "axis " << a;
  }
  // the counterweight is what makes the superstructure hard to slew: most of I_yy
  EXPECT_GT(folded.inertia_kgm2[1], 3.0 * c.cab.inertia_kgm2[1]);
  // a counterweight of no mass leaves the cab as it is
  CounterweightParams none = c.counterweight;
  none.mass_kg = 0.0;
  const LinkParams cab = with_counterweight(c.cab, none);
  for (int a = 0; a < 3; ++a) {
    EXPECT_DOUBLE_EQ(cab.com_m[a], c.cab.com_m[a]);
    EXPECT_DOUBLE_EQ(cab.inertia_kgm2[a], c.cab.inertia_kgm2[a]);
  }
}

}  // namespace
}  // namespace clamsim::core
