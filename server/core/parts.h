// The drawn parts of the machine and a pose: one list, kPartNames, that every frame carries in its
// order and the transports send as it is (the server sends what the browser draws;
// docs/architecture.md, "The browser draws what the server sends"). Kept apart from part_poses.h so
// Outputs can hold the poses.
#pragma once

#include <array>

namespace clamsim::core {

// The parts in the order every frame carries them. Each part's local frame
// (docs/websocket-protocol.md, "Parts"):
//   carrier          the base frame turned by the machine's tilt (identity on its pads)
//   superstructure,  D-H frames 1, 2 and 3 (Table 2.7), tilt included; each link's box
//   boom_base, fly   sits at its model CoG in its frame
//   clam_head        origin A, the clam's frame (x across the jaws towards hinge B[0], y
//                    along the buckets' width, z up the axis from C to A)
//   arm_*            link 1 (section 2.1): origin A, the link along local -z to its hinge B
//   shell_*          the bucket (link 2 and its lip): origin C, the closed-pose shape in the
//                    local x-z plane, turned open by theta2_closed - theta2 about local y
//   boom_cylinder    the boom cylinder's barrel (eqs 2.15-2.17): origin at its base pivot on
//                    the superstructure, local +z towards the rod eye, x across the boom
//   boom_rod         its rod: origin at the rod eye on the boom, local +z towards the base
// The _right parts are on the clam's +x side (ClamPose::b[0]); _left are their mirror.
enum class Part : int {
  Carrier, Superstructure, BoomBase, Fly, ClamHead, ArmRight, ArmLeft, ShellRight, ShellLeft,
  BoomCylinder, BoomRod,
};
inline constexpr int kParts = 11;
inline constexpr std::array<const char*, kParts> kPartNames = {
    "carrier", "superstructure", "boom_base", "fly", "clam_head",
    "arm_right", "arm_left", "shell_right", "shell_left", "boom_cylinder", "boom_rod"};

// position [m] and orientation (unit quaternion w, x, y, z) of a part in the base frame
struct PartPose {
  std::array<double, 3> position_m{};
  std::array<double, 4> orientation{1.0, 0.0, 0.0, 0.0};
};
using PartPoses = std::array<PartPose, kParts>;

}  // namespace clamsim::core
