// Contact geometry and the penalty contact law shared by the clam, the loads and the dam.
//
// Every moving body is described to the contact code as a few spheres ("proxies"): a log is
// a row of spheres along its axis, the clam's links a row along each link. Spheres against
// boxes and against spheres have closed-form penetrations, are cheap enough for every
// step, and roll like the shapes they stand for.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <array>

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

// One contact a body has this step: how it overlaps, the relative velocity at the contact
// point (body minus other), and the other's index (a solid or a load).
struct Hit {
  Penetration pen;
  Vec3d velocity;
  int other = -1;
  bool on_head = false;   // a clam proxy on the head (at A), not on the buckets (at C)
  bool on_held = false;   // a proxy of the load the clam holds
};

// The contacts of one body against one kind of thing (solids, the clam, another load),
// at most kMax; the first n are set.
struct Hits {
  static constexpr int kMax = 64;
  std::array<Hit, kMax> at;
  int n = 0;
  bool full() const { return n >= kMax; }
  void add(const Penetration& pen, const Vec3d& velocity, int other, bool on_head = false,
           bool on_held = false) {
    if (pen.hit && n < kMax)
      at[static_cast<std::size_t>(n++)] = {pen, velocity, other, on_head, on_held};
  }
};

// What a body's contacts do to it: the penalty forces (contact_force, each hit carrying
// mass / n so that n hits hold the body as one would), summed, with their torque about
// `centre`, and the fastest approach among them. `each(hit, force)` sees every hit's force
// (markers, events).
struct ContactSum {
  Vec3d force = Vec3d::Zero();
  Vec3d torque = Vec3d::Zero();
  double approach_m_per_s = 0.0;
};

// sum_contacts over the hits `keep` picks only (the effective mass shared among those):
// one part of a body's hits without copying them out (a Hits is 64 hits to construct).
template <class Keep, class Each>
ContactSum sum_contacts_of(const ContactParams& p, double mass_kg, const Hits& hits,
                           const Vec3d& centre, Keep&& keep, Each&& each) {
  ContactSum sum;
  int n = 0;
  for (int k = 0; k < hits.n; ++k) n += keep(hits.at[static_cast<std::size_t>(k)]) ? 1 : 0;
  for (int k = 0; k < hits.n; ++k) {
    const Hit& hit = hits.at[static_cast<std::size_t>(k)];
    if (!keep(hit)) continue;
    const Vec3d f = contact_force(p, mass_kg / n, hit.pen, hit.velocity);
    sum.force += f;
    sum.torque += (hit.pen.point - centre).cross(f);
    sum.approach_m_per_s = std::max(sum.approach_m_per_s, -hit.velocity.dot(hit.pen.normal));
    each(hit, f);
  }
  return sum;
}

template <class Each>
ContactSum sum_contacts(const ContactParams& p, double mass_kg, const Hits& hits,
                        const Vec3d& centre, Each&& each) {
  return sum_contacts_of(p, mass_kg, hits, centre, [](const Hit&) { return true; }, each);
}

}  // namespace clamsim::core
