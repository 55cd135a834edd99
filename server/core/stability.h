// Stability (docs/model.md, Stability): the load moment indicator and
// limiter, and the machine's tipping about its outrigger pads, the thesis's future work
// (section 6.2). Statics of rigid bodies on a pad rectangle, plus one tipping degree of
// freedom about the side the machine lifts off.
#pragma once

#include "crane.h"
#include "derivative.h"
#include "params.h"
#include "state.h"

namespace clamsim::core {

// The sides of the outrigger rectangle, the lines the machine can tip about.
enum TipEdge : int { kNoEdge = -1, kFrontEdge = 0, kRearEdge = 1, kLeftEdge = 2, kRightEdge = 3 };
constexpr int kTipEdges = 4;
const char* tip_edge_name(int edge);   // "front", "rear", "left", "right", "none"

// One side: a point on it at pad height and its outward horizontal normal n. Tipping
// outward about it turns the machine about d = z x n.
struct EdgeLine {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitX();
  Vec3 axis() const { return Vec3::UnitZ().cross(normal); }
};
EdgeLine edge_line(const CarrierParams& c, int edge);

// A point of the machine turned outward by tilt_rad about the side (base frame).
Vec3 tilted(const EdgeLine& e, const Vec3& p, double tilt_rad);

// Overturning moment about a side [N m], positive outward: every weight (the carrier, the
// three links at pose q) and the ropes' pull tip_force_N on the tip sheave, with the machine
// turned tilt_rad about that side. For a weight W at outward distance s from the side, W s;
// for a force F at the tip, -s F_z + h F_n (h its height above the pads).
double overturning_moment(const MachineParams& m, const Vec3& q, const Vec3& tip_force_N,
                          int edge, double tilt_rad);

// The machine's moment of inertia about a side [kg m^2]: the carrier and the links as point
// masses at their centres of gravity, plus the links' own moments (their largest, a bound).
double tipping_inertia(const MachineParams& m, const Vec3& q, int edge);

// Outward distance of the machine's own centre of gravity (no load) from a side, tilted.
// Past zero it falls on whatever it carries: the machine is lost (tip-over).
double own_weight_margin_m(const MachineParams& m, const Vec3& q, int edge, double tilt_rad);

// The load hanging plumb at the tip [kg] at which the machine at pose q begins to tip over
// its weakest side: the smallest of -M_k / (g s_k) over the sides k the tip is outside of;
// infinity when the tip is inside the pads.
double tipping_load_kg(const MachineParams& m, const Vec3& q);
// The same over every swing angle (1 deg apart) at boom length d3 and radius r, the load
// chart's "360 deg over outriggers" condition; infinity where the boom cannot reach r.
double tipping_load_360_kg(const MachineParams& m, double boom_length_m, double radius_m);

// The chart's rating at (boom length, radius), bilinear, held at its edges.
double rated_capacity_kg(const CapacityChart& c, double boom_length_m, double radius_m);

// The hanging ropes' pull on the tip sheave and the anti-swing chain's reaction (base frame):
// what the load puts on the crane. The reeved runs along the boom are internal.
Vec3 tip_load_force(const MachineParams& m, const ClamContext& c);

// What the indicator shows: the hook load (grab and what it holds), its rating at the
// current radius and boom length, and the one in percent of the other.
struct LoadMomentReading {
  double load_kg = 0.0;
  double rated_kg = 0.0;
  double radius_m = 0.0;
  double boom_length_m = 0.0;
  double pct = 0.0;         // held at kMaxLoadMomentPct where the chart allows nothing
};
inline constexpr double kMaxLoadMomentPct = 999.0;
LoadMomentReading load_moment_reading(const MachineParams& m, const Vec3& q, double load_kg);

// The hook load the ropes put on the tip at this instant [kg], before the indicator's filter.
double hook_load_kg(const MachineParams& m, const ClamContext& c);

// After each step: the indicator (filter, warning, cut-out, their events) and the tipping
// degree of freedom (lift-off, rotation about the side, landing, tip-over), with the
// context of the state after the step.
void stability_step(const MachineParams& m, State& st, const ClamContext& c, double h);

// The tipping degree of freedom alone, at pose q under the load's pull on the tip: on its
// pads until some side's overturning moment turns positive; then the whole machine turns
// about that side, I tilt'' = M(tilt); it lands again (inelastically) at zero tilt, and has
// tipped over (one event) once it has turned 10 deg (the far pads some 1 m up) or its own
// centre of gravity has passed the side, whichever comes first.
inline constexpr double kLostTiltDeg = 10.0;
void tipping_step(const MachineParams& m, StabilityState& s, WorldEvents& events, const Vec3& q,
                  const Vec3& tip_force_N, double h);

// The load moment limiter: while it has cut out (st.stability.cut_out) the motions that
// raise the moment stop (hoisting up, telescoping out, booming down) unless the instructor
// overrides it (Faults::lmi_bypass). A machine that has tipped over answers nothing.
Control load_moment_cutout(const State& st, const Control& u, const Faults& faults);

// Hoisting up, telescoping out and booming down stopped, their opposites passed: what the
// anti-two-block switch and the load moment limiter both cut out.
Control without_raising_motions(const Control& u);

}  // namespace clamsim::core
