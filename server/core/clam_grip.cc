#include "core/clam_grip.h"

#include <algorithm>
#include <cmath>

namespace clamsim::core {

namespace {

// Below this curl the shell is taken as the straight chord (the arc's radius grows without
// bound as the curl goes to zero).
constexpr double kStraight_rad = 1e-4;

double cross(const PlanePoint& a, const PlanePoint& b) { return a.x() * b.y() - a.y() * b.x(); }

// The shell's frame at opening phi: the chord from C to the lip runs along d; the inside of
// the jaws lies towards n_in. The arc bulges away from the inside, its centre o on it.
struct Shell {
  double length = 0.0, curl = 0.0, radius = 0.0;
  PlanePoint d, n_in, lip, o;
};

Shell shell_at(const ClamParams& c, double phi) {
  Shell s;
  s.length = c.lip_length_m;
  s.curl = c.shell_curl_rad;
  s.d = PlanePoint(std::sin(phi), -std::cos(phi));
  s.n_in = PlanePoint(-std::cos(phi), -std::sin(phi));
  s.lip = s.length * s.d;
  if (s.curl >= kStraight_rad) {
    const double half = 0.5 * s.curl;
    s.radius = 0.5 * s.length / std::sin(half);
    s.o = 0.5 * s.lip + s.n_in * (s.radius * std::cos(half));
  }
  return s;
}

ShellTouch touch_at(const PlanePoint& p, const PlanePoint& q, const PlanePoint& n_in) {
  ShellTouch t;
  t.point = q;
  const PlanePoint gap = p - q;
  t.distance_m = gap.norm();
  t.normal = t.distance_m > 1e-9 ? PlanePoint(gap / t.distance_m) : n_in;
  t.inside = gap.dot(n_in) > 0.0 || t.distance_m <= 1e-9;
  return t;
}

}  // namespace

PlanePoint shell_point(const ClamParams& c, double phi_rad, double t) {
  const Shell s = shell_at(c, phi_rad);
  if (s.curl < kStraight_rad) return t * s.lip;
  const PlanePoint from = -s.o;   // centre to C
  const double turn = (cross(from, s.lip - s.o) >= 0.0 ? 1.0 : -1.0) * t * s.curl;
  const double ct = std::cos(turn), st = std::sin(turn);
  return s.o + PlanePoint(ct * from.x() - st * from.y(), st * from.x() + ct * from.y());
}

std::array<PlanePoint, kShellProxies> shell_proxy_points(const ClamParams& c, double phi_rad) {
  const Shell s = shell_at(c, phi_rad);
  std::array<PlanePoint, kShellProxies> out;
  if (s.curl < kStraight_rad) {
    for (int i = 0; i < kShellProxies; ++i) out[i] = (i + 0.5) / kShellProxies * s.lip;
    return out;
  }
  // the first point, then each next one turned by the same step about the centre
  const double sign = cross(-s.o, s.lip - s.o) >= 0.0 ? 1.0 : -1.0;
  const double first = sign * 0.5 / kShellProxies * s.curl, step = 2.0 * first;
  const double cf = std::cos(first), sf = std::sin(first), cs = std::cos(step), ss = std::sin(step);
  PlanePoint r(cf * -s.o.x() - sf * -s.o.y(), sf * -s.o.x() + cf * -s.o.y());
  for (int i = 0; i < kShellProxies; ++i) {
    out[i] = s.o + r;
    r = PlanePoint(cs * r.x() - ss * r.y(), ss * r.x() + cs * r.y());
  }
  return out;
}

ShellTouch shell_touch(const ClamParams& c, double phi_rad, const PlanePoint& p) {
  const Shell s = shell_at(c, phi_rad);
  if (s.curl < kStraight_rad) {
    const double t = std::clamp(p.dot(s.d) / s.length, 0.0, 1.0);
    return touch_at(p, t * s.lip, s.n_in);
  }
  const PlanePoint u = p - s.o;
  const double r = u.norm();
  // Within the arc's span (its middle points away from the inside, -n_in, from the centre):
  // the nearest point is on the circle, and the point is inside where it is nearer the
  // centre than the shell is.
  if (r > 1e-9 && (u / r).dot(-s.n_in) >= std::cos(0.5 * s.curl)) {
    ShellTouch t;
    t.point = s.o + u * (s.radius / r);
    t.distance_m = std::fabs(s.radius - r);
    t.inside = r < s.radius;
    t.normal = (t.inside ? -1.0 : 1.0) * u / r;
    return t;
  }
  // Otherwise the nearer end: the hinge C or the lip.
  const bool at_lip = (p - s.lip).squaredNorm() < p.squaredNorm();
  return touch_at(p, at_lip ? s.lip : PlanePoint(PlanePoint::Zero()), s.n_in);
}

double contact_support(const PlanePoint& normal, double friction) {
  return normal.y() + friction * std::fabs(normal.x());
}

GripGeometry grip_geometry(const std::array<ShellTouch, 2>& touch, double friction) {
  GripGeometry g;
  for (std::size_t i = 0; i < 2; ++i) {
    g.support[i] = contact_support(touch[i].normal, friction);
    g.lever_m[i] = std::fabs(cross(touch[i].point, touch[i].normal));
  }
  return g;
}

std::array<double, 2> shell_normal_forces(const GripGeometry& g, double ds_dtheta2,
                                          double stop_force_N) {
  const double moment = 0.5 * std::max(0.0, stop_force_N) * std::fabs(ds_dtheta2);
  std::array<double, 2> n{};
  for (std::size_t i = 0; i < 2; ++i) n[i] = moment / std::max(g.lever_m[i], kMinGripLever_m);
  return n;
}

double grip_capacity_N(const GripGeometry& g, double ds_dtheta2, double stop_force_N) {
  const std::array<double, 2> n = shell_normal_forces(g, ds_dtheta2, stop_force_N);
  return n[0] * g.support[0] + n[1] * g.support[1];
}

}  // namespace clamsim::core
