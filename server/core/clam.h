// The cable-driven clamshell grapple (section 2.1): a symmetric 3-link slider mechanism.
//
// Vertical plane, y positive DOWN (as the thesis writes eqs 2.1-2.7), x to the right.
// A: top (cable 1, tension T1). B: hinge of link 1 and the bucket (link 2), one per side.
// C: pulley (link 3, cable 2, tension T2). A and C stay on the symmetry axis.
// Right half: B = A + l1 (sin th1, cos th1) = C + l2 (sin th2, -cos th2), so the distance
// s = yC - yA = l1 cos th1 + l2 cos th2. Pulling C up towards A (s smaller, th2 larger)
// closes the buckets; letting C down opens them.
#pragma once

#include <cmath>

#include "params.h"
#include "state.h"

namespace clamsim::core {

struct ClamKinematics {
  double s = 0.0;                 // A-to-C distance [m]
  double s_dot = 0.0;
  double s1 = 0.0, c1 = 1.0, s2 = 0.0, c2 = 1.0;  // the links' sines and cosines (law of cosines)
  double omega1 = 0.0, omega2 = 0.0;   // [rad/s]
  // The angles themselves [rad] from the vertical (both in [0, pi]): the equations of
  // motion need only their sines and cosines, so the acos is paid where an angle is shown.
  double theta1() const { return std::acos(c1); }
  double theta2() const { return std::acos(c2); }
};

// Law of cosines in triangle A-B-C; valid for s strictly between |l1-l2| and l1+l2.
ClamKinematics clam_kinematics(const ClamParams& c, double yA, double yC, double vA, double vC);
double clam_distance_at(const ClamParams& c, double theta2);   // s(theta2)

// Accelerations and internal forces from the Newton-Euler equations of the links.
struct ClamSolution {
  double aA = 0.0, aC = 0.0;      // [m/s^2], positive down
  double stop_force_N = 0.0;      // lambda: reaction of the stop (or held load) between A and C
  bool ok = true;                 // false if the system was singular (counted by the caller)
};

// The ropes' vertical pulls on the head A and on the pulley block C (up). Both ropes come
// down from the tip sheave to the head, pulling it up by (T1 + T2) cos, cos = the hanging
// rope's vertical share; the closing rope then runs n = closing_parts parts between the
// head and the block, pulling the block up by n T2 and the head down by n T2. Virtual work
// agrees: the closing rope's hanging length is reach + n s, and T2 d(reach + n s) =
// T2 d(reach) + n T2 (dyC - dyA). The thesis's eq 2.3 ((T1 - T2) / 2 at A) is n = 2 hanging
// straight (docs/model.md, Decisions).
struct ClamPulls {
  double at_A = 0.0, at_C = 0.0;  // [N], up
};
inline ClamPulls clam_pulls(const ClamParams& c, double t1, double t2, double cos_hang) {
  const double n = c.closing_parts;
  return {(t1 + t2) * cos_hang - n * t2, n * t2};
}

// Free state: the 13 x 13 linear system of eqs 2.1-2.7 (unknowns of Table 2.2).
// t1, t2 are the ropes' vertical pulls at A and at C (clam_pulls); lift_N an upward push
// of the world (contacts, buoyancy) on the clam, applied at C where the buckets hinge.
ClamSolution clam_free(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                       double g, double lift_N = 0.0);

// Distributed / Full states: the links locked at a stop (or on a load) move as one body;
// the same 13 equations plus the stop force lambda and a_A = a_C (14 x 14). With one rope
// slack this reduces to eq 2.8. stop_sign = +1 for a closing stop (closed limit or a held
// load: pushes A up and C down), -1 for the opening stop.
ClamSolution clam_locked(const ClamParams& c, const ClamKinematics& k, double t1, double t2,
                         double g, double load_kg, double stop_sign, double lift_N = 0.0);

// Eq 2.9: common vertical velocity after the completely inelastic collision into a stop.
double clam_inelastic_velocity(const ClamParams& c, const ClamKinematics& k, double vA,
                               double vC, double load_kg);

// Gap between the two lips, and |ds/dtheta2|: how far A and C move apart per radian the
// buckets turn (the stop force lambda's lever on the buckets, core/clam_grip.h).
double clam_jaw_gap(const ClamParams& c, double theta2);
double clam_ds_dtheta2(const ClamParams& c, const ClamKinematics& k);

// The grab as one body turning about its head A (docs/model.md, Coupling and swing): its
// mass, its centre of gravity's distance below A along its axis, and its moment of inertia
// about that centre for a tilt of the axis (the links' own, eq 2.1's rods, and theirs about
// the common centre). Taken at the opening half-way between open and closed, with a held load
// as a point in the jaws half a lip below C: the opening moves the centre by centimetres
// (docs/model.md), and a constant d and J keep the swing's equations conservative.
struct SwingBody {
  double mass_kg = 0.0;
  double cog_below_a_m = 0.0;        // d
  double inertia_kgm2 = 0.0;         // J_G, about the centre of gravity
  double about_a_kgm2() const { return inertia_kgm2 + mass_kg * cog_below_a_m * cog_below_a_m; }
};
SwingBody swing_body(const ClamParams& c, double load_kg);

// Total mass including a held load, and the kinetic + potential energy (y down).
double clam_mass(const ClamParams& c, double load_kg);
double clam_energy(const ClamParams& c, const ClamKinematics& k, double yA, double yC,
                   double vA, double load_kg, double g);

}  // namespace clamsim::core
