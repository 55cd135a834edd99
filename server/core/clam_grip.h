// How the buckets hold what is between them (section 2.1.2, Table 2.5's "contact while
// closing" read as contact mechanics): where each shell touches a load, the direction it
// pushes, and how much of the load's weight the two contacts can carry with friction.
//
// Each bucket's shell runs from the hinge C to the lip as a circular arc that curls inward
// towards the lip (a quarter-round bucket is curl 90 deg, a flat plate 0). A load touching a
// shell is pushed along the contact normal n (from the shell to the load's centre) with a
// force N, and friction can add up to mu N along the shell. Straight up, one contact can
// carry N (n_z + mu |n_x|) in the clam's plane: a shell under the load carries it (n_z > 0),
// a shell above it pushes it down and out unless friction beats the slope (the open V's
// throat: mu > tan of the shell's angle from the vertical).
#pragma once

#include <Eigen/Core>
#include <array>

#include "params.h"

namespace clamsim::core {

// In the clam's plane, relative to C: x across the jaws (mirrored onto the +x bucket), z up.
using PlanePoint = Eigen::Vector2d;

struct ShellTouch {
  bool inside = false;          // the point lies on the inner side of the shell
  double distance_m = 0.0;      // from the shell's centre line to the point
  PlanePoint point = PlanePoint::Zero();   // the nearest point of the shell
  PlanePoint normal = PlanePoint::UnitY(); // unit, from that point towards the load's centre
};

// The +x bucket's shell at jaw opening phi (the lip's angle from straight down under C)
// against a point p (a load proxy's centre, x >= 0 or mirrored by the caller).
ShellTouch shell_touch(const ClamParams& c, double phi_rad, const PlanePoint& p);

// Points along the +x shell from C (t = 0) to the lip (t = 1), for the contact proxies.
PlanePoint shell_point(const ClamParams& c, double phi_rad, double t);
// n points at t = (i + 0.5) / n, i = 0..n-1, at the cost of one (the proxies' every step).
inline constexpr int kShellProxies = 3;
std::array<PlanePoint, kShellProxies> shell_proxy_points(const ClamParams& c, double phi_rad);

// Vertical support one contact gives per newton of normal force: n_z + mu |n_x|.
double contact_support(const PlanePoint& normal, double friction);

// A load touched by both shells: per side, the support per newton (contact_support) and the
// normal force's lever about C (each bucket turns about C relative to the load).
struct GripGeometry {
  std::array<double, 2> support{};
  std::array<double, 2> lever_m{};
};
GripGeometry grip_geometry(const std::array<ShellTouch, 2>& touch, double friction);

// The normal force each shell presses with when the links are held by stop force lambda:
// lambda ds = 2 M dtheta2 (virtual work, both buckets), N = M / lever. ds_dtheta2 from the
// kinematics (|ds/dtheta2| = l2 sin(th1 + th2) / cos th1). Levers below kMinLever_m are
// taken at it: a normal through C gets no more than that mechanical advantage.
inline constexpr double kMinGripLever_m = 0.05;
std::array<double, 2> shell_normal_forces(const GripGeometry& g, double ds_dtheta2,
                                          double stop_force_N);

// What the two contacts can carry straight up at that stop force: sum of N_i support_i.
double grip_capacity_N(const GripGeometry& g, double ds_dtheta2, double stop_force_N);

}  // namespace clamsim::core
