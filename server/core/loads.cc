#include "core/loads.h"

#include <algorithm>
#include <cmath>

namespace clamsim::core {

namespace {

constexpr double kPi = 3.14159265358979323846;

// n evenly spaced positions in [-half, half], at most `spacing` apart.
int row(double half, double spacing, int max_n, std::array<double, kMaxProxies>& at) {
  int n = half <= 1e-9 ? 1 : 1 + static_cast<int>(std::ceil(2.0 * half / spacing));
  n = std::clamp(n, 1, max_n);
  for (int i = 0; i < n; ++i) at[i] = n == 1 ? 0.0 : -half + 2.0 * half * i / (n - 1);
  return n;
}

}  // namespace

const char* to_string(LoadShape s) {
  switch (s) {
    case LoadShape::Sphere: return "sphere";
    case LoadShape::Box: return "box";
    case LoadShape::Cylinder: return "cylinder";
  }
  return "?";
}

double load_volume_m3(const LoadParams& l) {
  switch (l.shape) {
    case LoadShape::Sphere: return 4.0 / 3.0 * kPi * l.radius_m * l.radius_m * l.radius_m;
    case LoadShape::Cylinder: return kPi * l.radius_m * l.radius_m * l.length_m;
    case LoadShape::Box: return l.box_size_m.prod();
  }
  return 0.0;
}

double load_bound_radius_m(const LoadParams& l) {
  switch (l.shape) {
    case LoadShape::Sphere: return l.radius_m;
    case LoadShape::Cylinder: return std::max(0.5 * l.length_m, l.radius_m);
    case LoadShape::Box: return 0.5 * l.box_size_m.norm();
  }
  return 0.0;
}

LoadGeometry load_geometry(const LoadParams& l) {
  LoadGeometry g;
  g.local.fill(Vec3d::Zero());   // Eigen leaves `{}` uninitialised
  const double m = l.mass_kg;
  std::array<double, kMaxProxies> at{};
  switch (l.shape) {
    case LoadShape::Sphere: {
      g.count = 1;
      g.radius_m = l.radius_m;
      g.area_each_m2 = kPi * l.radius_m * l.radius_m;
      g.inertia_kgm2 = Vec3d::Constant(0.4 * m * l.radius_m * l.radius_m);
      break;
    }
    case LoadShape::Cylinder: {
      const double r = l.radius_m, half = std::max(0.0, 0.5 * l.length_m - r);
      g.radius_m = r;
      g.count = row(half, 2.0 * r, kMaxProxies, at);
      for (int i = 0; i < g.count; ++i) g.local[i] = Vec3d(at[i], 0.0, 0.0);
      g.area_each_m2 = 2.0 * r * l.length_m / g.count;
      const double across = m * (3.0 * r * r + l.length_m * l.length_m) / 12.0;
      g.inertia_kgm2 = Vec3d(0.5 * m * r * r, across, across);
      break;
    }
    case LoadShape::Box: {
      const Vec3d h = 0.5 * l.box_size_m;
      int thin = 0;
      g.radius_m = h.minCoeff(&thin);
      const int u = (thin + 1) % 3, v = (thin + 2) % 3;
      std::array<double, kMaxProxies> au{}, av{};
      const int nu = row(h(u) - g.radius_m, 2.0 * g.radius_m, 4, au);
      const int nv = row(h(v) - g.radius_m, 2.0 * g.radius_m, 3, av);
      for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j) {
          Vec3d p = Vec3d::Zero();
          p(u) = au[i];
          p(v) = av[j];
          g.local[g.count++] = p;
        }
      g.area_each_m2 = 4.0 * h(u) * h(v) / g.count;
      const Vec3d s = l.box_size_m.cwiseProduct(l.box_size_m);
      g.inertia_kgm2 = Vec3d(s.y() + s.z(), s.x() + s.z(), s.x() + s.y()) * (m / 12.0);
      break;
    }
  }
  g.volume_each_m3 = load_volume_m3(l) / g.count;
  for (int i = 0; i < g.count; ++i)
    g.bound_radius_m = std::max(g.bound_radius_m, g.local[i].norm() + g.radius_m);
  return g;
}

double proxy_submerged_fraction(LoadShape shape, double depth_m, double r) {
  const double h = std::clamp(depth_m + r, 0.0, 2.0 * r);  // water above the proxy's bottom
  switch (shape) {
    case LoadShape::Sphere: return h * h * (3.0 * r - h) / (4.0 * r * r * r);
    case LoadShape::Cylinder: {
      const double d = r - h;  // centre above the waterline
      return (r * r * std::acos(std::clamp(d / r, -1.0, 1.0)) - d * std::sqrt(std::max(0.0, r * r - d * d))) /
             (kPi * r * r);
    }
    case LoadShape::Box: return h / (2.0 * r);
  }
  return 0.0;
}

void reset_world(const WorldParams& w, WorldState& s) {
  s = WorldState{};
  s.clam_touch_gap_s.fill(1e9);   // nothing touched yet: the first touch counts
  s.load_count = static_cast<int>(std::min<std::size_t>(w.loads.size(), kMaxLoads));
  for (int i = 0; i < s.load_count; ++i) {
    const LoadParams& l = w.loads[static_cast<std::size_t>(i)];
    LoadBody& b = s.loads[static_cast<std::size_t>(i)];
    b = LoadBody{};
    b.position_m = l.position_m;
    b.orientation = Eigen::AngleAxisd(l.yaw_rad, Vec3d::UnitZ()) *
                    Eigen::AngleAxisd(l.pitch_rad, Vec3d::UnitY());
  }
}

}  // namespace clamsim::core
