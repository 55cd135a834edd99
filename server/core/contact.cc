#include "core/contact.h"

#include <algorithm>
#include <cmath>

namespace clamsim::core {

namespace {

constexpr double kMaxForceDepth_m = 0.1;

// The box's yaw as a rotation of x, y about z.
Vec3d to_box(const SolidBox& b, const Vec3d& p) {
  const Vec3d d = p - b.center_m;
  const double c = b.yaw.cos(), s = b.yaw.sin();
  return Vec3d(c * d.x() + s * d.y(), -s * d.x() + c * d.y(), d.z());
}

Vec3d from_box_dir(const SolidBox& b, const Vec3d& v) {
  const double c = b.yaw.cos(), s = b.yaw.sin();
  return Vec3d(c * v.x() - s * v.y(), s * v.x() + c * v.y(), v.z());
}

}  // namespace

bool near_box(const Vec3d& center, double radius, const SolidBox& box) {
  const Vec3d p = to_box(box, center).cwiseAbs() - box.half_size_m;
  return p.x() < radius && p.y() < radius && p.z() < radius;
}

Penetration sphere_vs_box(const Sphere& s, const SolidBox& box) {
  Penetration pen;
  const Vec3d p = to_box(box, s.center);
  const Vec3d& h = box.half_size_m;
  const Vec3d closest = p.cwiseMax(-h).cwiseMin(h);
  const Vec3d d = p - closest;
  const double dist = d.norm();
  Vec3d normal_local;
  if (dist > 1e-12) {
    if (dist >= s.radius) return pen;
    pen.depth_m = s.radius - dist;
    normal_local = d / dist;
  } else {
    // Centre inside the box: leave through the nearest face.
    const Vec3d room = h - p.cwiseAbs();
    int axis = 0;
    room.minCoeff(&axis);
    normal_local = Vec3d::Zero();
    normal_local(axis) = p(axis) >= 0.0 ? 1.0 : -1.0;
    pen.depth_m = s.radius + room(axis);
  }
  pen.hit = true;
  pen.normal = from_box_dir(box, normal_local);
  pen.point = s.center - pen.normal * (s.radius - pen.depth_m);
  return pen;
}

Penetration sphere_vs_sphere(const Sphere& s, const Sphere& other) {
  Penetration pen;
  const Vec3d d = s.center - other.center;
  const double dist = d.norm();
  const double reach = s.radius + other.radius;
  if (dist >= reach) return pen;
  pen.hit = true;
  pen.depth_m = reach - dist;
  pen.normal = dist > 1e-12 ? Vec3d(d / dist) : Vec3d::UnitZ();
  pen.point = other.center + pen.normal * other.radius;
  return pen;
}

Vec3d contact_force(const ContactParams& p, double mass_kg, const Penetration& pen,
                    const Vec3d& v_rel) {
  if (!pen.hit) return Vec3d::Zero();
  const double w = p.natural_frequency_rad_per_s;
  const double k = mass_kg * w * w;
  const double c = 2.0 * p.damping_ratio * mass_kg * w;
  const double vn = v_rel.dot(pen.normal);  // > 0 separating
  const double fn = std::max(0.0, k * std::min(pen.depth_m, kMaxForceDepth_m) - c * vn);
  const Vec3d vt = v_rel - vn * pen.normal;
  const double vt_norm = vt.norm();
  const double ve = p.friction_velocity_m_per_s;
  const Vec3d ft = vt_norm > 0.0 ? Vec3d(-p.friction * fn * vt / std::sqrt(vt_norm * vt_norm + ve * ve))
                                 : Vec3d::Zero();
  return fn * pen.normal + ft;
}

}  // namespace clamsim::core
