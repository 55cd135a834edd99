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

CraneInertia crane_inertia(const CraneParams& c) {
  CraneInertia in;
  // Frame 1's y axis is the swing axis and its origin sits a1 behind it (Table 2.7), so
  // the cab's CoG runs on a circle of radius^2 (a1 - r_x)^2 + r_z^2.
  const LinkParams& cab = c.links[0];
  const double rx = c.a1_m - cab.com_m[0], rz = cab.com_m[2];
  in.cab_swing_kgm2 = cab.inertia_kgm2[1] + cab.mass_kg * (rx * rx + rz * rz);
  for (int p = 0; p < 2; ++p) {
    const LinkParams& l = c.links[p + 1];
    in.arm[p].mass_kg = l.mass_kg;
    in.arm[p].com_m = Vec3(l.com_m[0], l.com_m[1], l.com_m[2]);
    in.arm[p].inertia_kgm2 = Vec3(l.inertia_kgm2[0], l.inertia_kgm2[1], l.inertia_kgm2[2]);
  }
  return in;
}

namespace {

// Velocity Jacobians of the boom's links in frame 2's axes, columns (theta1, theta2, d3),
// and their derivatives by theta2 and d3 (nothing depends on theta1). In frame 2's axes
// the swing axis is (s2, 0, -c2) and the boom pivot's axis (0, 1, 0), so the angular
// velocity is w = (s2 qd1, qd2, -c2 qd1). The frame-2 origin (the pivot) moves at
// a1 qd1 along the pivot axis; frame 3's origin (the tip, d3 out along z) adds
// d3' z + w x (0, 0, d3).
struct ArmJacobians {
  Mat3 w, w_t;                  // angular velocity, and d/dtheta2 (d/dd3 = 0)
  std::array<Mat3, 2> o, o_t, o_d;  // origin velocity of frames 2 and 3, d/dtheta2, d/dd3
};

ArmJacobians arm_jacobians(const CraneParams& c, const Vec3& q, const JointTrig& t) {
  const double d3 = q(2);
  ArmJacobians j;
  j.w << t.s2, 0.0, 0.0,  0.0, 1.0, 0.0,  -t.c2, 0.0, 0.0;
  j.w_t << t.c2, 0.0, 0.0,  0.0, 0.0, 0.0,  t.s2, 0.0, 0.0;
  j.o[0] << 0.0, 0.0, 0.0,  c.a1_m, 0.0, 0.0,  0.0, 0.0, 0.0;
  j.o_t[0].setZero();
  j.o_d[0].setZero();
  j.o[1] << 0.0, d3, 0.0,  c.a1_m - d3 * t.s2, 0.0, 0.0,  0.0, 0.0, 1.0;
  j.o_t[1] << 0.0, 0.0, 0.0,  -d3 * t.c2, 0.0, 0.0,  0.0, 0.0, 0.0;
  j.o_d[1] << 0.0, 1.0, 0.0,  -t.s2, 0.0, 0.0,  0.0, 0.0, 0.0;
  return j;
}

Mat3 skew(const Vec3& r) {
  Mat3 s;
  s << 0.0, -r.z(), r.y(),  r.z(), 0.0, -r.x(),  -r.y(), r.x(), 0.0;
  return s;
}

}  // namespace

CraneDynamics crane_dynamics(const CraneParams& c, const Vec3& q, const Vec3& qd,
                             double carried_mass_kg) {
  return crane_dynamics(c, crane_inertia(c), q, joint_trig(q), qd, carried_mass_kg);
}

CraneDynamics crane_dynamics(const CraneParams& c, const CraneInertia& inertia, const Vec3& q,
                             const JointTrig& trig, const Vec3& qd, double carried_mass_kg) {
  // Eq 2.12 from the kinetic energy T = 1/2 qd^T M qd in closed form (the same value as
  // eq 2.13's trace form, tested): each link's CoG velocity v = J_v qd with
  // J_v = J_o - [r]x J_w, so M = sum m J_v^T J_v + J_w^T I J_w; the velocity terms are
  // h = dM/dt qd - 1/2 d(qd^T M qd)/dq with dM/dt = M_theta2 qd2 + M_d3 qd3.
  const ArmJacobians j = arm_jacobians(c, q, trig);
  const Vec3 w = j.w * qd, w_t = j.w_t * qd;
  CraneDynamics d;
  d.mass.setZero();
  d.mass(0, 0) = inertia.cab_swing_kgm2;
  Vec3 m_t_qd = Vec3::Zero(), m_d_qd = Vec3::Zero();  // M_theta2 qd, M_d3 qd
  double quad_t = 0.0, quad_d = 0.0;                   // qd^T M_theta2 qd, qd^T M_d3 qd
  for (int p = 0; p < 2; ++p) {
    const CraneInertia::ArmLink& l = inertia.arm[p];
    const Mat3 rx = skew(l.com_m);
    const Mat3 jv = j.o[p] - rx * j.w;
    const Mat3 jv_t = j.o_t[p] - rx * j.w_t;
    const Mat3& jv_d = j.o_d[p];  // J_w does not depend on d3
    const Vec3 v = jv * qd, v_t = jv_t * qd, v_d = jv_d * qd;
    const Vec3 iw = l.inertia_kgm2.cwiseProduct(w);
    d.mass += l.mass_kg * jv.transpose() * jv +
              j.w.transpose() * l.inertia_kgm2.asDiagonal() * j.w;
    m_t_qd += l.mass_kg * (jv_t.transpose() * v + jv.transpose() * v_t) +
              j.w_t.transpose() * iw + j.w.transpose() * l.inertia_kgm2.cwiseProduct(w_t);
    m_d_qd += l.mass_kg * (jv_d.transpose() * v + jv.transpose() * v_d);
    quad_t += 2.0 * (l.mass_kg * v_t.dot(v) + w_t.dot(iw));
    quad_d += 2.0 * l.mass_kg * v_d.dot(v);
  }
  d.velocity = m_t_qd * qd(1) + m_d_qd * qd(2) - 0.5 * Vec3(0.0, quad_t, quad_d);

  // Potential V = g sum m z_CoG with frame 2's z row (s2, 0, -c2) and the tip d3 out:
  // z_2 = d1 + s2 r_x - c2 r_z, z_3 = d1 - d3 c2 + s2 r_x - c2 r_z; D_i = dV/dq_i.
  const double g = c.gravity_m_per_s2;
  d.gravity.setZero();
  for (int p = 0; p < 2; ++p) {
    const CraneInertia::ArmLink& l = inertia.arm[p];
    d.gravity(1) += g * l.mass_kg * (trig.c2 * l.com_m.x() + trig.s2 * l.com_m.z());
  }
  d.gravity(1) += g * inertia.arm[1].mass_kg * q(2) * trig.s2;
  d.gravity(2) = -g * inertia.arm[1].mass_kg * trig.c2;

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
