#include "core/crane.h"

#include <cmath>

namespace clamsim::core {

namespace {

Mat4 dh(double theta, double d, double a, double alpha) {
  const double ct = std::cos(theta), st = std::sin(theta);
  const double ca = std::cos(alpha), sa = std::sin(alpha);
  Mat4 m;
  m << ct, -st * ca, st * sa, a * ct,
       st, ct * ca, -ct * sa, a * st,
       0.0, sa, ca, d,
       0.0, 0.0, 0.0, 1.0;
  return m;
}

// W_j = T_{j-1} Q_j T_{j-1}^-1: dT_p/dq_j = W_j T_p for j <= p. Q_j differentiates a
// rotation about (revolute) or translation along (prismatic) the z axis of frame j-1.
std::array<Mat4, 3> joint_twists(const std::array<Mat4, 3>& t) {
  Mat4 qr = Mat4::Zero();
  qr(0, 1) = -1.0;
  qr(1, 0) = 1.0;
  Mat4 qp = Mat4::Zero();
  qp(2, 3) = 1.0;
  const Mat4 t0 = Mat4::Identity();
  const Mat4* prev[3] = {&t0, &t[0], &t[1]};
  std::array<Mat4, 3> w;
  for (int j = 0; j < 3; ++j) {
    const Mat4& tp = *prev[j];
    Mat4 inv = Mat4::Identity();  // rigid transform inverse: [R^T, -R^T p]
    inv.topLeftCorner<3, 3>() = tp.topLeftCorner<3, 3>().transpose();
    inv.topRightCorner<3, 1>() = -inv.topLeftCorner<3, 3>() * tp.topRightCorner<3, 1>();
    w[j] = tp * (j == 2 ? qp : qr) * inv;
  }
  return w;
}

// Trace(A B^T) = sum of element-wise products.
double trace_abt(const Mat4& a, const Mat4& b) { return a.cwiseProduct(b).sum(); }

Eigen::Vector4d com_homogeneous(const LinkParams& l) {
  return Eigen::Vector4d(l.com_m[0], l.com_m[1], l.com_m[2], 1.0);
}

}  // namespace

JointTrig joint_trig(const Vec3& q) {
  JointTrig t;
  t.c1 = std::cos(q(0));
  t.s1 = std::sin(q(0));
  t.c2 = std::cos(q(1));
  t.s2 = std::sin(q(1));
  return t;
}

std::array<Mat4, 3> dh_link_transforms(const CraneParams& c, const Vec3& q) {
  // Table 2.7: link 1 (theta1, d1, -a1, 90 deg), link 2 (theta2, 0, 0, 90 deg), link 3 (0, d3, 0, 0).
  return {dh(q(0), c.d1_m, -c.a1_m, kHalfPi), dh(q(1), 0.0, 0.0, kHalfPi), dh(0.0, q(2), 0.0, 0.0)};
}

std::array<Mat4, 3> dh_base_transforms(const CraneParams& c, const Vec3& q) {
  return dh_base_transforms(c, q, joint_trig(q));
}

std::array<Mat4, 3> dh_base_transforms(const CraneParams& c, const Vec3& q, const JointTrig& t) {
  // dh() with alpha = 90 deg (cos 0, sin 1) for links 1 and 2; link 3 a pure shift by d3
  Mat4 a1, a2;
  a1 << t.c1, 0.0, t.s1, -c.a1_m * t.c1,
        t.s1, 0.0, -t.c1, -c.a1_m * t.s1,
        0.0, 1.0, 0.0, c.d1_m,
        0.0, 0.0, 0.0, 1.0;
  a2 << t.c2, 0.0, t.s2, 0.0,
        t.s2, 0.0, -t.c2, 0.0,
        0.0, 1.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 1.0;
  std::array<Mat4, 3> b;
  b[0] = a1;
  b[1] = a1 * a2;
  b[2] = b[1];
  b[2].col(3) += q(2) * b[1].col(2);  // T_3 = T_2 A_3, A_3 = translation d3 along z
  return b;
}

Mat4 pseudo_inertia(const LinkParams& l) {
  // J = integral of r r^T dm in homogeneous coordinates. About the CoG the second-moment
  // matrix is S_c = tr(I)/2 * 1 - I; shifting to the frame origin adds m r r^T (eq 2.14).
  const Vec3 r(l.com_m[0], l.com_m[1], l.com_m[2]);
  const Vec3 inertia(l.inertia_kgm2[0], l.inertia_kgm2[1], l.inertia_kgm2[2]);
  Mat3 s = Mat3::Identity() * (0.5 * inertia.sum());
  s.diagonal() -= inertia;
  s += l.mass_kg * r * r.transpose();
  Mat4 j = Mat4::Zero();
  j.topLeftCorner<3, 3>() = s;
  j.topRightCorner<3, 1>() = l.mass_kg * r;
  j.bottomLeftCorner<1, 3>() = l.mass_kg * r.transpose();
  j(3, 3) = l.mass_kg;
  return j;
}

CraneInertia crane_inertia(const CraneParams& c) {
  CraneInertia in;
  for (int p = 0; p < 3; ++p) {
    in.pseudo[p] = pseudo_inertia(c.links[p]);
    in.mass_com[p] = c.links[p].mass_kg * com_homogeneous(c.links[p]);
  }
  return in;
}

CraneDynamics crane_dynamics(const CraneParams& c, const Vec3& q, const Vec3& qd,
                             double carried_mass_kg) {
  return crane_dynamics(c, crane_inertia(c), q, joint_trig(q), qd, carried_mass_kg);
}

CraneDynamics crane_dynamics(const CraneParams& c, const CraneInertia& inertia, const Vec3& q,
                             const JointTrig& trig, const Vec3& qd, double carried_mass_kg) {
  const auto t = dh_base_transforms(c, q, trig);
  const auto w = joint_twists(t);

  // Eq 2.13 rearranged without changing its value: with dT_p/dq_j = W_j T_p and
  // K_p = T_p J_p T_p^T, D_ij = sum_{p>=max(i,j)} Tr(W_j K_p W_i^T); the Coriolis sum
  // sum_jk D_ijk qd_j qd_k = sum_{p>=i} Tr(B_p K_p W_i^T) with
  // B_p = sum_{j,k<=p} W_min(j,k) W_max(j,k) qd_j qd_k; D_i = -g^T W_i sum_{p>=i} m_p T_p r_p.
  std::array<Mat4, 3> k;
  for (int p = 0; p < 3; ++p) k[p] = t[p] * inertia.pseudo[p] * t[p].transpose();
  std::array<Mat4, 3> k_tail;  // sum_{p>=m} K_p
  k_tail[2] = k[2];
  k_tail[1] = k[1] + k_tail[2];
  k_tail[0] = k[0] + k_tail[1];

  std::array<Mat4, 3> b;
  Mat4 acc = Mat4::Zero();
  for (int p = 0; p < 3; ++p) {
    // Adding joint p to B_{p-1}: W_p^2 qd_p^2 + 2 sum_{j<p} W_j W_p qd_j qd_p.
    Mat4 cross = w[p] * qd(p);
    for (int j = 0; j < p; ++j) cross += 2.0 * w[j] * qd(j);
    acc += cross * w[p] * qd(p);
    b[p] = acc;
  }
  std::array<Mat4, 3> bk_tail;  // sum_{p>=m} B_p K_p
  bk_tail[2] = b[2] * k[2];
  bk_tail[1] = b[1] * k[1] + bk_tail[2];
  bk_tail[0] = b[0] * k[0] + bk_tail[1];

  Eigen::Vector4d mr_tail = Eigen::Vector4d::Zero();  // sum_{p>=m} m_p T_p r_p, built backwards
  std::array<Eigen::Vector4d, 3> mr;
  for (int p = 2; p >= 0; --p) {
    mr_tail += t[p] * inertia.mass_com[p];
    mr[p] = mr_tail;
  }
  const Eigen::Vector4d g(0.0, 0.0, -c.gravity_m_per_s2, 0.0);

  CraneDynamics d;
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) {
      d.mass(i, j) = trace_abt(w[j] * k_tail[j], w[i]);
      d.mass(j, i) = d.mass(i, j);
    }
    d.velocity(i) = trace_abt(bk_tail[i], w[i]);
    d.gravity(i) = -g.dot(w[i] * mr[i]);
  }

  // The clam moves horizontally with the tip: kinetic energy M/2 (rho_dot^2 + rho^2 w1^2)
  // with rho = d3 sin(theta2) - a1 the tip's horizontal radius.
  if (carried_mass_kg > 0.0) {
    const double m = carried_mass_kg;
    const double s2 = trig.s2, c2 = trig.c2, d3 = q(2);
    const double rho = d3 * s2 - c.a1_m;
    const double r2 = d3 * c2, r3 = s2;                       // d rho / d(theta2, d3)
    const double rho_dot = r2 * qd(1) + r3 * qd(2);
    const double rho_quad = -d3 * s2 * qd(1) * qd(1) + 2.0 * c2 * qd(1) * qd(2);
    d.mass(0, 0) += m * rho * rho;
    d.mass(1, 1) += m * r2 * r2;
    d.mass(2, 2) += m * r3 * r3;
    d.mass(1, 2) += m * r2 * r3;
    d.mass(2, 1) += m * r2 * r3;
    d.velocity(0) += 2.0 * m * rho * rho_dot * qd(0);
    const double radial = m * (rho_quad - rho * qd(0) * qd(0));
    d.velocity(1) += radial * r2;
    d.velocity(2) += radial * r3;
  }
  return d;
}

Vec3 tip_position(const CraneParams& c, const Vec3& q, const JointTrig& t) {
  const double rho = q(2) * t.s2 - c.a1_m;
  return Vec3(rho * t.c1, rho * t.s1, c.d1_m - q(2) * t.c2);
}

Vec3 tip_position(const CraneParams& c, const Vec3& q) { return tip_position(c, q, joint_trig(q)); }

Vec3 tip_height_gradient(const Vec3& q, const JointTrig& t) {
  return Vec3(0.0, q(2) * t.s2, -t.c2);
}

Eigen::Matrix<double, 2, 3> tip_horizontal_jacobian(const CraneParams& c, const Vec3& q,
                                                    const JointTrig& t) {
  const double rho = q(2) * t.s2 - c.a1_m;
  Eigen::Matrix<double, 2, 3> j;
  j << -rho * t.s1, q(2) * t.c2 * t.c1, t.s2 * t.c1,
        rho * t.c1, q(2) * t.c2 * t.s1, t.s2 * t.s1;
  return j;
}

Eigen::Matrix<double, 2, 3> tip_horizontal_jacobian(const CraneParams& c, const Vec3& q) {
  return tip_horizontal_jacobian(c, q, joint_trig(q));
}

double boom_cylinder_length(const BoomGeometry& g, double boom_angle_rad) {
  // eq 2.17 with Fig. 2.8's theta = -boom angle
  const double psi = g.delta_rad - boom_angle_rad;
  return std::sqrt(g.lp_m * g.lp_m + g.lr_m * g.lr_m + 2.0 * g.lp_m * g.lr_m * std::cos(psi));
}

double boom_cylinder_lever(const BoomGeometry& g, double boom_angle_rad) {
  // eq 2.19: dX/dtheta; the sign flips with Fig. 2.8's angle convention
  const double psi = g.delta_rad - boom_angle_rad;
  return g.lp_m * g.lr_m * std::sin(psi) / boom_cylinder_length(g, boom_angle_rad);
}

double crane_kinetic_energy(const CraneParams& c, const Vec3& q, const Vec3& qd,
                            double carried_mass_kg) {
  return 0.5 * qd.dot(crane_dynamics(c, q, qd, carried_mass_kg).mass * qd);
}

double crane_potential_energy(const CraneParams& c, const Vec3& q) {
  const auto t = dh_base_transforms(c, q);
  double v = 0.0;
  for (int p = 0; p < 3; ++p)
    v += c.links[p].mass_kg * c.gravity_m_per_s2 * (t[p] * com_homogeneous(c.links[p]))(2);
  return v;
}

}  // namespace clamsim::core
