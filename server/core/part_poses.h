// Where each drawn part of the machine is (parts.h), as a pose in the base frame: what a
// viewer needs to place its meshes without kinematics of its own.
#pragma once

#include "clam_pose.h"
#include "params.h"
#include "parts.h"
#include "state.h"

namespace clamsim::core {

// Where Fig. 2.8's triangle puts the boom cylinder's pivots, in the base frame without the
// tilt: the rod eye on the boom's axis lr from the boom pivot, the base lp from it at
// pi - delta below the boom's horizontal heading, so their distance is eq 2.17's X. Only
// delta = delta1 + delta2 is in the model; putting the rod eye on the axis (delta2 = 0) is
// a drawing choice that changes neither X nor the lever.
struct BoomCylinderPivots {
  Vec3d base = Vec3d::Zero();
  Vec3d rod_eye = Vec3d::Zero();
};
BoomCylinderPivots boom_cylinder_pivots(const MachineParams& m, const Vec3d& q);

// Where a rope is reeved (reeving.h), as points fixed in the drawn parts: its drum on the
// superstructure, the foot sheave on the boom's base section, the tip sheave at the fly's
// origin. Placed by a frame's part poses they give reeved_path's polyline at every pose, so
// a viewer draws the rope along the boom without the reeving's geometry of its own.
struct RopeAnchor {
  Part part = Part::Superstructure;
  Vec3d at = Vec3d::Zero();  // in the part's local frame
};
std::array<RopeAnchor, 3> rope_anchors(const CraneParams& c, const ReevingParams& r);

// The poses at state st. pose is clam_pose(m, st.x) (the caller has it already).
PartPoses part_poses(const MachineParams& m, const State& st, const ClamPose& pose);

}  // namespace clamsim::core
