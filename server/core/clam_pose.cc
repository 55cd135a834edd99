#include "core/clam_pose.h"

#include <Eigen/Geometry>
#include <cmath>

#include "core/clam.h"
#include "core/clam_grip.h"
#include "core/crane.h"
#include "core/derivative.h"

namespace clamsim::core {

namespace {
constexpr int kPerSegment = 3;
}  // namespace

ClamPose clam_pose(const MachineParams& m, const StateVector& x) {
  const ClamParams& cp = m.clam;
  ClamPose p;
  const Vec3 q = x.segment<3>(ix::q);
  const JointTrig t = joint_trig(q);
  p.tip = tip_position(m.crane, q, t);
  const ClamKinematics k = clam_kinematics(cp, x(ix::yA), x(ix::yC), x(ix::vA), x(ix::vC));
  p.theta2 = k.theta2();
  p.jaw_opening_rad = std::max(0.0, cp.theta2_closed_rad - p.theta2);
  p.a = Vec3d(x(ix::hx), x(ix::hy), -x(ix::yA));

  // The grab's axis is its body's, turned about A by its tilts (a double pendulum with the
  // ropes, docs/model.md); its heading follows the boom (the anti-swing chain keeps it from
  // turning about the ropes, section 2.3).
  Eigen::Matrix3d yaw;   // the swing angle theta1 about z
  yaw << t.c1, -t.s1, 0.0,  t.s1, t.c1, 0.0,  0.0, 0.0, 1.0;
  const ClamAxis axis = clam_axis(x);
  const Eigen::Matrix3d tilt =
      Eigen::Quaterniond::FromTwoVectors(Vec3d::UnitZ(), -axis.down).toRotationMatrix();
  p.frame = tilt * yaw;

  auto world = [&](double lx, double lz) { return Vec3d(p.a + p.frame * Vec3d(lx, 0.0, lz)); };
  const double l1 = cp.link1_length_m;
  p.c = world(0.0, -k.s);
  double sin_open = 0.0, cos_open = 1.0;
  sin_cos(p.jaw_opening_rad, &sin_open, &cos_open);
  const double lip_x = cp.lip_length_m * sin_open;
  const double lip_z = -k.s - cp.lip_length_m * cos_open;
  for (int side = 0; side < 2; ++side) {
    const double sgn = side == 0 ? 1.0 : -1.0;
    p.b[side] = world(sgn * l1 * k.s1, -l1 * k.c1);
    p.lip[side] = world(sgn * lip_x, lip_z);
  }
  // Swing of the ropes, measured in the boom's heading.
  const Vec3d hang = p.a - p.tip;
  const double drop = std::max(1e-6, -hang.z());
  const Vec3d along(t.c1, t.s1, 0.0);
  const Vec3d across(-t.s1, t.c1, 0.0);
  p.swing_rad = {std::atan2(hang.dot(along), drop), std::atan2(hang.dot(across), drop)};
  p.vel_a = Vec3d(x(ix::hvx), x(ix::hvy), -x(ix::vA));
  // C turns with the body about A: s times the axis's rate, horizontally
  const Vec3d turning = axis.by_tilt(0) * x(ix::tiltd) + axis.by_tilt(1) * x(ix::tiltd + 1);
  p.vel_c = Vec3d(x(ix::hvx) + k.s * turning.x(), x(ix::hvy) + k.s * turning.y(), -x(ix::vC));
  return p;
}

ClamProxies clam_proxies(const ClamParams& cp, const ClamPose& p) {
  ClamProxies out;
  const double r = kClamProxyRadius_m;
  const Vec3d width = p.frame.col(1) * std::max(0.0, 0.5 * cp.bucket_width_m - r);
  auto add_segment = [&](const Vec3d& from, const Vec3d& to, bool buckets) {
    for (int e = 0; e < 2; ++e) {
      const Vec3d edge = e == 0 ? width : Vec3d(-width);
      for (int i = 0; i < kPerSegment; ++i) {
        const double t = (i + 0.5) / kPerSegment;
        out.sphere[out.count] = {from + t * (to - from) + edge, r};
        out.on_buckets[out.count] = buckets;
        ++out.count;
      }
    }
  };
  // the shell follows its curl from C to the lip (core/clam_grip.h), the back is straight
  static_assert(kShellProxies == kPerSegment);
  const std::array<PlanePoint, kShellProxies> shell = shell_proxy_points(cp, p.jaw_opening_rad);
  auto add_shell = [&](double sgn) {
    for (int e = 0; e < 2; ++e) {
      const Vec3d edge = e == 0 ? width : Vec3d(-width);
      for (const PlanePoint& q : shell) {
        out.sphere[out.count] = {p.c + p.frame * Vec3d(sgn * q.x(), 0.0, q.y()) + edge, r};
        out.on_buckets[out.count] = true;
        ++out.count;
      }
    }
  };
  for (int side = 0; side < 2; ++side) {
    add_segment(p.a, p.b[side], false);
    add_segment(p.b[side], p.lip[side], true);
    add_shell(side == 0 ? 1.0 : -1.0);
  }
  Vec3d lo = out.sphere[0].center, hi = lo;
  for (int i = 0; i < out.count; ++i) {
    lo = lo.cwiseMin(out.sphere[i].center);
    hi = hi.cwiseMax(out.sphere[i].center);
  }
  out.centre = 0.5 * (lo + hi);
  out.bound_radius_m = 0.5 * (hi - lo).norm() + r;
  return out;
}

}  // namespace clamsim::core
