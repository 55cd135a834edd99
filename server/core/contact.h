// Contact geometry and the penalty contact law shared by the clam, the loads and the dam.
//
// Every moving body is described to the contact code as a few spheres ("proxies"): a log is
// a row of spheres along its axis, the clam's links a row along each link. Spheres against
// boxes and against spheres have closed-form penetrations, are cheap enough for the 1 ms
// step, and roll like the shapes they stand for.
#pragma once

#include <Eigen/Core>

#include "world.h"

namespace clamsim::core {

using Vec3d = Eigen::Vector3d;

// Left uninitialised by default (Eigen's vectors are): the contact code keeps fixed arrays
// of these and of hits, of which a step fills a few; zeroing them all cost more than the tests.
struct Sphere {
  Vec3d center;
  double radius = 0.0;
};

// Where and how deep a sphere overlaps something. normal points from the other body into
// the sphere (the direction the sphere is pushed).
struct Penetration {
  bool hit = false;
  double depth_m = 0.0;
  Vec3d normal;                   // set when hit
  Vec3d point;                    // set when hit: on the other body's surface
};

Penetration sphere_vs_box(const Sphere& s, const SolidBox& box);
Penetration sphere_vs_sphere(const Sphere& s, const Sphere& other);

// Cheap rejection: could anything within `radius` of `center` touch the box?
bool near_box(const Vec3d& center, double radius, const SolidBox& box);

// Force on the sphere's body from a penetration, with relative velocity v_rel (sphere's
// contact point minus the other body's). Stiffness m w^2 and damping 2 zeta m w for the
// effective mass `mass_kg`; Coulomb friction regularised below the friction velocity.
// The normal part never pulls (tension never negative) and stops growing past 0.1 m of
// penetration, so a body that starts inside a solid is pushed out, not shot out.
Vec3d contact_force(const ContactParams& p, double mass_kg, const Penetration& pen,
                    const Vec3d& v_rel);

}  // namespace clamsim::core
