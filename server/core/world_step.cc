#include "core/world_step.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "core/clam.h"
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
constexpr int kMaxHits = 64;
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

struct Hit {
  Penetration pen;
  Vec3d velocity;
  int other = -1;   // solid index or load index
};

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

ClamWorldForces clam_world_forces(const MachineParams& m, const WorldParams& w, WorldState& s,
                                  const ClamPose& pose, double h, const Vec3d& current,
                                  LoadPushes& pushes) {
  ClamWorldForces out;
  pushes.force.fill(Vec3d::Zero());
  pushes.torque.fill(Vec3d::Zero());
  s.marker_count = 0;
  const double g = m.crane.gravity_m_per_s2;
  const ContactParams& cp = w.contact;
  const ClamProxies cl = clam_proxies(m.clam, pose);
  const int held = s.held_load;
  const double held_mass = held >= 0 ? w.loads[static_cast<std::size_t>(held)].mass_kg : 0.0;
  const double mass = clam_mass(m.clam, held_mass);
  PosedLoad held_shape;
  if (held >= 0) held_shape = pose_load(w.loads[static_cast<std::size_t>(held)],
                                        s.loads[static_cast<std::size_t>(held)]);

  // 1. The clam and the load in its jaws against the dam's solids.
  std::array<Hit, kMaxHits> hits;
  int n = 0;
  const int solids = static_cast<int>(w.solids.size());
  for (int j = 0; j < solids; ++j) {
    const SolidBox& box = w.solids[static_cast<std::size_t>(j)];
    if (near_box(cl.centre, cl.bound_radius_m, box)) {
      for (int i = 0; i < cl.count && n < kMaxHits; ++i) {
        const Penetration pen = sphere_vs_box(cl.sphere[i], box);
        if (pen.hit) hits[n++] = {pen, cl.on_buckets[i] ? pose.vel_c : pose.vel_a, j};
      }
    }
    for (int i = 0; held >= 0 && i < held_shape.geo.count && n < kMaxHits; ++i) {
      const Penetration pen = sphere_vs_box(held_shape.proxy[i], box);
      if (pen.hit) hits[n++] = {pen, pose.vel_c, j};
    }
  }
  std::array<double, 32> approach{};
  std::uint32_t touching = 0;
  for (int k = 0; k < n; ++k) {
    const Hit& hit = hits[k];
    const Vec3d f = contact_force(cp, mass / n, hit.pen, hit.velocity);
    out.force_N += f;
    const SolidKind kind = w.solids[static_cast<std::size_t>(hit.other)].kind;
    add_marker(s, hit.pen.point, f.norm(), ContactPair::ClamWorld, kind, held);
    if (hit.other < 32) {
      touching |= 1u << hit.other;
      approach[hit.other] = std::max(approach[hit.other], -hit.velocity.dot(hit.pen.normal));
    }
  }
  for (int j = 0; j < std::min(solids, 32); ++j) {
    const bool now = (touching >> j) & 1u, before = (s.clam_touching >> j) & 1u;
    if (now && !before && s.clam_touch_gap_s[j] >= kHitGap_s &&
        approach[j] > kHitSpeed_m_per_s) {
      const SolidKind kind = w.solids[static_cast<std::size_t>(j)].kind;
      if (kind == SolidKind::Rack || kind == SolidKind::Gate) ++s.events.clam_rack_gate_hits;
      else if (kind == SolidKind::Deck || kind == SolidKind::Wall || kind == SolidKind::Truck)
        ++s.events.clam_world_hits;   // the intake floor and reservoir bed are working surfaces
    }
    s.clam_touch_gap_s[j] = now ? 0.0 : s.clam_touch_gap_s[j] + h;
  }
  s.clam_touching = touching;

  // 2. The clam against loose loads: the clam's reaction goes to the load (advance_loads).
  for (int i = 0; i < s.load_count; ++i) {
    LoadBody& b = s.loads[static_cast<std::size_t>(i)];
    if (b.held || b.ignore_clam_s > 0.0) continue;
    const LoadParams& lpar = w.loads[static_cast<std::size_t>(i)];
    if ((b.position_m - cl.centre).norm() > load_bound_radius_m(lpar) + cl.bound_radius_m + kWakeMargin_m)
      continue;
    const PosedLoad lp = pose_load(lpar, b);
    b.asleep = false;
    b.quiet_s = 0.0;
    int pairs = 0;
    std::array<Hit, kMaxHits> found;
    for (int a = 0; a < cl.count; ++a)
      for (int k = 0; k < lp.geo.count && pairs < kMaxHits; ++k) {
        const Penetration pen = sphere_vs_sphere(cl.sphere[a], lp.proxy[k]);
        if (!pen.hit) continue;
        const Vec3d v = (cl.on_buckets[a] ? pose.vel_c : pose.vel_a) - point_velocity(b, pen.point);
        found[pairs++] = {pen, v, i};
      }
    const double m_eff = std::min(mass, w.loads[static_cast<std::size_t>(i)].mass_kg);
    for (int k = 0; k < pairs; ++k) {
      const Vec3d f = contact_force(cp, m_eff / pairs, found[k].pen, found[k].velocity);
      out.force_N += f;
      pushes.force[i] -= f;
      pushes.torque[i] -= (found[k].pen.point - b.position_m).cross(f);
      add_marker(s, found[k].pen.point, f.norm(), ContactPair::ClamLoad, SolidKind::Deck, i);
    }
  }
  // Loose loads pushing on the load in the jaws (found while moving them, one step ago).
  if (held >= 0) out.force_N += s.held_load_push_N;
  out.contact_N = out.force_N.norm();

  // 3. The water: buoyancy of the clam's steel and of the held load, drag on both.
  const WaterParams& wp = w.water;
  double z_low = pose.c.z();
  for (const Vec3d& lip : pose.lip) z_low = std::min(z_low, lip.z());
  const double z_high = pose.a.z();
  const double f = std::clamp((wp.level_m - z_low) / std::max(1e-6, z_high - z_low), 0.0, 1.0);
  out.submerged = f;
  const Vec3d v = 0.5 * (pose.vel_a + pose.vel_c) - current;   // through the water
  out.force_N.z() += wp.density_kg_per_m3 * g * m.clam.displaced_volume_m3 * f;
  out.force_N -= 0.5 * wp.density_kg_per_m3 * wp.drag_coefficient * m.clam.drag_area_m2 * f *
                 v.norm() * v;
  if (held >= 0) {
    const LoadShape shape = w.loads[static_cast<std::size_t>(held)].shape;
    for (int i = 0; i < held_shape.geo.count; ++i)
      out.force_N += water_force(wp, shape, held_shape.proxy[i], held_shape.geo.volume_each_m3,
                                 held_shape.geo.area_each_m2, pose.vel_c - current, g, nullptr);
  }
  return out;
}

JawObject find_jaw_object(const MachineParams& m, const WorldParams& w, const WorldState& s,
                          const ClamPose& pose, int* load_index) {
  JawObject best;
  if (load_index) *load_index = -1;
  if (s.held_load >= 0) return best;
  const ClamParams& cp = m.clam;
  const double lip = cp.lip_length_m, half_width = 0.5 * cp.bucket_width_m;
  for (int i = 0; i < s.load_count; ++i) {
    const LoadBody& b = s.loads[static_cast<std::size_t>(i)];
    if (b.ignore_clam_s > 0.0) continue;
    const LoadParams& lpar = w.loads[static_cast<std::size_t>(i)];
    if ((b.position_m - pose.c).norm() > lip + load_bound_radius_m(lpar)) continue;
    const PosedLoad lp = pose_load(lpar, b);
    for (int k = 0; k < lp.geo.count; ++k) {
      // In the clam's frame with C at the origin: x across the jaws, z up.
      const Vec3d local = pose.frame.transpose() * (lp.proxy[k].center - pose.c);
      const double depth = -local.z(), across = std::fabs(local.x());
      const double reach = std::hypot(across, depth);
      if (std::fabs(local.y()) > half_width || depth <= 0.0 || reach > lip) continue;
      const double bearing = std::atan2(across, depth);
      if (bearing > pose.jaw_opening_rad) continue;   // outside the buckets
      // The shells (rows of proxies from C at the lip's angle) touch it at this opening.
      const double clearance = lp.geo.radius_m + kClamProxyRadius_m;
      const double touch = bearing + std::asin(std::min(1.0, clearance / std::max(reach, 1e-6)));
      const double width = 2.0 * lip * std::sin(std::min(touch, 0.5 * 3.14159265358979));
      if (!best.present || width > best.width_m) {
        best = {true, lpar.mass_kg, width};
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

void advance_loads(const WorldParams& w, WorldState& s, const ClamPose& pose,
                   const LoadPushes& pushes, double h, double gravity, const Vec3d& current) {
  const int n = s.load_count;
  std::array<PosedLoad, kMaxLoads> posed;
  std::array<Vec3d, kMaxLoads> force, torque;
  std::array<bool, kMaxLoads> touching{};
  std::array<double, kMaxLoads> approach{};
  auto params = [&](int i) -> const LoadParams& { return w.loads[static_cast<std::size_t>(i)]; };
  auto body = [&](int i) -> LoadBody& { return s.loads[static_cast<std::size_t>(i)]; };
  auto loose = [&](int i) { return !body(i).held; };

  // A current carries off what floats free: a load asleep touching nothing wakes in it.
  const bool flowing = current.squaredNorm() > 0.0;
  for (int i = 0; i < n; ++i) {
    if (flowing && body(i).asleep && !body(i).in_contact) {
      body(i).asleep = false;
      body(i).quiet_s = 0.0;
    }
    if (body(i).ignore_clam_s > 0.0) body(i).ignore_clam_s -= h;
    if (body(i).held) {   // rides in the jaws
      LoadBody& b = body(i);
      b.position_m = pose.c + pose.frame * b.held_offset_m;
      b.orientation = Eigen::Quaterniond(pose.frame) * b.held_orientation;
      b.velocity_m_per_s = pose.vel_c;
      b.angular_velocity_rad_per_s.setZero();
    }
    force[i] = pushes.force[i];
    torque[i] = pushes.torque[i];
  }
  // A moving load wakes a sleeping neighbour before forces are summed.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j || !loose(i) || !loose(j) || body(i).asleep || !body(j).asleep) continue;
      const double reach = load_bound_radius_m(params(i)) + load_bound_radius_m(params(j)) + kWakeMargin_m;
      if ((body(i).position_m - body(j).position_m).norm() < reach) {
        body(j).asleep = false;
        body(j).quiet_s = 0.0;
      }
    }
  // Proxies only for what moves or can be touched: sleeping loads stay unposed.
  for (int i = 0; i < n; ++i)
    if (!body(i).asleep) posed[i] = pose_load(params(i), body(i));

  const Vec3d weight_dir(0.0, 0.0, -gravity);
  for (int i = 0; i < n; ++i) {
    LoadBody& b = body(i);
    if (!loose(i) || b.asleep) continue;
    const LoadParams& lp = params(i);
    const PosedLoad& pl = posed[i];
    force[i] += lp.mass_kg * weight_dir;
    // Water, proxy by proxy (off-centre buoyancy rights a tilted log).
    double wet = 0.0;
    for (int k = 0; k < pl.geo.count; ++k) {
      double frac = 0.0;
      const Vec3d f = water_force(w.water, lp.shape, pl.proxy[k], pl.geo.volume_each_m3,
                                  pl.geo.area_each_m2,
                                  point_velocity(b, pl.proxy[k].center) - current, gravity, &frac);
      force[i] += f;
      torque[i] += (pl.proxy[k].center - b.position_m).cross(f);
      wet += frac / pl.geo.count;
    }
    const Eigen::Matrix3d r = b.orientation.toRotationMatrix();
    const Eigen::Matrix3d inertia = r * pl.geo.inertia_kgm2.asDiagonal() * r.transpose();
    if (wet > 0.0) torque[i] -= wet * (inertia * b.angular_velocity_rad_per_s) / w.water.angular_damping_s;

    // The dam's solids.
    std::array<Hit, kMaxHits> hits;
    int nh = 0;
    for (int j = 0; j < static_cast<int>(w.solids.size()); ++j) {
      const SolidBox& box = w.solids[static_cast<std::size_t>(j)];
      if (!near_box(b.position_m, pl.geo.bound_radius_m, box)) continue;
      for (int k = 0; k < pl.geo.count && nh < kMaxHits; ++k) {
        const Penetration pen = sphere_vs_box(pl.proxy[k], box);
        if (pen.hit) hits[nh++] = {pen, point_velocity(b, pen.point), j};
      }
    }
    for (int k = 0; k < nh; ++k) {
      const Vec3d f = contact_force(w.contact, lp.mass_kg / nh, hits[k].pen, hits[k].velocity);
      force[i] += f;
      torque[i] += (hits[k].pen.point - b.position_m).cross(f);
      touching[i] = true;
      approach[i] = std::max(approach[i], -hits[k].velocity.dot(hits[k].pen.normal));
      add_marker(s, hits[k].pen.point, f.norm(), ContactPair::LoadWorld,
                 w.solids[static_cast<std::size_t>(hits[k].other)].kind, i);
    }

    // Other loads (each pair once; a held load pushes like a solid that moves).
    for (int j = 0; j < n; ++j) {
      // each pair once: two awake loose loads by the lower index; a held or sleeping one here
      if (j == i || (loose(j) && !body(j).asleep && j < i)) continue;
      const double reach = pl.geo.bound_radius_m + load_bound_radius_m(params(j));
      if ((b.position_m - body(j).position_m).norm() >= reach) continue;
      if (body(j).asleep) {   // touched: it wakes (and is posed) now
        body(j).asleep = false;
        body(j).quiet_s = 0.0;
        posed[j] = pose_load(params(j), body(j));
      }
      std::array<Hit, kMaxHits> pairs;
      int np = 0;
      for (int a = 0; a < pl.geo.count; ++a)
        for (int c = 0; c < posed[j].geo.count && np < kMaxHits; ++c) {
          const Penetration pen = sphere_vs_sphere(pl.proxy[a], posed[j].proxy[c]);
          if (pen.hit)
            pairs[np++] = {pen, point_velocity(b, pen.point) - point_velocity(body(j), pen.point), j};
        }
      const double m_eff = std::min(lp.mass_kg, params(j).mass_kg);
      for (int k = 0; k < np; ++k) {
        const Vec3d f = contact_force(w.contact, m_eff / np, pairs[k].pen, pairs[k].velocity);
        force[i] += f;
        torque[i] += (pairs[k].pen.point - b.position_m).cross(f);
        force[j] -= f;
        torque[j] -= (pairs[k].pen.point - body(j).position_m).cross(f);
        touching[i] = touching[j] = true;
        approach[i] = std::max(approach[i], -pairs[k].velocity.dot(pairs[k].pen.normal));
        add_marker(s, pairs[k].pen.point, f.norm(), ContactPair::LoadLoad, SolidKind::Deck, i);
      }
    }
  }

  // What loose loads did to the held one reaches the clam at the next step.
  s.held_load_push_N = s.held_load >= 0 ? force[s.held_load] : Vec3d::Zero();

  // Semi-implicit Euler: velocities first, then positions with the new velocities.
  for (int i = 0; i < n; ++i) {
    LoadBody& b = body(i);
    if (!loose(i) || b.asleep) continue;
    const LoadParams& lp = params(i);
    b.velocity_m_per_s += force[i] / lp.mass_kg * h;
    const Eigen::Matrix3d r = b.orientation.toRotationMatrix();
    const Eigen::Matrix3d inertia = r * posed[i].geo.inertia_kgm2.asDiagonal() * r.transpose();
    Vec3d& wv = b.angular_velocity_rad_per_s;
    wv += inertia.inverse() * (torque[i] - wv.cross(inertia * wv)) * h;
    b.position_m += b.velocity_m_per_s * h;
    const Eigen::Quaterniond spin(0.0, wv.x(), wv.y(), wv.z());
    b.orientation.coeffs() += 0.5 * h * (spin * b.orientation).coeffs();
    b.orientation.normalize();

    if (!b.position_m.allFinite() || !b.velocity_m_per_s.allFinite() ||
        !wv.allFinite() || b.position_m.z() < kLostBelow_m) {
      // Numerical failure or out of the world: back to its starting place, at rest.
      b.position_m = lp.position_m;
      b.orientation = Eigen::AngleAxisd(lp.yaw_rad, Vec3d::UnitZ()) *
                      Eigen::AngleAxisd(lp.pitch_rad, Vec3d::UnitY());
      b.velocity_m_per_s.setZero();
      wv.setZero();
      ++s.events.loads_restored;
    }
    if (touching[i] && !b.in_contact && approach[i] > kImpactSpeed_m_per_s) ++s.events.load_impacts;
    b.in_contact = touching[i];
    const bool quiet = b.velocity_m_per_s.norm() < kSleepSpeed_m_per_s &&
                       wv.norm() < kSleepSpin_rad_per_s;
    // in a current only a load held by something (the rack, the bed) may come to rest
    b.quiet_s = quiet && (!flowing || touching[i]) ? b.quiet_s + h : 0.0;
    if (b.quiet_s > kSleepAfter_s) {
      b.asleep = true;
      b.velocity_m_per_s.setZero();
      wv.setZero();
    }
  }
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
