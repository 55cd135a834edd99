// The parts' poses the server sends for drawing (core/part_poses.h): each is checked against
// an independent source, the general D-H product (Table 2.7), the clam's own points and the
// stability module's tilt, so a viewer that places its meshes by them draws what the model
// computes.
#include "core/part_poses.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "core/crane.h"
#include "core/reeving.h"
#include "core/stability.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::deg;

Eigen::Isometry3d motion(const PartPose& p) {
  const Eigen::Quaterniond q(p.orientation[0], p.orientation[1], p.orientation[2],
                             p.orientation[3]);
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = q.toRotationMatrix();
  t.translation() = Vec3d(p.position_m[0], p.position_m[1], p.position_m[2]);
  return t;
}

const PartPose& part(const PartPoses& p, Part which) { return p[static_cast<int>(which)]; }

void expect_near(const Vec3d& a, const Vec3d& b, double tol, const std::string& what) {
  EXPECT_LT((a - b).norm(), tol) << what << ": " << a.transpose() << " vs " << b.transpose();
}

struct Case {
  double swing_deg, boom_deg, telescope_m, theta2_deg;
};

class PartPosesAt : public ::testing::TestWithParam<Case> {};

State state_at(const MachineParams& m, const Case& c) {
  InitialConditions ic = testing::default_pose();
  ic.swing_rad = deg(c.swing_deg);
  ic.boom_rad = deg(c.boom_deg);
  ic.telescope_m = c.telescope_m;
  ic.clam_theta2_rad = deg(c.theta2_deg);
  return initial_state(m, ic);
}

TEST_P(PartPosesAt, CraneFramesAreTheGeneralDenavitHartenbergProduct) {
  const MachineParams m = testing::shipped_machine();
  const State st = state_at(m, GetParam());
  const PartPoses p = part_poses(m, st, clam_pose(m, st.x));
  const std::array<Mat4, 3> links = dh_link_transforms(m.crane, st.x.segment<3>(ix::q));
  Mat4 t = Mat4::Identity();
  for (int i = 0; i < 3; ++i) {
    t = t * links[static_cast<std::size_t>(i)];
    const Eigen::Isometry3d f = motion(p[static_cast<int>(Part::Superstructure) + i]);
    EXPECT_LT((f.matrix() - t).cwiseAbs().maxCoeff(), 1e-9) << kPartNames[1 + i];
  }
  const Eigen::Isometry3d carrier = motion(part(p, Part::Carrier));
  EXPECT_LT((carrier.matrix() - Mat4::Identity()).cwiseAbs().maxCoeff(), 1e-12)
      << "on its pads the carrier is the base frame";
  // the fly's origin is the tip the frame reports
  const Outputs o = outputs(m, st, Environment{});
  expect_near(motion(part(p, Part::Fly)).translation(),
              Vec3d(o.tip[0], o.tip[1], o.tip[2]), 1e-9, "tip");
}

TEST_P(PartPosesAt, ClamPartsCarryTheirPointsWhereTheLinkageHasThem) {
  const MachineParams m = testing::shipped_machine();
  const State st = state_at(m, GetParam());
  const ClamPose pose = clam_pose(m, st.x);
  const PartPoses p = part_poses(m, st, pose);
  const ClamParams& k = m.clam;
  const double tc = k.theta2_closed_rad, l2 = k.link2_length_m;
  const Eigen::Isometry3d head = motion(part(p, Part::ClamHead));
  expect_near(head.translation(), pose.a, 1e-9, "A");
  EXPECT_LT((head.linear() - pose.frame).cwiseAbs().maxCoeff(), 1e-9);
  for (int s = 0; s < 2; ++s) {
    const double side = s == 0 ? 1.0 : -1.0;
    const std::string name = s == 0 ? "right" : "left";
    const Eigen::Isometry3d arm = motion(p[static_cast<int>(Part::ArmRight) + s]);
    const Eigen::Isometry3d shell = motion(p[static_cast<int>(Part::ShellRight) + s]);
    // link 1 runs along the arm's -z to its hinge B
    expect_near(arm * Vec3d(0, 0, -k.link1_length_m), pose.b[static_cast<std::size_t>(s)], 1e-9,
                "arm " + name + " to B");
    // the bucket's closed-pose shape, turned open: its hinge B and its lip
    expect_near(shell * Vec3d(side * l2 * std::sin(tc), 0, l2 * std::cos(tc)),
                pose.b[static_cast<std::size_t>(s)], 1e-9, "shell " + name + " to B");
    expect_near(shell * Vec3d(0, 0, -k.lip_length_m), pose.lip[static_cast<std::size_t>(s)], 1e-9,
                "shell " + name + " lip");
    expect_near(shell.translation(), pose.c, 1e-9, "shell " + name + " at C");
  }
}

// Fig. 2.8's triangle: the barrel's base stays put on the superstructure and the rod eye on
// the boom, and the distance between them is eq 2.17's cylinder length at this boom angle.
TEST_P(PartPosesAt, TheBoomCylinderSpansEquationTwoSeventeensLength) {
  const MachineParams m = testing::shipped_machine();
  const State st = state_at(m, GetParam());
  const Vec3 q = st.x.segment<3>(ix::q);
  const PartPoses p = part_poses(m, st, clam_pose(m, st.x));
  const Eigen::Isometry3d barrel = motion(part(p, Part::BoomCylinder));
  const Eigen::Isometry3d rod = motion(part(p, Part::BoomRod));
  const double boom = q(1) - kHalfPi;
  const double x = boom_cylinder_length(m.hydraulics.boom_geometry, boom);
  EXPECT_NEAR((rod.translation() - barrel.translation()).norm(), x, 1e-9);
  expect_near(barrel * Vec3d(0, 0, x), rod.translation(), 1e-9, "barrel's +z to the rod eye");
  expect_near(rod * Vec3d(0, 0, x), barrel.translation(), 1e-9, "rod's +z to the base");
  // the base in frame 1 and the rod eye in frame 2 do not depend on the boom angle
  const std::array<Mat4, 3> dh = dh_base_transforms(m.crane, q);
  Vec3 q2 = q;
  q2(1) += deg(7);
  const BoomCylinderPivots moved = boom_cylinder_pivots(m, q2);
  const std::array<Mat4, 3> dh2 = dh_base_transforms(m.crane, q2);
  const auto in = [](const Mat4& t, const Vec3d& v) {
    return Vec3d((t.inverse() * v.homogeneous()).head<3>());
  };
  expect_near(in(dh[0], barrel.translation()), in(dh2[0], moved.base), 1e-9, "base on frame 1");
  expect_near(in(dh[1], rod.translation()), in(dh2[1], moved.rod_eye), 1e-9, "eye on frame 2");
  EXPECT_LT(barrel.translation().z(), dh[1](2, 3)) << "the base is below the boom pivot";
}

// Each rope's anchors, placed by the poses, are reeving.cc's planar path: the same length
// drum -> foot -> tip, the tip at the fly's origin, and every point in the boom's plane.
TEST_P(PartPosesAt, RopeAnchorsPlacedByThePosesGiveTheReevedPath) {
  const MachineParams m = testing::shipped_machine();
  const State st = state_at(m, GetParam());
  const Vec3 q = st.x.segment<3>(ix::q);
  const PartPoses p = part_poses(m, st, clam_pose(m, st.x));
  const Vec3d tip = motion(part(p, Part::Fly)).translation();
  const Vec3d boom = motion(part(p, Part::BoomBase)).linear().col(2);
  const Vec3d plane_normal = Vec3d::UnitZ().cross(boom).normalized();
  for (const WinchParams& w : m.hydraulics.winches) {
    const std::array<RopeAnchor, 3> a = rope_anchors(m.crane, w.reeving);
    std::array<Vec3d, 3> at;
    for (std::size_t i = 0; i < 3; ++i) at[i] = motion(part(p, a[i].part)) * a[i].at;
    EXPECT_NEAR((at[1] - at[0]).norm() + (at[2] - at[1]).norm(),
                reeved_path(m.crane, w.reeving, q).length_m, 1e-9);
    expect_near(at[2], tip, 1e-9, "tip sheave");
    for (std::size_t i = 0; i < 3; ++i)
      EXPECT_NEAR((at[i] - tip).dot(plane_normal), 0.0, 1e-9) << "anchor " << i << " off the boom's plane";
    EXPECT_LT(at[0].z(), at[1].z()) << "the drum sits below the foot sheave";
  }
}

TEST_P(PartPosesAt, OrientationsAreUnitQuaternionsWithNonNegativeW) {
  const MachineParams m = testing::shipped_machine();
  const State st = state_at(m, GetParam());
  for (const PartPose& p : part_poses(m, st, clam_pose(m, st.x))) {
    const auto& q = p.orientation;
    EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-12);
    EXPECT_GE(q[0], 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Poses, PartPosesAt,
                         ::testing::Values(Case{0, 30, 12, 40}, Case{135, 60, 20, 5},
                                           Case{-100, 5, 10, 60}, Case{270, 75, 24, 25}));

// A tipping machine: every crane part is turned as stability.h's tilted() turns its points,
// and the fly's origin is the tilted tip the frame reports.
TEST(PartPoses, TheTiltTurnsTheCarrierAndTheCraneAboutThePadsSide) {
  const MachineParams m = testing::shipped_machine();
  State st = state_at(m, Case{90, 20, 20, 40});
  st.stability.edge = kLeftEdge;
  st.stability.tilt_rad = deg(4);
  const PartPoses p = part_poses(m, st, clam_pose(m, st.x));
  const EdgeLine e = edge_line(m.carrier, kLeftEdge);
  const Eigen::Isometry3d carrier = motion(part(p, Part::Carrier));
  for (const Vec3d& x : {Vec3d(0, 0, 0), Vec3d(3, -2, 1), Vec3d(-4, 5, 2.5)})
    expect_near(carrier * x, tilted(e, x, st.stability.tilt_rad), 1e-9, "carrier point");
  const std::array<Mat4, 3> dh = dh_base_transforms(m.crane, st.x.segment<3>(ix::q));
  for (int i = 0; i < 3; ++i) {
    const Eigen::Isometry3d f = motion(p[static_cast<int>(Part::Superstructure) + i]);
    const Vec3d local(0.7, -0.3, 1.1);
    const Vec3d untilted = (dh[static_cast<std::size_t>(i)] * local.homogeneous()).head<3>();
    expect_near(f * local, tilted(e, untilted, st.stability.tilt_rad), 1e-9, kPartNames[1 + i]);
  }
  const BoomCylinderPivots cyl = boom_cylinder_pivots(m, st.x.segment<3>(ix::q));
  expect_near(motion(part(p, Part::BoomCylinder)).translation(),
              tilted(e, cyl.base, st.stability.tilt_rad), 1e-9, "cylinder base");
  expect_near(motion(part(p, Part::BoomRod)).translation(),
              tilted(e, cyl.rod_eye, st.stability.tilt_rad), 1e-9, "rod eye");
  const Outputs o = outputs(m, st, Environment{});
  expect_near(motion(part(p, Part::Fly)).translation(), Vec3d(o.tip[0], o.tip[1], o.tip[2]),
              1e-9, "tilted tip");
}

TEST(PartPoses, TheNamesAreDistinctAndInTheEnumsOrder) {
  EXPECT_STREQ(kPartNames[static_cast<int>(Part::Carrier)], "carrier");
  EXPECT_STREQ(kPartNames[static_cast<int>(Part::Fly)], "fly");
  EXPECT_STREQ(kPartNames[static_cast<int>(Part::ShellLeft)], "shell_left");
  EXPECT_STREQ(kPartNames[static_cast<int>(Part::BoomRod)], "boom_rod");
  for (int i = 0; i < kParts; ++i)
    for (int j = i + 1; j < kParts; ++j) EXPECT_STRNE(kPartNames[i], kPartNames[j]);
}

}  // namespace
}  // namespace clamsim::core
