#include "core/reeving.h"

#include <cmath>

namespace clamsim::core {

ReevedPath reeved_path(const CraneParams& c, const ReevingParams& r, const Vec3& q,
                       const JointTrig& t) {
  // In the boom's vertical plane (radial from the swing axis, up): the pivot at (-a1, d1),
  // the boom's axis u = (s2, -c2), its upward normal n = (c2, s2); du/dtheta2 = n,
  // dn/dtheta2 = -u. Foot sheave F = pivot + f_a u + f_n n, tip sheave = pivot + d3 u.
  const double ur = t.s2, uz = -t.c2, nr = t.c2, nz = t.s2;
  const double fr = -c.a1_m + r.foot_along_m * ur + r.foot_above_m * nr;
  const double fz = c.d1_m + r.foot_along_m * uz + r.foot_above_m * nz;
  const double er = fr - r.drum_radial_m, ez = fz - r.drum_height_m;
  const double drum_leg = std::sqrt(er * er + ez * ez);
  // dF/dtheta2 = f_a n - f_n u
  const double dfr = r.foot_along_m * nr - r.foot_above_m * ur;
  const double dfz = r.foot_along_m * nz - r.foot_above_m * uz;
  const double along = q(2) - r.foot_along_m;
  const double boom_leg = std::sqrt(along * along + r.foot_above_m * r.foot_above_m);
  ReevedPath p;
  p.length_m = drum_leg + boom_leg;
  p.grad = Vec3(0.0, (er * dfr + ez * dfz) / drum_leg, along / boom_leg);
  return p;
}

ReevedPath reeved_path(const CraneParams& c, const ReevingParams& r, const Vec3& q) {
  return reeved_path(c, r, q, joint_trig(q));
}

}  // namespace clamsim::core
