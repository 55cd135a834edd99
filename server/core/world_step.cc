#include "core/world_step.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "core/clam.h"
#include "core/clam_grip.h"
#include "core/loads.h"

namespace clamsim::core {

namespace {

constexpr double kImpactSpeed_m_per_s = 0.5;  // a loose load striking something hard
constexpr double kHitGap_s = 0.5;             // contact must have ended this long to count again
constexpr double kSleepSpeed_m_per_s = 0.03;
constexpr double kSleepSpin_rad_per_s = 0.05;
constexpr double kSleepAfter_s = 1.0;
constexpr double kReleaseClear_s = 1.0;       // a released load falls clear of the jaws
constexpr double kWakeMargin_m = 0.3;
// A shell touches a load within this of the proxies' reach: a load resting on a shell sags
// a few millimetres into it (the contacts' penalty springs, docs/model.md)
constexpr double kShellTouch_m = 0.02;
constexpr double kLostBelow_m = -200.0;      // fell out of the world (no solid below it)

struct PosedLoad {
  LoadGeometry geo;
  std::array<Sphere, kMaxProxies> proxy;   // the first geo.count are set
};

PosedLoad pose_load(const LoadParams& l, const LoadBody& b) {
  PosedLoad p;
  p.geo = load_geometry(l);
  const Eigen::Matrix3d r = b.orientation.toRotationMatrix();
  for (int i = 0; i < p.geo.count; ++i)
    p.proxy[i] = {b.position_m + r * p.geo.local[i], p.geo.radius_m};
  return p;
}

Vec3d point_velocity(const LoadBody& b, const Vec3d& p) {
  return b.velocity_m_per_s + b.angular_velocity_rad_per_s.cross(p - b.position_m);
}

void add_marker(WorldState& s, const Vec3d& at, double force, ContactPair pair, SolidKind solid,
                int load) {
  if (!(force > 0.0)) return;
  const ContactMarker mk{{at.x(), at.y(), at.z()}, force, pair, solid, load};
  if (s.marker_count < kMaxContactMarkers) {
    s.markers[static_cast<std::size_t>(s.marker_count++)] = mk;
    return;
  }
  auto weakest = std::min_element(s.markers.begin(), s.markers.end(),
                                  [](const ContactMarker& x, const ContactMarker& y) {
                                    return x.force_N < y.force_N;
                                  });
  if (force > weakest->force_N) *weakest = mk;
}

// Buoyancy and quadratic drag on one proxy; returns the force, at the proxy's centre.
Vec3d water_force(const WaterParams& wp, LoadShape shape, const Sphere& sp, double volume,
                  double area, const Vec3d& velocity, double g, double* fraction) {
  const double f = proxy_submerged_fraction(shape, wp.level_m - sp.center.z(), sp.radius);
  if (fraction) *fraction = f;
  if (f <= 0.0) return Vec3d::Zero();
  const Vec3d lift(0.0, 0.0, wp.density_kg_per_m3 * g * volume * f);
  const Vec3d drag = -0.5 * wp.density_kg_per_m3 * wp.drag_coefficient * area * f *
                     velocity.norm() * velocity;
  // Quadratic drag fades at low speed; the waves a moving body makes still take energy.
  const Vec3d radiation = -wp.density_kg_per_m3 * volume * f / wp.heave_damping_s * velocity;
  return lift + drag + radiation;
}


}  // namespace

const char* to_string(SolidKind k) {
  switch (k) {
    case SolidKind::Deck: return "deck";
    case SolidKind::Rack: return "trash rack";
    case SolidKind::Gate: return "gate";
    case SolidKind::Wall: return "intake wall";
    case SolidKind::Floor: return "intake floor";
    case SolidKind::Truck: return "truck";
    case SolidKind::Bed: return "reservoir bed";
  }
  return "?";
}

const char* to_string(ContactPair p) {
  switch (p) {
    case ContactPair::ClamWorld: return "clam-world";
    case ContactPair::LoadWorld: return "load-world";
    case ContactPair::ClamLoad: return "clam-load";
    case ContactPair::LoadLoad: return "load-load";
  }
  return "?";
}

namespace {

// What the clam's steps need of it and of the load it holds.
struct ClamBody {
  ClamProxies proxies;
  int held = -1;
  double mass_kg = 0.0;        // clam and held load
  const HeadMass* head_mass = nullptr;   // what a push on the head meets
  PosedLoad held_shape;        // set when held >= 0
};

ClamBody clam_body(const MachineParams& m, const WorldParams& w, const WorldState& s,
                   const ClamPose& pose, const HeadMass& head_mass) {
  ClamBody c;
  c.head_mass = &head_mass;
  c.proxies = clam_proxies(m.clam, pose);
  c.held = s.held_load;
  const auto h = static_cast<std::size_t>(c.held);
  c.mass_kg = clam_mass(m.clam, c.held >= 0 ? w.loads[h].mass_kg : 0.0);
  if (c.held >= 0) c.held_shape = pose_load(w.loads[h], s.loads[h]);
  return c;
}

// The clam's hits summed by part: the head's sized by the mass a push at A meets, the
// buckets' and a held load's by the whole clam's, each at most cap_kg (a load it hits).
template <class Each>
ContactSum sum_clam_contacts(const ContactParams& p, const ClamBody& clam, double cap_kg,
                             const Hits& hits, const Vec3d& centre, Each&& each) {
  ContactSum total;
  for (const bool head : {false, true}) {   // the buckets' hits, then the head's
    const auto on_part = [head](const Hit& hit) { return hit.on_head == head; };
    if (std::none_of(hits.at.begin(), hits.at.begin() + hits.n, on_part)) continue;
    const double mass = std::min(head ? clam.head_mass->kg() : clam.mass_kg, cap_kg);
    const ContactSum sum = sum_contacts_of(p, mass, hits, centre, on_part, each);
    total.force += sum.force;
    total.torque += sum.torque;
    total.approach_m_per_s = std::max(total.approach_m_per_s, sum.approach_m_per_s);
  }
  return total;
}

// A body's contacts on the clam: the force, and the vertical part of it that the head's
// proxies took (it acts at A; the rest at C).
struct OnClam {
  Vec3d force = Vec3d::Zero();
  double head_up_N = 0.0;
  double held_up_N = 0.0;   // of the vertical part, what the held load's proxies took
  OnClam& operator+=(const OnClam& o) {
    force += o.force;
    head_up_N += o.head_up_N;
    held_up_N += o.held_up_N;
    return *this;
  }
};

// 1. The clam and the load in its jaws against the dam's solids; counts new hits (a solid
// touched again after kHitGap_s, faster than kHitSpeed_m_per_s).
OnClam clam_against_solids(const WorldParams& w, WorldState& s, const ClamPose& pose,
                           const ClamBody& clam, double h) {
  const ClamProxies& cl = clam.proxies;
  Hits hits;
  const int solids = static_cast<int>(w.solids.size());
  for (int j = 0; j < solids; ++j) {
    const SolidBox& box = w.solids[static_cast<std::size_t>(j)];
    if (near_box(cl.centre, cl.bound_radius_m, box))
      for (int i = 0; i < cl.count && !hits.full(); ++i)
        hits.add(sphere_vs_box(cl.sphere[i], box), cl.on_buckets[i] ? pose.vel_c : pose.vel_a, j,
                 !cl.on_buckets[i]);
    for (int i = 0; clam.held >= 0 && i < clam.held_shape.geo.count && !hits.full(); ++i)
      hits.add(sphere_vs_box(clam.held_shape.proxy[i], box), pose.vel_c, j, false, true);
  }
  std::array<double, 32> approach{};
  std::uint32_t touching = 0;
  OnClam out;
  const ContactSum sum = sum_clam_contacts(w.contact, clam, clam.mass_kg, hits, pose.c,
                                           [&](const Hit& hit, const Vec3d& f) {
    if (hit.on_head) out.head_up_N += f.z();
    if (hit.on_held) out.held_up_N += f.z();
    const SolidKind kind = w.solids[static_cast<std::size_t>(hit.other)].kind;
    add_marker(s, hit.pen.point, f.norm(), ContactPair::ClamWorld, kind, clam.held);
    if (hit.other < 32) {
      touching |= 1u << hit.other;
      approach[hit.other] = std::max(approach[hit.other], -hit.velocity.dot(hit.pen.normal));
    }
  });
  for (int j = 0; j < std::min(solids, 32); ++j) {
    const bool now = (touching >> j) & 1u, before = (s.clam_touching >> j) & 1u;
    if (now && !before && s.clam_touch_gap_s[j] >= kHitGap_s &&
        approach[j] > kHitSpeed_m_per_s) {
      const SolidKind kind = w.solids[static_cast<std::size_t>(j)].kind;
      if (kind == SolidKind::Rack || kind == SolidKind::Gate) ++s.events.rack_gate_hits;
      else if (kind == SolidKind::Deck || kind == SolidKind::Wall || kind == SolidKind::Truck)
        ++s.events.structure_hits;   // the intake floor and reservoir bed are working surfaces
    }
    s.clam_touch_gap_s[j] = now ? 0.0 : s.clam_touch_gap_s[j] + h;
  }
  s.clam_touching = touching;
  out.force = sum.force;
  return out;
}

// 2. The clam against loose loads near it (they wake): the clam's reaction goes to each
// load as a push that advance_loads applies.
OnClam clam_against_loads(const WorldParams& w, WorldState& s, const ClamPose& pose,
                          const ClamBody& clam, LoadPushes& pushes) {
  const ClamProxies& cl = clam.proxies;
  OnClam on_clam;
  for (int i = 0; i < s.load_count; ++i) {
    LoadBody& b = s.loads[static_cast<std::size_t>(i)];
    if (b.held || b.ignore_clam_s > 0.0) continue;
    const LoadParams& lpar = w.loads[static_cast<std::size_t>(i)];
    if ((b.position_m - cl.centre).norm() > load_bound_radius_m(lpar) + cl.bound_radius_m + kWakeMargin_m)
      continue;
    const PosedLoad lp = pose_load(lpar, b);
    b.asleep = false;
    b.quiet_s = 0.0;
    Hits hits;
    for (int a = 0; a < cl.count; ++a)
      for (int k = 0; k < lp.geo.count && !hits.full(); ++k) {
        const Penetration pen = sphere_vs_sphere(cl.sphere[a], lp.proxy[k]);
        if (pen.hit)
          hits.add(pen, (cl.on_buckets[a] ? pose.vel_c : pose.vel_a) - point_velocity(b, pen.point), i,
                   !cl.on_buckets[a]);
      }
    const ContactSum sum = sum_clam_contacts(w.contact, clam, lpar.mass_kg, hits, b.position_m,
                                             [&](const Hit& hit, const Vec3d& f) {
      if (hit.on_head) on_clam.head_up_N += f.z();
      add_marker(s, hit.pen.point, f.norm(), ContactPair::ClamLoad, SolidKind::Deck, i);
    });
    on_clam.force += sum.force;
    pushes.force[i] -= sum.force;
    pushes.torque[i] -= sum.torque;
  }
  return on_clam;
}

// 3. The water: buoyancy of the clam's steel and of the held load, drag on both.
Vec3d water_on_clam(const MachineParams& m, const WorldParams& w, const ClamPose& pose,
                    const ClamBody& clam, const Vec3d& current, double* submerged,
                    double* held_up_N) {
  const WaterParams& wp = w.water;
  const double g = m.crane.gravity_m_per_s2;
  double z_low = pose.c.z();
  for (const Vec3d& lip : pose.lip) z_low = std::min(z_low, lip.z());
  const double z_high = pose.a.z();
  const double f = std::clamp((wp.level_m - z_low) / std::max(1e-6, z_high - z_low), 0.0, 1.0);
  *submerged = f;
  const Vec3d v = 0.5 * (pose.vel_a + pose.vel_c) - current;   // through the water
  Vec3d force(0.0, 0.0, wp.density_kg_per_m3 * g * m.clam.displaced_volume_m3 * f);
  force -= 0.5 * wp.density_kg_per_m3 * wp.drag_coefficient * m.clam.drag_area_m2 * f *
           v.norm() * v;
  if (clam.held >= 0) {
    const PosedLoad& shape = clam.held_shape;
    const LoadShape kind = w.loads[static_cast<std::size_t>(clam.held)].shape;
    Vec3d on_load = Vec3d::Zero();
    for (int i = 0; i < shape.geo.count; ++i)
      on_load += water_force(wp, kind, shape.proxy[i], shape.geo.volume_each_m3,
                             shape.geo.area_each_m2, pose.vel_c - current, g, nullptr);
    force += on_load;
    *held_up_N += on_load.z();
  }
  return force;
}

}  // namespace

ClamWorldForces clam_world_forces(const MachineParams& m, const WorldParams& w, WorldState& s,
                                  const ClamPose& pose, double h, const Vec3d& current,
                                  const HeadMass& head_mass, LoadPushes& pushes) {
  ClamWorldForces out;
  pushes.force.fill(Vec3d::Zero());
  pushes.torque.fill(Vec3d::Zero());
  s.marker_count = 0;
  const ClamBody clam = clam_body(m, w, s, pose, head_mass);
  OnClam contacts = clam_against_solids(w, s, pose, clam, h);
  contacts += clam_against_loads(w, s, pose, clam, pushes);
  out.force_N = contacts.force;
  out.head_up_N = contacts.head_up_N;
  out.held_up_N = contacts.held_up_N;
  // Loose loads pushing on the load in the jaws (found while moving them, one step ago).
  if (clam.held >= 0) {
    out.force_N += s.held_load_push_N;
    out.held_up_N += s.held_load_push_N.z();
  }
  out.contact_N = out.force_N.norm();
  out.force_N += water_on_clam(m, w, pose, clam, current, &out.submerged, &out.held_up_N);
  return out;
}

// A load can bear the shells' squeeze when it rests on a solid (the deck, the bay floor, the
// truck's bed) or is out of the water; one that floats and touches no solid is pushed aside
// or under by shells that do not hold it (docs/model.md, Grip).
static bool bears_squeeze(const WorldParams& w, int index, const LoadBody& b, const PosedLoad& pl) {
  if (load_submerged_fraction(w, index, b) <= 0.0) return true;
  for (const SolidBox& box : w.solids) {
    if (!near_box(b.position_m, pl.geo.bound_radius_m, box)) continue;
    for (int k = 0; k < pl.geo.count; ++k)
      if (sphere_vs_box(pl.proxy[k], box).hit) return true;
  }
  return false;
}

JawObject find_jaw_object(const MachineParams& m, const WorldParams& w, const WorldState& s,
                          const ClamPose& pose, int* load_index) {
  JawObject best;
  if (load_index) *load_index = -1;
  if (s.held_load >= 0) return best;
  const ClamParams& cp = m.clam;
  const double half_width = 0.5 * cp.bucket_width_m;
  for (int i = 0; i < s.load_count; ++i) {
    const LoadBody& b = s.loads[static_cast<std::size_t>(i)];
    if (b.ignore_clam_s > 0.0) continue;
    const LoadParams& lpar = w.loads[static_cast<std::size_t>(i)];
    if ((b.position_m - pose.c).norm() > cp.lip_length_m + load_bound_radius_m(lpar)) continue;
    const PosedLoad lp = pose_load(lpar, b);
    const double touch_at = lp.geo.radius_m + kClamProxyRadius_m + kShellTouch_m;
    for (int k = 0; k < lp.geo.count; ++k) {
      // In the clam's frame with C at the origin: x across the jaws, z up; the -x bucket
      // sees the proxy mirrored.
      const Vec3d local = pose.frame.transpose() * (lp.proxy[k].center - pose.c);
      if (std::fabs(local.y()) > half_width) continue;
      std::array<ShellTouch, 2> touch;
      bool both = true;
      for (std::size_t side = 0; side < 2; ++side) {
        const PlanePoint p(side == 0 ? local.x() : -local.x(), local.z());
        touch[side] = shell_touch(cp, pose.jaw_opening_rad, p);
        both = both && touch[side].inside && touch[side].distance_m <= touch_at;
      }
      if (!both) continue;
      const GripGeometry g = grip_geometry(touch, w.contact.friction);
      const double support = g.support[0] + g.support[1];
      if (!best.present || support > best.support[0] + best.support[1]) {
        best = {true, bears_squeeze(w, i, b, lp), lpar.mass_kg, g.support, g.lever_m};
        if (load_index) *load_index = i;
      }
    }
  }
  return best;
}

void grip_load(WorldState& s, int index, const ClamPose& pose) {
  LoadBody& b = s.loads[static_cast<std::size_t>(index)];
  b.held = true;
  b.asleep = false;
  b.held_offset_m = pose.frame.transpose() * (b.position_m - pose.c);
  b.held_orientation = Eigen::Quaterniond(pose.frame).conjugate() * b.orientation;
  s.held_load = index;
  ++s.events.grips;
}

void release_load(WorldState& s, const ClamPose& pose) {
  if (s.held_load < 0) return;
  LoadBody& b = s.loads[static_cast<std::size_t>(s.held_load)];
  b.held = false;
  b.velocity_m_per_s = pose.vel_c;
  b.angular_velocity_rad_per_s.setZero();
  b.ignore_clam_s = kReleaseClear_s;
  b.quiet_s = 0.0;
  s.held_load = -1;
  ++s.events.releases;
}

namespace {

// The loose loads' forces in one sub-step, which of them touch something, and the proxies of
// those awake (sleeping loads stay unposed).
struct LoadForces {
  std::array<Vec3d, kMaxLoads> force, torque;
  std::array<bool, kMaxLoads> touching{};
  std::array<double, kMaxLoads> approach{};
  std::array<PosedLoad, kMaxLoads> posed;
};

void wake(LoadBody& b) {
  b.asleep = false;
  b.quiet_s = 0.0;
}

// A held load rides in the jaws; a current carries off what floats free (a load asleep
// touching nothing wakes in it); the clam's pushes start each load's sums.
void carry_and_start(WorldState& s, const ClamPose& pose, const LoadPushes& pushes, double h,
                     bool flowing, LoadForces& lf) {
  for (int i = 0; i < s.load_count; ++i) {
    LoadBody& b = s.loads[static_cast<std::size_t>(i)];
    if (flowing && b.asleep && !b.in_contact) wake(b);
    if (b.ignore_clam_s > 0.0) b.ignore_clam_s -= h;
    if (b.held) {
      b.position_m = pose.c + pose.frame * b.held_offset_m;
      b.orientation = Eigen::Quaterniond(pose.frame) * b.held_orientation;
      b.velocity_m_per_s = pose.vel_c;
      b.angular_velocity_rad_per_s.setZero();
    }
    lf.force[i] = pushes.force[i];
    lf.torque[i] = pushes.torque[i];
  }
}

// A moving load wakes a sleeping neighbour before forces are summed.
void wake_neighbours(const WorldParams& w, WorldState& s) {
  for (int i = 0; i < s.load_count; ++i) {
    const LoadBody& bi = s.loads[static_cast<std::size_t>(i)];
    if (bi.held || bi.asleep) continue;
    for (int j = 0; j < s.load_count; ++j) {
      LoadBody& bj = s.loads[static_cast<std::size_t>(j)];
      if (i == j || bj.held || !bj.asleep) continue;
      const double reach = load_bound_radius_m(w.loads[static_cast<std::size_t>(i)]) +
                           load_bound_radius_m(w.loads[static_cast<std::size_t>(j)]) + kWakeMargin_m;
      if ((bi.position_m - bj.position_m).norm() < reach) wake(bj);
    }
  }
}

// Gravity, and the water proxy by proxy (off-centre buoyancy rights a tilted log); a wet
// load's spin is damped.
void gravity_and_water(const WorldParams& w, const LoadBody& b, int i, double gravity,
                       const Vec3d& current, LoadForces& lf) {
  const LoadParams& lp = w.loads[static_cast<std::size_t>(i)];
  const PosedLoad& pl = lf.posed[i];
  lf.force[i] += lp.mass_kg * Vec3d(0.0, 0.0, -gravity);
  double wet = 0.0;
  for (int k = 0; k < pl.geo.count; ++k) {
    double frac = 0.0;
    const Vec3d f = water_force(w.water, lp.shape, pl.proxy[k], pl.geo.volume_each_m3,
                                pl.geo.area_each_m2,
                                point_velocity(b, pl.proxy[k].center) - current, gravity, &frac);
    lf.force[i] += f;
    lf.torque[i] += (pl.proxy[k].center - b.position_m).cross(f);
    wet += frac / pl.geo.count;
  }
  if (wet > 0.0) {
    const Eigen::Matrix3d r = b.orientation.toRotationMatrix();
    const Eigen::Matrix3d inertia = r * pl.geo.inertia_kgm2.asDiagonal() * r.transpose();
    lf.torque[i] -= wet * (inertia * b.angular_velocity_rad_per_s) / w.water.angular_damping_s;
  }
}

// The dam's solids against load i.
void load_against_solids(const WorldParams& w, WorldState& s, int i, LoadForces& lf) {
  const LoadBody& b = s.loads[static_cast<std::size_t>(i)];
  const PosedLoad& pl = lf.posed[i];
  Hits hits;
  for (int j = 0; j < static_cast<int>(w.solids.size()); ++j) {
    const SolidBox& box = w.solids[static_cast<std::size_t>(j)];
    if (!near_box(b.position_m, pl.geo.bound_radius_m, box)) continue;
    for (int k = 0; k < pl.geo.count && !hits.full(); ++k) {
      const Penetration pen = sphere_vs_box(pl.proxy[k], box);
      if (pen.hit) hits.add(pen, point_velocity(b, pen.point), j);
    }
  }
  // rolling resistance against the spin about the contact's tangent axes (world.h)
  const Vec3d& spin = b.angular_velocity_rad_per_s;
  const double r = pl.geo.radius_m;
  const double spin_eps = w.contact.friction_velocity_m_per_s / r;
  Vec3d rolling = Vec3d::Zero();
  const ContactSum sum = sum_contacts(w.contact, w.loads[static_cast<std::size_t>(i)].mass_kg,
                                      hits, b.position_m, [&](const Hit& hit, const Vec3d& f) {
    add_marker(s, hit.pen.point, f.norm(), ContactPair::LoadWorld,
               w.solids[static_cast<std::size_t>(hit.other)].kind, i);
    const Vec3d& n = hit.pen.normal;
    const Vec3d tangent_spin = spin - spin.dot(n) * n;
    const double fn = std::max(0.0, f.dot(n));
    rolling -= w.contact.rolling_resistance * fn * r * tangent_spin /
               std::sqrt(tangent_spin.squaredNorm() + spin_eps * spin_eps);
  });
  lf.force[i] += sum.force;
  lf.torque[i] += sum.torque + rolling;
  if (hits.n > 0) lf.touching[i] = true;
  lf.approach[i] = std::max(lf.approach[i], sum.approach_m_per_s);
}

// Load i against the other loads: each pair of awake loose loads once (by the lower index),
// a held or sleeping one from here (a sleeping one touched wakes and is posed now).
void load_against_loads(const WorldParams& w, WorldState& s, int i, LoadForces& lf) {
  const LoadBody& b = s.loads[static_cast<std::size_t>(i)];
  const LoadParams& lp = w.loads[static_cast<std::size_t>(i)];
  const PosedLoad& pl = lf.posed[i];
  for (int j = 0; j < s.load_count; ++j) {
    LoadBody& other = s.loads[static_cast<std::size_t>(j)];
    const LoadParams& op = w.loads[static_cast<std::size_t>(j)];
    if (j == i || (!other.held && !other.asleep && j < i)) continue;
    if ((b.position_m - other.position_m).norm() >= pl.geo.bound_radius_m + load_bound_radius_m(op))
      continue;
    if (other.asleep) {
      wake(other);
      lf.posed[j] = pose_load(op, other);
    }
    Hits hits;
    for (int a = 0; a < pl.geo.count; ++a)
      for (int c = 0; c < lf.posed[j].geo.count && !hits.full(); ++c) {
        const Penetration pen = sphere_vs_sphere(pl.proxy[a], lf.posed[j].proxy[c]);
        if (pen.hit) hits.add(pen, point_velocity(b, pen.point) - point_velocity(other, pen.point), j);
      }
    if (hits.n == 0) continue;
    const ContactSum sum = sum_contacts(w.contact, std::min(lp.mass_kg, op.mass_kg), hits,
                                        b.position_m, [&](const Hit& hit, const Vec3d& f) {
      add_marker(s, hit.pen.point, f.norm(), ContactPair::LoadLoad, SolidKind::Deck, i);
    });
    lf.force[i] += sum.force;
    lf.torque[i] += sum.torque;
    // the reaction on j, its torque taken about j's centre instead of i's
    lf.force[j] -= sum.force;
    lf.torque[j] -= sum.torque + (b.position_m - other.position_m).cross(sum.force);
    lf.touching[i] = lf.touching[j] = true;
    lf.approach[i] = std::max(lf.approach[i], sum.approach_m_per_s);
  }
}

// Semi-implicit Euler (velocities first, then positions with the new velocities); a load
// lost to the numerics or out of the world goes back to its start; impacts are counted and
// quiet loads go to sleep (in a current only one held by something, the rack or the bed).
void move_load(const WorldParams& w, WorldState& s, int i, const LoadForces& lf, double h,
               bool flowing) {
  LoadBody& b = s.loads[static_cast<std::size_t>(i)];
  const LoadParams& lp = w.loads[static_cast<std::size_t>(i)];
  b.velocity_m_per_s += lf.force[i] / lp.mass_kg * h;
  const Eigen::Matrix3d r = b.orientation.toRotationMatrix();
  const Eigen::Matrix3d inertia = r * lf.posed[i].geo.inertia_kgm2.asDiagonal() * r.transpose();
  Vec3d& wv = b.angular_velocity_rad_per_s;
  wv += inertia.inverse() * (lf.torque[i] - wv.cross(inertia * wv)) * h;
  b.position_m += b.velocity_m_per_s * h;
  const Eigen::Quaterniond spin(0.0, wv.x(), wv.y(), wv.z());
  b.orientation.coeffs() += 0.5 * h * (spin * b.orientation).coeffs();
  b.orientation.normalize();

  if (!b.position_m.allFinite() || !b.velocity_m_per_s.allFinite() || !wv.allFinite() ||
      b.position_m.z() < kLostBelow_m) {
    b.position_m = lp.position_m;
    b.orientation = Eigen::AngleAxisd(lp.yaw_rad, Vec3d::UnitZ()) *
                    Eigen::AngleAxisd(lp.pitch_rad, Vec3d::UnitY());
    b.velocity_m_per_s.setZero();
    wv.setZero();
    ++s.events.loads_restored;
  }
  if (lf.touching[i] && !b.in_contact && lf.approach[i] > kImpactSpeed_m_per_s) ++s.events.load_impacts;
  b.in_contact = lf.touching[i];
  const bool quiet = b.velocity_m_per_s.norm() < kSleepSpeed_m_per_s && wv.norm() < kSleepSpin_rad_per_s;
  b.quiet_s = quiet && (!flowing || lf.touching[i]) ? b.quiet_s + h : 0.0;
  if (b.quiet_s > kSleepAfter_s) {
    b.asleep = true;
    b.velocity_m_per_s.setZero();
    wv.setZero();
  }
}

}  // namespace

void advance_loads(const WorldParams& w, WorldState& s, const ClamPose& pose,
                   const LoadPushes& pushes, double h, double gravity, const Vec3d& current) {
  const bool flowing = current.squaredNorm() > 0.0;
  auto moving = [&](int i) {
    const LoadBody& b = s.loads[static_cast<std::size_t>(i)];
    return !b.held && !b.asleep;
  };
  LoadForces lf;
  carry_and_start(s, pose, pushes, h, flowing, lf);
  wake_neighbours(w, s);
  for (int i = 0; i < s.load_count; ++i)
    if (!s.loads[static_cast<std::size_t>(i)].asleep)
      lf.posed[i] = pose_load(w.loads[static_cast<std::size_t>(i)], s.loads[static_cast<std::size_t>(i)]);
  for (int i = 0; i < s.load_count; ++i) {
    if (!moving(i)) continue;
    gravity_and_water(w, s.loads[static_cast<std::size_t>(i)], i, gravity, current, lf);
    load_against_solids(w, s, i, lf);
    load_against_loads(w, s, i, lf);
  }
  // What loose loads did to the held one reaches the clam at the next step.
  s.held_load_push_N = s.held_load >= 0 ? lf.force[s.held_load] : Vec3d::Zero();
  for (int i = 0; i < s.load_count; ++i)
    if (moving(i)) move_load(w, s, i, lf, h, flowing);
}

int load_substeps(const ContactParams& contact, double h) {
  constexpr double kMaxPhase = 0.2;
  return std::max(1, static_cast<int>(std::ceil(h * contact.natural_frequency_rad_per_s / kMaxPhase - 1e-9)));
}

double load_submerged_fraction(const WorldParams& w, int index, const LoadBody& b) {
  const LoadParams& lp = w.loads[static_cast<std::size_t>(index)];
  const PosedLoad pl = pose_load(lp, b);
  double wet = 0.0;
  for (int k = 0; k < pl.geo.count; ++k)
    wet += proxy_submerged_fraction(lp.shape, w.water.level_m - pl.proxy[k].center.z(), pl.geo.radius_m);
  return wet / pl.geo.count;
}

}  // namespace clamsim::core
