// The loose loads' shapes as the contact and water code sees them: proxy spheres, mass
// properties and how much of each proxy is under water.
#pragma once

#include <Eigen/Core>
#include <array>

#include "contact.h"
#include "world.h"

namespace clamsim::core {

inline constexpr int kMaxProxies = 12;

struct LoadGeometry {
  int count = 0;
  std::array<Vec3d, kMaxProxies> local;     // proxy centres in the load's frame
  double radius_m = 0.0;                    // every proxy has the same radius
  double volume_each_m3 = 0.0;              // the load's volume shared among its proxies
  double area_each_m2 = 0.0;                // projected area for drag, per proxy
  Vec3d inertia_kgm2 = Vec3d::Zero();       // principal moments, load-frame axes
  double bound_radius_m = 0.0;              // every proxy lies within this of the centre
};

// A cylinder is a row of spheres of its radius along its axis (it rolls like a cylinder);
// a sphere is itself; a box is a grid of spheres of its smallest half-size (a rounded box).
LoadGeometry load_geometry(const LoadParams& load);

// A radius about the load's centre that contains all of it (cheap: for broad-phase tests).
double load_bound_radius_m(const LoadParams& load);

// Fraction of one proxy's share of volume below the surface; its centre is depth_m below the
// surface (negative above). Exact for a sphere's cap and a horizontal cylinder's segment;
// linear through the slab for a box.
double proxy_submerged_fraction(LoadShape shape, double depth_m, double radius_m);

}  // namespace clamsim::core
