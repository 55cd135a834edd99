// Where the clam is in the world: its points, its frame (hanging along its ropes, section
// 3.4.2) and its contact proxies. Computed from the machine's state vector.
#pragma once

#include <Eigen/Core>
#include <array>

#include "contact.h"
#include "params.h"
#include "state.h"

namespace clamsim::core {

inline constexpr int kClamProxies = 36;
inline constexpr double kClamProxyRadius_m = 0.12;   // steel plate + stiffeners of the links

struct ClamPose {
  Vec3d tip = Vec3d::Zero();        // boom tip sheave
  Vec3d a = Vec3d::Zero();          // top (cable 1)
  Vec3d c = Vec3d::Zero();          // pulley / hinge of the buckets (cable 2)
  std::array<Vec3d, 2> b{};         // link hinges, [0] on the clam's +x side, [1] on -x
  std::array<Vec3d, 2> lip{};       // bucket lips
  Eigen::Matrix3d frame = Eigen::Matrix3d::Identity();  // clam -> world: x across the jaws
                                    // (the boom's heading), y along the buckets' width, z up
  Vec3d vel_a = Vec3d::Zero();
  Vec3d vel_c = Vec3d::Zero();
  double theta2 = 0.0;              // bucket angle from the vertical [rad]
  double jaw_opening_rad = 0.0;     // each lip's angle from straight down under C
  std::array<double, 2> swing_rad{};  // ropes from the vertical: along the boom, across it
};

ClamPose clam_pose(const MachineParams& m, const StateVector& x);

// The clam's contact proxies: rows of spheres along link 1, the bucket's back (B to lip) and
// its shell (C to lip), on both halves and at both edges of the bucket's width.
struct ClamProxies {
  std::array<Sphere, kClamProxies> sphere{};
  std::array<bool, kClamProxies> on_buckets{};   // moves with C (else with A)
  int count = 0;
  Vec3d centre = Vec3d::Zero();                  // bounding sphere
  double bound_radius_m = 0.0;
};
ClamProxies clam_proxies(const ClamParams& c, const ClamPose& pose);

}  // namespace clamsim::core
