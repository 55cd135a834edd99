// Eq 2.13 as the thesis writes it, with the 4 x 4 pseudo-inertia matrices of eq 2.14:
// D_ij = sum_p Tr(dT_p/dq_j J_p dT_p/dq_i^T), the Coriolis sums D_ijk and the gravity
// terms D_i. The product evaluates eq 2.12 in closed form (core/crane.cc); this is the
// reference it is checked against, kept here because only the tests need it.
#pragma once

#include <array>

#include "core/crane.h"

namespace clamsim::testing {

using core::CraneDynamics;
using core::CraneParams;
using core::LinkParams;
using core::Mat3;
using core::Mat4;
using core::Vec3;

// J = integral of r r^T dm in homogeneous coordinates. About the CoG the second-moment
// matrix is S_c = tr(I)/2 * 1 - I; shifting to the frame origin adds m r r^T (eq 2.14).
inline Mat4 pseudo_inertia(const LinkParams& l) {
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

// W_j = T_{j-1} Q_j T_{j-1}^-1: dT_p/dq_j = W_j T_p for j <= p. Q_j differentiates a
// rotation about (revolute) or translation along (prismatic) the z axis of frame j-1.
inline std::array<Mat4, 3> joint_twists(const std::array<Mat4, 3>& t) {
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

// Mass matrix, velocity and gravity terms of the three links (no carried mass) by eq 2.13,
// summed directly over p, j, k.
inline CraneDynamics crane_dynamics_trace_form(const CraneParams& c, const Vec3& q,
                                               const Vec3& qd) {
  const auto t = core::dh_base_transforms(c, q);
  const auto w = joint_twists(t);
  std::array<Mat4, 3> jp;
  for (int p = 0; p < 3; ++p) jp[p] = pseudo_inertia(c.links[p]);
  // dT_p/dq_j, and d2T_p/dq_j dq_k = W_min W_max T_p (j, k <= p)
  auto dt = [&](int p, int j) -> Mat4 { return j <= p ? Mat4(w[j] * t[p]) : Mat4::Zero(); };
  auto ddt = [&](int p, int j, int k) -> Mat4 {
    if (j > p || k > p) return Mat4::Zero();
    return w[std::min(j, k)] * w[std::max(j, k)] * t[p];
  };
  const Eigen::Vector4d g(0.0, 0.0, -c.gravity_m_per_s2, 0.0);
  CraneDynamics d;
  d.mass.setZero();
  d.velocity.setZero();
  d.gravity.setZero();
  for (int i = 0; i < 3; ++i)
    for (int p = i; p < 3; ++p) {
      for (int j = 0; j < 3; ++j) {
        d.mass(i, j) += (dt(p, j) * jp[p] * dt(p, i).transpose()).trace();
        for (int k = 0; k < 3; ++k)
          d.velocity(i) += (ddt(p, j, k) * jp[p] * dt(p, i).transpose()).trace() * qd(j) * qd(k);
      }
      const LinkParams& l = c.links[p];
      const Eigen::Vector4d r(l.com_m[0], l.com_m[1], l.com_m[2], 1.0);
      d.gravity(i) -= l.mass_kg * g.dot(dt(p, i) * r);
    }
  return d;
}

}  // namespace clamsim::testing
