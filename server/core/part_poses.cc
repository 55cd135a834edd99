#include "core/part_poses.h"

#include <Eigen/Geometry>
#include <cmath>

#include "core/crane.h"
#include "core/stability.h"

namespace clamsim::core {

namespace {

using Rotation = Eigen::Matrix3d;

PartPose make_pose(const Vec3d& p, const Rotation& r) {
  Eigen::Quaterniond q(r);
  q.normalize();
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();  // one of the two quaternions, always the same
  return {{p.x(), p.y(), p.z()}, {q.w(), q.x(), q.y(), q.z()}};
}

// The machine's tilt as a rigid motion x -> R x + t: a turn by tilt_rad about the side it
// lifts from (stability.h tilted()); the identity while it stands on its pads.
Eigen::Isometry3d tilt_motion(const MachineParams& m, const StabilityState& s) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  if (s.edge == kNoEdge) return t;
  const EdgeLine e = edge_line(m.carrier, s.edge);
  t.linear() = Eigen::AngleAxisd(s.tilt_rad, e.axis().normalized()).toRotationMatrix();
  t.translation() = e.point - t.linear() * e.point;
  return t;
}

// The clam's frame turned about its own y by beta: a link in the clam's x-z plane.
Rotation turned_about_y(const Rotation& clam, double beta) {
  return clam * Eigen::AngleAxisd(beta, Vec3d::UnitY()).toRotationMatrix();
}

// A frame at `origin` whose z runs along `axis`, x across the boom (`across`).
Rotation along(const Vec3d& axis, const Vec3d& across) {
  Rotation r;
  r.col(2) = axis.normalized();
  r.col(0) = (across - across.dot(r.col(2)) * r.col(2)).normalized();
  r.col(1) = r.col(2).cross(r.col(0));
  return r;
}

}  // namespace

BoomCylinderPivots boom_cylinder_pivots(const MachineParams& m, const Vec3d& q) {
  const std::array<Mat4, 3> dh = dh_base_transforms(m.crane, q);
  const Vec3d pivot = dh[1].block<3, 1>(0, 3);
  const Vec3d boom = dh[1].block<3, 1>(0, 2);  // frame 2's z: along the boom
  const Vec3d heading = Vec3d(boom.x(), boom.y(), 0.0).normalized();
  const BoomGeometry& g = m.hydraulics.boom_geometry;
  const double below = 2.0 * kHalfPi - g.delta_rad;  // the base's depression under the heading
  BoomCylinderPivots p;
  p.base = pivot + g.lp_m * (std::cos(below) * heading - std::sin(below) * Vec3d::UnitZ());
  p.rod_eye = pivot + g.lr_m * boom;
  return p;
}

std::array<RopeAnchor, 3> rope_anchors(const CraneParams& c, const ReevingParams& r) {
  // Any pose will do, since each point is rigid in its part; this one has the boom off the
  // vertical so that its heading is defined.
  const Vec3d q(0.0, 0.5, c.telescope_min_m);
  const std::array<Mat4, 3> dh = dh_base_transforms(c, q);
  const Vec3d up = Vec3d::UnitZ();
  const Vec3d pivot = dh[1].block<3, 1>(0, 3);
  const Vec3d u = dh[1].block<3, 1>(0, 2);  // along the boom (frame 2's z)
  const Vec3d heading = Vec3d(u.x(), u.y(), 0.0).normalized();
  // reeving.cc's plane: radial along the heading from the swing axis, and up; the boom's
  // upward normal n = (c2, s2) when u = (s2, -c2)
  const Vec3d n = -u.z() * heading + u.dot(heading) * up;
  // the swing axis is the base frame's z (frame 1's origin, the pivot, sits a1 behind it)
  const Vec3d drum = r.drum_radial_m * heading + r.drum_height_m * up;
  const Vec3d foot = pivot + r.foot_along_m * u + r.foot_above_m * n;
  const auto local = [&](int frame, const Vec3d& p) {
    const Eigen::Isometry3d f(dh[static_cast<std::size_t>(frame)]);
    return Vec3d(f.inverse() * p);
  };
  return {RopeAnchor{Part::Superstructure, local(0, drum)},
          RopeAnchor{Part::BoomBase, local(1, foot)}, RopeAnchor{Part::Fly, Vec3d::Zero()}};
}

PartPoses part_poses(const MachineParams& m, const State& st, const ClamPose& pose) {
  PartPoses out;
  const Eigen::Isometry3d tilt = tilt_motion(m, st.stability);
  out[static_cast<int>(Part::Carrier)] = make_pose(tilt.translation(), tilt.linear());
  const std::array<Mat4, 3> dh = dh_base_transforms(m.crane, st.x.segment<3>(ix::q));
  for (int i = 0; i < 3; ++i) {
    const Eigen::Isometry3d f = tilt * Eigen::Isometry3d(dh[static_cast<std::size_t>(i)]);
    out[static_cast<int>(Part::Superstructure) + i] = make_pose(f.translation(), f.linear());
  }

  // the boom cylinder's barrel and rod, each pointing at the other's pivot
  const BoomCylinderPivots cyl = boom_cylinder_pivots(m, st.x.segment<3>(ix::q));
  const Vec3d across = dh[1].block<3, 1>(0, 1);  // frame 2's y: across the boom
  const Vec3d stroke = cyl.rod_eye - cyl.base;
  out[static_cast<int>(Part::BoomCylinder)] =
      make_pose(tilt * cyl.base, tilt.linear() * along(stroke, across));
  out[static_cast<int>(Part::BoomRod)] =
      make_pose(tilt * cyl.rod_eye, tilt.linear() * along(-stroke, across));

  const Rotation& clam = pose.frame;
  out[static_cast<int>(Part::ClamHead)] = make_pose(pose.a, clam);
  const double closed = m.clam.theta2_closed_rad;
  for (int s = 0; s < 2; ++s) {
    const double side = s == 0 ? 1.0 : -1.0;  // the right half on +x, the left its mirror
    // link 1: local -z from A to its hinge B (theta1 of section 2.1, either side)
    const Vec3d ab = clam.transpose() * (pose.b[static_cast<std::size_t>(s)] - pose.a);
    const double arm = -std::atan2(ab.x(), -ab.z());
    out[static_cast<int>(Part::ArmRight) + s] = make_pose(pose.a, turned_about_y(clam, arm));
    // the bucket: C to B at theta2 from the vertical; opened by theta2_closed - theta2
    const Vec3d cb = clam.transpose() * (pose.b[static_cast<std::size_t>(s)] - pose.c);
    const double theta2 = std::atan2(side * cb.x(), cb.z());
    const double shell = -side * (closed - theta2);
    out[static_cast<int>(Part::ShellRight) + s] = make_pose(pose.c, turned_about_y(clam, shell));
  }
  return out;
}

}  // namespace clamsim::core
