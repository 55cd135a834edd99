#include "core/stability.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clamsim::core {

namespace {

constexpr double kDegToRad = 0.017453292519943295;
// The indicator's warning resets this far below where it set, so a load swinging on its
// ropes does not chatter it. The cut-out resets only below the warning level.
constexpr double kLmiHysteresisPct = 5.0;
// Past this tilt the machine is lost: the pads on the other side are some 1 m off the deck
// (5.2 to 6.3 m away), the hanging load swings further out with every degree, and the
// model's rigid turn of the whole machine (the arm's motion kept in the carrier's frame) is
// no longer what a real one does. Lifting off and landing again below it is recoverable.
constexpr double kLostTilt_rad = kLostTiltDeg * kDegToRad;
// A machine that has tipped over comes to rest on its boom and outriggers about here, going
// on over at no less than this (what breaks its fall is not modelled).
constexpr double kLyingTilt_rad = 30.0 * kDegToRad;
constexpr double kFallRate_rad_per_s = 0.2;

struct Weight {
  double mass_kg;
  Vec3 at;          // centre of gravity, base frame
  double own_kgm2;  // largest principal moment about it (a bound on its own inertia)
};

// The carrier and the three links at pose q, their sum, and the tip: built once per step.
struct Weights {
  std::array<Weight, 4> parts;
  double mass_kg = 0.0;
  Vec3 com = Vec3::Zero();
  Vec3 tip = Vec3::Zero();
};

Weights weights(const MachineParams& m, const Vec3& q, const JointTrig& trig) {
  const CarrierParams& car = m.carrier;
  Weights w;
  w.parts[0] = {car.mass_kg, Vec3(car.com_m[0], car.com_m[1], car.com_m[2]), 0.0};
  const auto t = dh_base_transforms(m.crane, q, trig);
  for (std::size_t i = 0; i < 3; ++i) {
    const LinkParams& l = m.crane.links[i];
    const Eigen::Vector4d com(l.com_m[0], l.com_m[1], l.com_m[2], 1.0);
    const double own = std::max({l.inertia_kgm2[0], l.inertia_kgm2[1], l.inertia_kgm2[2]});
    w.parts[i + 1] = {l.mass_kg, (t[i] * com).head<3>(), own};
  }
  for (const Weight& p : w.parts) {
    w.mass_kg += p.mass_kg;
    w.com += p.mass_kg * p.at;
  }
  w.com /= w.mass_kg;
  w.tip = t[2].block<3, 1>(0, 3);   // frame 3's origin
  return w;
}

Weights weights(const MachineParams& m, const Vec3& q) { return weights(m, q, joint_trig(q)); }

// Outward distance s and height h of a point above a side.
struct SideCoords {
  double s, h;
};
SideCoords side_coords(const EdgeLine& e, const Vec3& p) {
  const Vec3 r = p - e.point;
  return {r.dot(e.normal), r.z()};
}

// s' = s cos(tilt) + h sin(tilt), h' = h cos(tilt) - s sin(tilt): turned outward about the side.
SideCoords tilt_coords(const SideCoords& a, double tilt_rad) {
  if (tilt_rad == 0.0) return a;   // on its pads, as nearly always: no trigonometry
  const double c = std::cos(tilt_rad), s = std::sin(tilt_rad);
  return {a.s * c + a.h * s, a.h * c - a.s * s};
}

}  // namespace

const char* tip_edge_name(int edge) {
  switch (edge) {
    case kFrontEdge: return "front";
    case kRearEdge: return "rear";
    case kLeftEdge: return "left";
    case kRightEdge: return "right";
    default: return "none";
  }
}

EdgeLine edge_line(const CarrierParams& c, int edge) {
  EdgeLine e;
  const double z = c.pad_height_m;
  switch (edge) {
    case kFrontEdge: e.point = Vec3(c.front_m, 0.0, z); e.normal = Vec3::UnitX(); break;
    case kRearEdge: e.point = Vec3(-c.rear_m, 0.0, z); e.normal = -Vec3::UnitX(); break;
    case kLeftEdge: e.point = Vec3(0.0, c.half_span_m, z); e.normal = Vec3::UnitY(); break;
    default: e.point = Vec3(0.0, -c.half_span_m, z); e.normal = -Vec3::UnitY(); break;
  }
  return e;
}

Vec3 tilted(const EdgeLine& e, const Vec3& p, double tilt_rad) {
  const SideCoords t = tilt_coords(side_coords(e, p), tilt_rad);
  const Vec3 r = p - e.point;
  const double along = r.dot(e.axis());
  return e.point + t.s * e.normal + t.h * Vec3::UnitZ() + along * e.axis();
}

namespace {

// The weights' moment is their sum's: s' is linear in (s, h).
double moment_about(const MachineParams& m, const Weights& w, const Vec3& tip_force_N, int edge,
                    double tilt_rad) {
  const EdgeLine e = edge_line(m.carrier, edge);
  const double own = w.mass_kg * m.crane.gravity_m_per_s2 *
                     tilt_coords(side_coords(e, w.com), tilt_rad).s;
  const SideCoords tip = tilt_coords(side_coords(e, w.tip), tilt_rad);
  // d . (r x F) with r = s n + h z: -s F_z + h F_n
  return own - tip.s * tip_force_N.z() + tip.h * tip_force_N.dot(e.normal);
}

double inertia_about(const MachineParams& m, const Weights& w, int edge) {
  const EdgeLine e = edge_line(m.carrier, edge);
  double inertia = 0.0;
  for (const Weight& p : w.parts) {
    const SideCoords a = side_coords(e, p.at);
    inertia += p.mass_kg * (a.s * a.s + a.h * a.h) + p.own_kgm2;
  }
  return inertia;
}

double own_margin(const MachineParams& m, const Weights& w, int edge, double tilt_rad) {
  return tilt_coords(side_coords(edge_line(m.carrier, edge), w.com), tilt_rad).s;
}

}  // namespace

double overturning_moment(const MachineParams& m, const Vec3& q, const Vec3& tip_force_N,
                          int edge, double tilt_rad) {
  return moment_about(m, weights(m, q), tip_force_N, edge, tilt_rad);
}

double tipping_inertia(const MachineParams& m, const Vec3& q, int edge) {
  return inertia_about(m, weights(m, q), edge);
}

double own_weight_margin_m(const MachineParams& m, const Vec3& q, int edge, double tilt_rad) {
  return own_margin(m, weights(m, q), edge, tilt_rad);
}

double tipping_load_kg(const MachineParams& m, const Vec3& q) {
  const double g = m.crane.gravity_m_per_s2;
  const Vec3 tip = tip_position(m.crane, q);
  double least = std::numeric_limits<double>::infinity();
  for (int k = 0; k < kTipEdges; ++k) {
    const double s = side_coords(edge_line(m.carrier, k), tip).s;
    if (s <= 0.0) continue;   // a load inside this side steadies the machine against it
    const double own = overturning_moment(m, q, Vec3::Zero(), k, 0.0);
    least = std::min(least, std::max(0.0, -own / (g * s)));
  }
  return least;
}

double tipping_load_360_kg(const MachineParams& m, double boom_length_m, double radius_m) {
  // radius = d3 cos(boom) - a1 (crane.cc tip_position)
  const double c = (radius_m + m.crane.a1_m) / boom_length_m;
  if (c > 1.0 || c < 0.0) return std::numeric_limits<double>::infinity();
  const double boom = std::acos(c);
  double least = std::numeric_limits<double>::infinity();
  for (int deg = 0; deg < 360; ++deg)
    least = std::min(least, tipping_load_kg(m, Vec3(deg * kDegToRad, kHalfPi + boom, boom_length_m)));
  return least;
}

double rated_capacity_kg(const CapacityChart& c, double boom_length_m, double radius_m) {
  // the bracketing rows (or the edge row twice) and the weight of the upper one
  auto bracket = [](const auto& axis, int n, double v, int& lo, double& f) {
    lo = 0;
    while (lo + 2 < n && v > axis[static_cast<std::size_t>(lo + 1)]) ++lo;
    if (n < 2) { f = 0.0; return; }
    const double a = axis[static_cast<std::size_t>(lo)], b = axis[static_cast<std::size_t>(lo + 1)];
    f = std::clamp((v - a) / (b - a), 0.0, 1.0);
  };
  int i = 0, j = 0;
  double fi = 0.0, fj = 0.0;
  bracket(c.boom_length_m, c.lengths, boom_length_m, i, fi);
  bracket(c.radius_m, c.radii, radius_m, j, fj);
  const int i1 = std::min(i + 1, c.lengths - 1), j1 = std::min(j + 1, c.radii - 1);
  auto at = [&](int a, int b) {
    return c.rated_kg[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  };
  const double lo = at(i, j) + fj * (at(i, j1) - at(i, j));
  const double hi = at(i1, j) + fj * (at(i1, j1) - at(i1, j));
  return lo + fi * (hi - lo);
}

Vec3 tip_load_force(const MachineParams& m, const ClamContext& c) {
  // both ropes hang from the tip to the head A
  Vec3 f = c.pulling() * Vec3(c.hang.x(), c.hang.y(), -c.drop) / c.reach;
  (void)m;
  // the anti-swing chain's reaction on its guide under the tip
  return f - c.chain.force_N;
}

double hook_load_kg(const MachineParams& m, const ClamContext& c) {
  return std::max(0.0, -tip_load_force(m, c).z() / m.crane.gravity_m_per_s2);
}

namespace {

LoadMomentReading reading_at(const MachineParams& m, const Vec3& tip, double boom_length_m,
                             double load_kg) {
  LoadMomentReading r;
  r.load_kg = load_kg;
  r.radius_m = std::hypot(tip.x(), tip.y());
  r.boom_length_m = boom_length_m;
  r.rated_kg = rated_capacity_kg(m.load_moment.chart, r.boom_length_m, r.radius_m);
  const double pct = r.rated_kg > 0.0 ? 100.0 * load_kg / r.rated_kg : kMaxLoadMomentPct;
  r.pct = std::min(pct, kMaxLoadMomentPct);
  return r;
}

// The indicator: the filtered hook load against the chart, the warning and the cut-out with
// their events (counted also while the instructor overrides the cut-out).
void indicator_step(const MachineParams& m, State& st, const ClamContext& c, double hook_kg,
                    double h) {
  const LoadMomentParams& p = m.load_moment;
  StabilityState& s = st.stability;
  const double a = p.load_filter_s > 0.0 ? h / (p.load_filter_s + h) : 1.0;
  s.load_kg += a * (std::max(0.0, hook_kg) - s.load_kg);
  s.pct = reading_at(m, c.tip, st.x(ix::q + 2), s.load_kg).pct;
  WorldEvents& ev = st.world.events;
  if (!s.warning && s.pct >= p.warning_pct) {
    s.warning = true;
    ++ev.lmi_warnings;
  } else if (s.warning && s.pct < p.warning_pct - kLmiHysteresisPct) {
    s.warning = false;
  }
  if (!s.cut_out && s.pct >= p.cutout_pct) {
    s.cut_out = true;
    ++ev.lmi_cutouts;
  } else if (s.cut_out && s.pct < p.warning_pct) {
    // As moment limiters do: "you will not be able to clear the stop until you have reduced
    // the load factor to the safety area with a load factor of less than 90 %" (Maeda
    // MC285C-3 operator's manual, section 4, Recovery Operation after Auto-Stop). With only
    // a few points of hysteresis, the bounce of a grab stopped by the cut-out let the reading
    // dip under the reset and the cut motion restart in pulses (docs/model.md, Stability).
    s.cut_out = false;
  }
}

// The side the machine would lift off now (the largest positive overturning moment), or none.
int lifting_side(const MachineParams& m, const Weights& w, const Vec3& f) {
  int side = kNoEdge;
  double largest = 0.0;
  for (int k = 0; k < kTipEdges; ++k) {
    const double moment = moment_about(m, w, f, k, 0.0);
    if (moment > largest) largest = moment, side = k;
  }
  return side;
}

void tipping_step_with(const MachineParams& m, StabilityState& s, WorldEvents& events,
                       const Vec3& q, const JointTrig& trig, const Vec3& tip_force_N, double h) {
  if (s.tipped_over) {   // lost: it goes on over until it lies on its boom and outriggers
    s.tilt_rate = std::max(s.tilt_rate, kFallRate_rad_per_s);
    s.tilt_rad = std::min(kLyingTilt_rad, s.tilt_rad + h * s.tilt_rate);
    if (s.tilt_rad >= kLyingTilt_rad) s.tilt_rate = 0.0;
    return;
  }
  const Weights w = weights(m, q, trig);
  if (s.edge == kNoEdge) {
    s.edge = lifting_side(m, w, tip_force_N);
    if (s.edge == kNoEdge) return;
    s.tilt_rate = 0.0;
  }
  // I tilt'' = M(tilt), semi-implicit Euler
  const double moment = moment_about(m, w, tip_force_N, s.edge, s.tilt_rad);
  s.tilt_rate += h * moment / inertia_about(m, w, s.edge);
  s.tilt_rad += h * s.tilt_rate;
  if (s.tilt_rad <= 0.0) {   // the pads are down again: it lands, inelastically
    s.tilt_rad = s.tilt_rate = 0.0;
    s.edge = kNoEdge;
    return;
  }
  if (s.tilt_rad >= kLostTilt_rad || own_margin(m, w, s.edge, s.tilt_rad) >= 0.0) {
    s.tipped_over = true;
    ++events.tip_overs;
  }
  if (s.tilt_rad >= kLyingTilt_rad) {
    s.tilt_rad = kLyingTilt_rad;
    s.tilt_rate = 0.0;
  }
}

}  // namespace

LoadMomentReading load_moment_reading(const MachineParams& m, const Vec3& q, double load_kg) {
  return reading_at(m, tip_position(m.crane, q), q(2), load_kg);
}

void tipping_step(const MachineParams& m, StabilityState& s, WorldEvents& events, const Vec3& q,
                  const Vec3& tip_force_N, double h) {
  tipping_step_with(m, s, events, q, joint_trig(q), tip_force_N, h);
}

void stability_step(const MachineParams& m, State& st, const ClamContext& c, double h) {
  const Vec3 f = tip_load_force(m, c);
  indicator_step(m, st, c, -f.z() / m.crane.gravity_m_per_s2, h);
  tipping_step_with(m, st.stability, st.world.events, st.x.segment<3>(ix::q), c.trig, f, h);
}

Control without_raising_motions(const Control& u) {
  Control out = u;
  out.volts[kMainHoist] = std::min(out.volts[kMainHoist], 0.0);   // no hoisting up
  out.volts[kAuxHoist] = std::min(out.volts[kAuxHoist], 0.0);
  out.volts[kTelescope] = std::min(out.volts[kTelescope], 0.0);   // no telescoping out
  out.volts[kBoom] = std::max(out.volts[kBoom], 0.0);             // no booming down
  return out;
}

Control load_moment_cutout(const State& st, const Control& u, const Faults& faults) {
  if (st.stability.tipped_over) return Control{};
  if (!st.stability.cut_out || faults.lmi_bypass) return u;
  return without_raising_motions(u);
}

}  // namespace clamsim::core
