// The 3-DOF P&H-T250 crane (section 2.2.1): Denavit-Hartenberg kinematics (Table 2.7,
// eqs 2.10-2.11) and Lagrangian dynamics with pseudo-inertia matrices (eqs 2.12-2.14),
// plus the boom cylinder's force-to-torque mapping (eqs 2.15-2.20).
//
// Joint vector q = (theta1 swing [rad], theta2 boom [rad], d3 telescope [m]).
// theta2 = 90 deg is a level boom; the boom angle of Table 2.6 is theta2 - 90 deg.
// Base frame: z up, origin on the swing axis at the swing bearing.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cmath>

#include "params.h"

namespace clamsim::core {

using Mat4 = Eigen::Matrix4d;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

// theta2 of a level boom (Table 2.7's home); the boom angle of Table 2.6 is theta2 - this.
constexpr double kHalfPi = 1.57079632679489661923;

// sin a and cos a in one call (glibc's sincos, about the cost of one of them): GCC merges a
// sin and a cos of one angle into it only where both are in one function after inlining.
inline void sin_cos(double a, double* s, double* c) {
#if defined(__GLIBC__)
  ::sincos(a, s, c);
#else
  *s = std::sin(a);
  *c = std::cos(a);
#endif
}

// The joint angles' sines and cosines. The model computes them once per evaluation and
// hands them to the transforms, the tip and its Jacobians (each took its own before).
struct JointTrig {
  double c1 = 1.0, s1 = 0.0;  // swing theta1
  double c2 = 1.0, s2 = 0.0;  // boom theta2
};
JointTrig joint_trig(const Vec3& q);

// A_1..A_3 of eq 2.10 and T_1..T_3 of eq 2.11. dh_link_transforms evaluates Table 2.7's
// general D-H matrix (the reference); dh_base_transforms uses its closed form with the
// 90 deg twists exact and the given joint trigonometry.
std::array<Mat4, 3> dh_link_transforms(const CraneParams& c, const Vec3& q);
std::array<Mat4, 3> dh_base_transforms(const CraneParams& c, const Vec3& q);
std::array<Mat4, 3> dh_base_transforms(const CraneParams& c, const Vec3& q, const JointTrig& t);

// What the closed-form eq 2.12 needs of the links that does not change with the pose.
// Derived from CraneParams (not a model-file field) once per model and passed to
// crane_dynamics. The cab (link 1) only turns about the vertical, so it is one number;
// the boom base and fly (links 2 and 3) turn together and keep their CoG and inertia.
struct CraneInertia {
  double cab_swing_kgm2 = 0.0;   // link 1 about the swing axis
  struct ArmLink {
    double mass_kg = 0.0;
    Vec3 com_m = Vec3::Zero();       // in frame 2's (= frame 3's) axes
    Vec3 inertia_kgm2 = Vec3::Zero();  // principal moments about the CoG
  };
  std::array<ArmLink, 2> arm;    // boom base (frame 2), fly (frame 3)
};
CraneInertia crane_inertia(const CraneParams& c);

// The swing cab and its counterweight as one rigid link: masses added, the centre of gravity
// the mass-weighted mean, each body's principal moments (the counterweight's of a uniform
// block) moved to the common centre by the parallel-axis rule, both bodies' axes frame 1's.
// The products of inertia the offsets make are left out, as LinkParams keeps principal
// moments only: link 1 turns about frame 1's y axis alone, where only I_yy acts.
LinkParams with_counterweight(const LinkParams& cab, const CounterweightParams& cw);

// Eq 2.12 as tau = M(q) qdd + h(q, qd) + G(q), for the three links plus the clam carried
// horizontally at the boom tip (the anti-swing assumption of section 2.3: the clam stays
// under the tip while its weight reaches the crane through the ropes).
struct CraneDynamics {
  Mat3 mass;       // D_ij (+ clam's horizontal inertia)
  Vec3 velocity;   // sum_jk D_ijk qd_j qd_k (+ clam term)
  Vec3 gravity;    // D_i
};
CraneDynamics crane_dynamics(const CraneParams& c, const CraneInertia& inertia, const Vec3& q,
                             const JointTrig& trig, const Vec3& qd, double carried_mass_kg);
// The same, deriving the inertia and the trigonometry itself (outside the step's loop).
CraneDynamics crane_dynamics(const CraneParams& c, const Vec3& q, const Vec3& qd,
                             double carried_mass_kg);

// The joint accelerations of eq 2.13, M qdd = tau - velocity - gravity: M is symmetric and
// positive definite, so its LDL^T factors need no pivoting and are written out for 3 x 3
// (a quarter of the instructions of Eigen's pivoting LDLT).
Vec3 joint_accelerations(const CraneDynamics& dyn, const Vec3& tau);

// Boom tip (frame 3 origin) in the base frame, and d(tip_z)/dq.
Vec3 tip_position(const CraneParams& c, const Vec3& q, const JointTrig& t);
Vec3 tip_position(const CraneParams& c, const Vec3& q);
Vec3 tip_height_gradient(const Vec3& q, const JointTrig& t);
// d(tip x, tip y)/dq: how the joints move the tip horizontally (the clam's ropes pull there).
Eigen::Matrix<double, 2, 3> tip_horizontal_jacobian(const CraneParams& c, const Vec3& q,
                                                    const JointTrig& t);
Eigen::Matrix<double, 2, 3> tip_horizontal_jacobian(const CraneParams& c, const Vec3& q);

// Boom cylinder length X and lever dX/dtheta (eqs 2.17-2.19) for a boom angle [rad];
// joint torque tau = F * lever (eq 2.20).
double boom_cylinder_length(const BoomGeometry& g, double boom_angle_rad);
double boom_cylinder_lever(const BoomGeometry& g, double boom_angle_rad);

// The linkage's constants for the lever at a pose whose trigonometry is already known (the
// derivative's JointTrig): psi = delta - (theta2 - 90 deg) by the angle-sum identities, so
// no sine or cosine per evaluation. Built once per model (boom_linkage).
struct BoomLinkage {
  double lp_lr = 0.0;                     // lp * lr
  double sum_sq = 0.0;                    // lp^2 + lr^2
  double sin_delta = 0.0, cos_delta = 1.0;
};
BoomLinkage boom_linkage(const BoomGeometry& g);
double boom_cylinder_lever(const BoomLinkage& b, const JointTrig& t);

// Kinetic and potential energy of links + horizontally carried mass [J].
double crane_kinetic_energy(const CraneParams& c, const Vec3& q, const Vec3& qd,
                            double carried_mass_kg);
double crane_potential_energy(const CraneParams& c, const Vec3& q);

}  // namespace clamsim::core
