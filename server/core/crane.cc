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
  sin_cos(q(0), &t.s1, &t.c1);
  sin_cos(q(1), &t.s2, &t.c2);
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

LinkParams with_counterweight(const LinkParams& cab, const CounterweightParams& cw) {
  LinkParams l;
  l.mass_kg = cab.mass_kg + cw.mass_kg;
  for (std::size_t a = 0; a < 3; ++a)
    l.com_m[a] = (cab.mass_kg * cab.com_m[a] + cw.mass_kg * cw.com_m[a]) / l.mass_kg;
  const auto& s = cw.size_m;
  const std::array<double, 3> block = {cw.mass_kg * (s[1] * s[1] + s[2] * s[2]) / 12.0,
                                       cw.mass_kg * (s[0] * s[0] + s[2] * s[2]) / 12.0,
                                       cw.mass_kg * (s[0] * s[0] + s[1] * s[1]) / 12.0};
  // the parallel-axis term about axis a: m times the offset's square off that axis
  const auto moved = [&](double m, const std::array<double, 3>& com, std::size_t a) {
    double off = 0.0;
    for (std::size_t b = 0; b < 3; ++b)
      if (b != a) off += (com[b] - l.com_m[b]) * (com[b] - l.com_m[b]);
    return m * off;
  };
  for (std::size_t a = 0; a < 3; ++a)
    l.inertia_kgm2[a] = cab.inertia_kgm2[a] + moved(cab.mass_kg, cab.com_m, a) + block[a] +
                        moved(cw.mass_kg, cw.com_m, a);
  return l;
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

CraneDynamics crane_dynamics(const CraneParams& c, const Vec3& q, const Vec3& qd,
                             double carried_mass_kg) {
  return crane_dynamics(c, crane_inertia(c), q, joint_trig(q), qd, carried_mass_kg);
}

CraneDynamics crane_dynamics(const CraneParams& c, const CraneInertia& inertia, const Vec3& q,
                             const JointTrig& trig, const Vec3& qd, double carried_mass_kg) {
  // Eq 2.12 from the kinetic energy in closed form (the value of eq 2.13's trace form,
  // tested). In frame 2's axes the swing axis is (s2, 0, -c2), so the boom's angular
  // velocity is w = (s2 qd1, qd2, -c2 qd1). A boom link's CoG r = (rx, ry, rz) (from the
  // pivot for the base, from the tip d3 out for the fly, delta = 0 or 1) moves at
  //   v = (A qd1 + B qd2,  C qd1,  D qd1 - rx qd2 + delta qd3),
  //   A = c2 ry, B = rz + delta d3, C = a1 - delta d3 s2 - c2 rx - s2 rz, D = s2 ry,
  // and T = 1/2 m |v|^2 + 1/2 w^T diag(Ix, Iy, Iz) w gives M below (A^2 + D^2 = ry^2).
  // The velocity terms are h = dM/dt qd - 1/2 d(qd^T M qd)/dq with dM/dt = M_t qd2 + M_d qd3,
  // M_t and M_d the derivatives by theta2 and d3 (nothing depends on theta1).
  const double s2 = trig.s2, c2 = trig.c2, d3 = q(2), a1 = c.a1_m;
  Mat3 m = Mat3::Zero(), m_t = Mat3::Zero(), m_d = Mat3::Zero();
  m(0, 0) = inertia.cab_swing_kgm2;
  for (int p = 0; p < 2; ++p) {
    const CraneInertia::ArmLink& l = inertia.arm[p];
    const double mass = l.mass_kg, delta = p;  // p = 1: the fly, carried out d3 along z
    const double rx = l.com_m.x(), ry = l.com_m.y(), rz = l.com_m.z();
    const double ix = l.inertia_kgm2.x(), iy = l.inertia_kgm2.y(), iz = l.inertia_kgm2.z();
    const double b = rz + delta * d3;
    const double cc = a1 - delta * d3 * s2 - c2 * rx - s2 * rz;
    const double cc_t = -delta * d3 * c2 + s2 * rx - c2 * rz;  // dC/dtheta2
    m(0, 0) += mass * (ry * ry + cc * cc) + ix * s2 * s2 + iz * c2 * c2;
    m(0, 1) += mass * ry * (c2 * b - s2 * rx);
    m(0, 2) += mass * delta * s2 * ry;
    m(1, 1) += mass * (b * b + rx * rx) + iy;
    m(1, 2) -= mass * delta * rx;
    m(2, 2) += mass * delta;
    m_t(0, 0) += 2.0 * mass * cc * cc_t + 2.0 * (ix - iz) * s2 * c2;
    m_t(0, 1) -= mass * ry * (s2 * b + c2 * rx);
    m_t(0, 2) += mass * delta * c2 * ry;
    m_d(0, 0) -= 2.0 * mass * delta * cc * s2;                     // dC/dd3 = -delta s2
    m_d(0, 1) += mass * delta * ry * c2;                           // dB/dd3 = delta
    m_d(1, 1) += 2.0 * mass * delta * b;
  }
  m(1, 0) = m(0, 1);
  m(2, 0) = m(0, 2);
  m(2, 1) = m(1, 2);
  m_t(1, 0) = m_t(0, 1);
  m_t(2, 0) = m_t(0, 2);
  m_d(1, 0) = m_d(0, 1);
  CraneDynamics d;
  d.mass = m;
  const Vec3 mt_qd = m_t * qd, md_qd = m_d * qd;
  d.velocity = mt_qd * qd(1) + md_qd * qd(2) - 0.5 * Vec3(0.0, qd.dot(mt_qd), qd.dot(md_qd));

  // Potential V = g sum m z_CoG with frame 2's z row (s2, 0, -c2) and the tip d3 out:
  // z_2 = d1 + s2 r_x - c2 r_z, z_3 = d1 - d3 c2 + s2 r_x - c2 r_z; D_i = dV/dq_i.
  const double g = c.gravity_m_per_s2;
  d.gravity.setZero();
  for (int p = 0; p < 2; ++p) {
    const CraneInertia::ArmLink& l = inertia.arm[p];
    d.gravity(1) += g * l.mass_kg * (c2 * l.com_m.x() + s2 * l.com_m.z());
  }
  d.gravity(1) += g * inertia.arm[1].mass_kg * d3 * s2;
  d.gravity(2) = -g * inertia.arm[1].mass_kg * c2;

  // The clam moves horizontally with the tip: kinetic energy M/2 (rho_dot^2 + rho^2 w1^2)
  // with rho = d3 sin(theta2) - a1 the tip's horizontal radius.
  if (carried_mass_kg > 0.0) {
    const double mc = carried_mass_kg;
    const double rho = d3 * s2 - a1;
    const double r2 = d3 * c2, r3 = s2;                       // d rho / d(theta2, d3)
    const double rho_dot = r2 * qd(1) + r3 * qd(2);
    const double rho_quad = -d3 * s2 * qd(1) * qd(1) + 2.0 * c2 * qd(1) * qd(2);
    d.mass(0, 0) += mc * rho * rho;
    d.mass(1, 1) += mc * r2 * r2;
    d.mass(2, 2) += mc * r3 * r3;
    d.mass(1, 2) += mc * r2 * r3;
    d.mass(2, 1) += mc * r2 * r3;
    d.velocity(0) += 2.0 * mc * rho * rho_dot * qd(0);
    const double radial = mc * (rho_quad - rho * qd(0) * qd(0));
    d.velocity(1) += radial * r2;
    d.velocity(2) += radial * r3;
  }
  return d;
}

Vec3 joint_accelerations(const CraneDynamics& dyn, const Vec3& tau) {
  const Mat3& a = dyn.mass;
  const Vec3 b = tau - dyn.velocity - dyn.gravity;
  // M = L D L^T with unit lower-triangular L
  const double d0 = a(0, 0);
  const double l10 = a(1, 0) / d0, l20 = a(2, 0) / d0;
  const double d1 = a(1, 1) - l10 * l10 * d0;
  const double l21 = (a(2, 1) - l20 * l10 * d0) / d1;
  const double d2 = a(2, 2) - l20 * l20 * d0 - l21 * l21 * d1;
  // L z = b, then D L^T x = z
  const double z0 = b(0), z1 = b(1) - l10 * z0, z2 = b(2) - l20 * z0 - l21 * z1;
  const double x2 = z2 / d2;
  const double x1 = z1 / d1 - l21 * x2;
  return Vec3(z0 / d0 - l10 * x1 - l20 * x2, x1, x2);
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

BoomLinkage boom_linkage(const BoomGeometry& g) {
  return {g.lp_m * g.lr_m, g.lp_m * g.lp_m + g.lr_m * g.lr_m, std::sin(g.delta_rad),
          std::cos(g.delta_rad)};
}

double boom_cylinder_lever(const BoomLinkage& b, const JointTrig& t) {
  // boom angle = theta2 - 90 deg: its sine is -cos(theta2), its cosine sin(theta2)
  const double sin_psi = b.sin_delta * t.s2 + b.cos_delta * t.c2;
  const double cos_psi = b.cos_delta * t.s2 - b.sin_delta * t.c2;
  return b.lp_lr * sin_psi / std::sqrt(b.sum_sq + 2.0 * b.lp_lr * cos_psi);   // eqs 2.17, 2.19
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
