#include "core/machine.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "core/cable.h"
#include "core/clam.h"
#include "core/clam_grip.h"
#include "core/clam_pose.h"
#include "core/part_poses.h"
#include "core/plausibility.h"
#include "core/crane.h"
#include "core/derivative.h"
#include "core/faults.h"
#include "core/hydraulics.h"
#include "core/integrator.h"
#include "core/reeving.h"
#include "core/stability.h"
#include "core/stops.h"
#include "core/world_step.h"

namespace clamsim::core {

namespace {

constexpr double kRadToDeg = 57.295779513082320877;
// A locked clam leaves its stop when the links pull away from it with more than this:
// 2.5 % of the clam's weight. At 1 N the stop rattled under the crane's jerks (162 lock /
// unlock cycles in the 5.1.3 run, each an eq 2.9 impact); at 20 N, 8.
constexpr double kStopRelease_N = 20.0;
// The anti-two-block switch resets when the block is lowered this far below where it tripped
// (its weight hangs free again); without it the switch would chatter at the trip distance.
constexpr double kTwoBlockReset_m = 0.1;
// An overload ends once every rope pulls below this fraction of its rated pull.
constexpr double kOverloadReset = 0.9;
// A load slips out when the grip has failed this long: a rope's snatch or rebound alone
// does not drop it, an operator opening the jaws does.
constexpr double kSlipTime_s = 0.1;

// The clam's stop distances s(theta2) at its closed and open stops (Table 2.5's Close and
// Open): constant for a model, so built once with the crane's inertia, not every step.
struct ClamStops {
  double closed_m = 0.0, open_m = 0.0;
};
ClamStops clam_stops(const ClamParams& cp) {
  return {clam_distance_at(cp, cp.theta2_closed_rad), clam_distance_at(cp, cp.theta2_open_rad)};
}

// What a step needs of the model beyond its parameters; advance_to builds it once.
struct StepModel {
  DerivedModel derived;
  ClamStops stops;
  Spools spool_decay;   // e^(-h / 2T) of each spool's lag (spool_half_step_decay)
  PlausibleSpeeds fastest;
};
StepModel step_model(const MachineParams& m) {
  return {derived_model(m), clam_stops(m.clam), spool_half_step_decay(m), plausible_speeds(m)};
}

// Something built from a state (its clam context, its pose), kept with the state it was
// built from. A step ends where the next begins: the context its events and stability used
// is the next step's first stage's (about 1000 of the step's 25000 instructions,
// docs/model.md Performance), the pose its loads moved against the next step's world
// pushes; each is the end's unless an event moved the state.
template <class Value, Value (*build)(const MachineParams&, const StateVector&)>
struct BuiltAt {
  bool valid = false;
  StateVector x;
  Value value;
  const Value& of(const MachineParams& m, const StateVector& at_x) {
    if (!valid || x != at_x) {
      x = at_x;
      value = build(m, at_x);
      valid = true;
    }
    return value;
  }
};
ClamContext context_at(const MachineParams& m, const StateVector& x) { return clam_context(m, x); }
using ContextAt = BuiltAt<ClamContext, context_at>;
using PoseAt = BuiltAt<ClamPose, clam_pose>;
const ClamContext& context_of(const MachineParams& m, const StateVector& x, ContextAt& at) {
  return at.of(m, x);
}
const ClamPose& pose_of(const MachineParams& m, const StateVector& x, PoseAt& at) {
  return at.of(m, x);
}

// What a run of steps carries from one step to the next: the last context and pose, and the
// integrator's weights (core/integrator.h), kept where a component's decay rate is unchanged.
struct StepCarry {
  ContextAt context;
  PoseAt pose;
  EtdStepWeights<StateVector> weights;
};

// Bits of the hard stops in contact, to count new hits. The ropes' stops act on the hanging
// length (the winch state less the reeved path), which the step's context already holds.
std::uint8_t engaged_stops(const MachineParams& m, const StateVector& x, const ClamContext& c) {
  const double boom = x(ix::q + 1) - kHalfPi, d3 = x(ix::q + 2);
  std::uint8_t bits = 0;
  if (boom < m.crane.boom_min_rad || boom > m.crane.boom_max_rad) bits |= 1;
  if (d3 < m.crane.telescope_min_m || d3 > m.crane.telescope_max_m) bits |= 2;
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = m.hydraulics.winches[i];
    const double len = hanging_length(c, x, i);
    if (len < w.min_length_m || len > w.max_length_m) bits |= static_cast<std::uint8_t>(4 << i);
  }
  return bits;
}

GeoStatus geo_of(const ClamStops& stops, double s) {
  constexpr double tol = 1e-9;
  if (s <= stops.closed_m + tol) return GeoStatus::Close;
  if (s >= stops.open_m - tol) return GeoStatus::Open;
  return GeoStatus::InRange;
}

void set_working(State& st, WorkingState next) {
  if (st.clam.working == next) return;
  st.clam.working = next;
  ++st.health.transitions;
}

// Free -> Distributed: the links hit a stop (or close on a load) and, eq 2.9, continue
// together at the momentum-weighted common velocity.
void lock_at(const MachineParams& m, State& st, const ClamKinematics& k, double s_lock) {
  const double v = clam_inelastic_velocity(m.clam, k, st.x(ix::vA), st.x(ix::vC),
                                           st.clam.load_mass_kg);
  st.x(ix::yC) = st.x(ix::yA) + s_lock;
  st.x(ix::vA) = v;
  st.x(ix::vC) = v;
  ++st.health.clam_impacts;
  set_working(st, WorkingState::Distributed);
}

enum class JawEvent { None, Gripped, Released };

GripGeometry grip_of(const ClamMode& mode) { return {mode.grip_support, mode.grip_lever_m}; }

// Free, closing, and both shells touch an object (Table 2.5's "contact with an object while
// closing"): the links stop on it. It is held (With-load) where the two contacts can carry
// it upwards at all, support > 0 (core/clam_grip.h); in the throat, where the shells only
// push it down and out, they stop on it and hold nothing, if it bears the squeeze (rests on a
// solid or is out of the water; a floating one gives way and never gets here).
JawEvent close_on(const MachineParams& m, State& st, const ClamKinematics& k, const JawObject& obj) {
  ClamMode& mode = st.clam;
  const bool holds = obj.support[0] + obj.support[1] > 0.0;
  if (holds) {
    mode.load = LoadStatus::WithLoad;
    mode.load_mass_kg = obj.mass_kg;
    mode.grip_support = obj.support;
    mode.grip_lever_m = obj.lever_m;
  } else {
    mode.on_object = true;
  }
  lock_at(m, st, k, k.s);
  return holds ? JawEvent::Gripped : JawEvent::None;
}

// With-load: the grip fails while the shells' contacts, pressed by the stop force, carry
// less than what holds the load up against gravity and the clam's vertical acceleration,
// less what the world already carries (the deck it still rests on, the water); or while the
// links pull apart. Held failing for kSlipTime_s, the load slips out.
bool grip_fails(const MachineParams& m, const ClamMode& mode, const ClamKinematics& k,
                const ClamSolution& sol, double held_up_N) {
  const double g = m.crane.gravity_m_per_s2;
  const double capacity =
      grip_capacity_N(grip_of(mode), clam_ds_dtheta2(m.clam, k), sol.stop_force_N);
  const double needed = mode.load_mass_kg * (g - sol.aA) - held_up_N;   // aA is down
  return capacity < needed || sol.stop_force_N < -kStopRelease_N;
}

// Working-state changes allowed by Table 2.3, with the conditions of Table 2.5.
// c is st.x's context on entry.
JawEvent clam_events(const MachineParams& m, const ClamStops& stops, State& st,
                     const ClamContext& c, const JawObject& obj, const WorldPush& world,
                     double held_up_N) {
  JawEvent event = JawEvent::None;
  ClamMode& mode = st.clam;
  const ClamKinematics& k = c.kin;

  if (mode.working == WorkingState::Free) {
    // a floating load the shells do not hold gives way: they close on past it, to the stop
    const bool stops_them = obj.supported || obj.support[0] + obj.support[1] > 0.0;
    if (obj.present && stops_them && k.s_dot < 0.0) {
      event = close_on(m, st, k, obj);
    } else if (k.s <= stops.closed_m) {
      lock_at(m, st, k, stops.closed_m);
    } else if (k.s >= stops.open_m) {
      lock_at(m, st, k, stops.open_m);
    }
  } else {
    const ClamSolution sol = clam_solution(m, c, mode, world);
    const bool was_full = mode.working == WorkingState::Full;
    bool leave = false;
    if (mode.load == LoadStatus::WithLoad) {
      mode.slip_s = grip_fails(m, mode, k, sol, held_up_N) ? mode.slip_s + m.integrator.step_s : 0.0;
      if (mode.slip_s >= kSlipTime_s) {
        mode.slip_s = 0.0;
        mode.load = LoadStatus::WithoutLoad;
        mode.load_mass_kg = 0.0;
        ++st.health.loads_released;
        leave = true;
        event = JawEvent::Released;
      }
    } else if (mode.on_object) {
      // The ropes open the buckets, or the object is no longer between them.
      leave = sol.stop_force_N < -kStopRelease_N || !obj.present || !obj.supported;
      if (leave) mode.on_object = false;
    } else {
      // The ropes pull the links away from the stop, or a released load left them mid-range.
      leave = sol.stop_force_N < -kStopRelease_N || geo_of(stops, k.s) == GeoStatus::InRange;
    }
    if (leave) {
      set_working(st, was_full ? WorkingState::Distributed : WorkingState::Free);  // Table 2.3
    } else {
      const bool both_taut = c.rope[0].tension_N > 0.0 && c.rope[1].tension_N > 0.0;
      set_working(st, both_taut ? WorkingState::Distributed : WorkingState::Full);
    }
  }
  const bool on_something = mode.load == LoadStatus::WithLoad || mode.on_object;
  mode.geo = on_something ? GeoStatus::InRange : geo_of(stops, st.x(ix::yC) - st.x(ix::yA));
  return event;
}

// Rope and load events an instructor cares about: a visible slack loop, an overload, the
// block at the tip sheave (the anti-two-block switch: point A within anti_two_block_m).
void rope_events(const MachineParams& m, State& st, const ClamContext& c) {
  WorldState& w = st.world;
  const double to_sheave = c.reach;
  if (!w.two_blocked && to_sheave < m.crane.anti_two_block_m) {
    w.two_blocked = true;
    ++w.events.two_blocks;
  } else if (w.two_blocked && to_sheave > m.crane.anti_two_block_m + kTwoBlockReset_m) {
    w.two_blocked = false;
  }
  // An overload starts when a rope pulls above its rating (or the load outweighs the clam's)
  // and lasts until every rope is back below kOverloadReset of it, so a pull that ripples
  // about the rating counts once.
  bool over = st.clam.load_mass_kg > m.clam.max_load_kg;
  bool still_over = over;
  for (int i = 0; i < 2; ++i) {
    const WinchParams& wp = m.hydraulics.winches[i];
    const double loop = slack_loop_m(c, st.x, i);
    if (!w.rope_slack[i] && loop > wp.slack_margin_m) {
      w.rope_slack[i] = true;
      ++w.events.slack_cables;
    } else if (w.rope_slack[i] && loop < 0.5 * wp.slack_margin_m) {
      w.rope_slack[i] = false;
    }
    over = over || c.rope[i].tension_N > wp.rated_pull_N;
    still_over = still_over || c.rope[i].tension_N > kOverloadReset * wp.rated_pull_N;
  }
  if (over && !w.overloaded) ++w.events.overloads;
  w.overloaded = w.overloaded ? still_over : over;
}

// The indicator's reading and the tilt; a tilted machine's tip is where the tilt put it (the
// clam's motion stays in the carrier's frame: docs/model.md, Stability).
void stability_outputs(const MachineParams& m, const State& st, Outputs& o) {
  const StabilityState& s = st.stability;
  const Vec3 q = st.x.segment<3>(ix::q);
  const LoadMomentReading r = load_moment_reading(m, q, s.load_kg);
  o.hook_load_kg = r.load_kg;
  o.rated_kg = r.rated_kg;
  o.radius_m = r.radius_m;
  o.load_moment_pct = r.pct;
  o.lmi_warning = s.warning;
  o.lmi_cutout = s.cut_out;
  o.tilt_deg = s.tilt_rad * kRadToDeg;
  o.tilt_edge = s.edge;
  o.tipped_over = s.tipped_over;
  if (s.edge != kNoEdge) {
    const EdgeLine e = edge_line(m.carrier, s.edge);
    const Vec3 d = e.axis();
    o.tilt_axis_point_m = {e.point.x(), e.point.y(), e.point.z()};
    o.tilt_axis_direction = {d.x(), d.y(), d.z()};
    const Vec3 tip = tilted(e, Vec3(o.tip[0], o.tip[1], o.tip[2]), s.tilt_rad);
    o.tip = {tip.x(), tip.y(), tip.z()};
  }
}

}  // namespace

Control anti_two_block_cutout(const State& st, const Control& u, const Faults& faults) {
  if (!st.world.two_blocked || faults.anti_two_block_bypass) return u;
  return without_raising_motions(u);
}

namespace {

// The grab hanging still and plumb under the tip at the asked depth and opening; returns
// the distance A-C (s).
double hang_clam(const MachineParams& m, const InitialConditions& init, State& st) {
  StateVector& x = st.x;
  x.setZero();
  x(ix::q + 0) = init.swing_rad;
  x(ix::q + 1) = kHalfPi + init.boom_rad;
  x(ix::q + 2) = init.telescope_m;
  const Vec3 q = x.segment<3>(ix::q);
  const Vec3 tip = tip_position(m.crane, q);
  const double s = clam_distance_at(m.clam, init.clam_theta2_rad);
  x(ix::yA) = -tip(2) + init.clam_depth_m;
  x(ix::hx) = tip(0);   // hanging still, straight under the tip
  x(ix::hy) = tip(1);
  x(ix::yC) = x(ix::yA) + s;
  st.clam.geo = geo_of(clam_stops(m.clam), s);
  st.clam.working =
      st.clam.geo == GeoStatus::InRange ? WorkingState::Free : WorkingState::Distributed;
  return s;
}

// Rope tensions that hold the Free mechanism at rest: a_A, a_C are affine in (T1, T2),
// through the pulls at A and C (clam_pulls along the ropes).
Eigen::Vector2d resting_tensions(const MachineParams& m, const StateVector& x, double drop,
                                 double reach) {
  const double g = m.crane.gravity_m_per_s2;
  const ClamKinematics k = clam_kinematics(m.clam, x(ix::yA), x(ix::yC), 0.0, 0.0);
  auto accelerations = [&](double t1, double t2) {
    const ClamPulls p = clam_pulls(m.clam, t1, t2, drop / reach);
    const ClamSolution sol = clam_free(m.clam, k, p.at_A, p.at_C, g);
    return Eigen::Vector2d(sol.aA, sol.aC);
  };
  const Eigen::Vector2d a0 = accelerations(0.0, 0.0);
  Eigen::Matrix2d gain;
  gain << accelerations(1.0, 0.0) - a0, accelerations(0.0, 1.0) - a0;
  return gain.partialPivLu().solve(-a0);
}

// Line pressures that hold everything still with the valves centred: tank pressure on the
// free lines, the cylinders' cap sides and the winches' lifting sides holding the crane's
// and the ropes' loads, each poppet where its pressures put it.
void set_holding_pressures(const MachineParams& m, const InitialConditions& init, StateVector& x) {
  const HydraulicsParams& hy = m.hydraulics;
  for (int ch = 0; ch < 5; ++ch) {
    x(ix::p + 2 * ch) = hy.channels[ch].valve.tank_pressure_Pa;
    x(ix::p + 2 * ch + 1) = hy.channels[ch].valve.tank_pressure_Pa;
    x(ix::pilot + ch) = x(ix::p + 2 * ch + 1);   // the pilot at rest sees line B's pressure
  }
  const Vec3 q = x.segment<3>(ix::q);
  const ClamContext c = clam_context(m, x);
  const CraneDynamics dyn = crane_dynamics(m.crane, q, Vec3::Zero(), 0.0);
  // the ropes pull the tip down and, along the boom, the sheaves (derivative.cc force_stage)
  // and the anti-swing chain its guide (force_stage; nothing at rest)
  const Vec3 hold = dyn.gravity + c.vertical_pull() * c.tip_grad +
                    c.tip_jac.transpose() * (c.horizontal_pull() + c.chain.force_N.head<2>()) +
                    c.rope[0].tension_N * c.path_grad[0] + c.rope[1].tension_N * c.path_grad[1];
  const double lever = boom_cylinder_lever(hy.boom_geometry, init.boom_rad);
  auto cap_pressure = [&](const CylinderParams& cyl, double force, double rod_pressure) {
    return (force + rod_pressure * cyl.rod_area_m2) / cyl.cap_area_m2;
  };
  x(ix::p + 2) = cap_pressure(hy.boom_cylinders, hold(1) / lever, x(ix::p + 3));
  x(ix::p + 4) = cap_pressure(hy.telescope_cylinder, hold(2), x(ix::p + 5));
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = hy.winches[i];
    const int ch = kMainHoist + i;
    x(ix::p + 2 * ch) = x(ix::p + 2 * ch + 1) + c.rope[i].drum_force_N * w.drum_radius_m /
                                                    (w.motor.gear_ratio * w.motor.displacement_m3_per_rad);
  }
  // a poppet at rest sits where its pressures put it (closed below its setting)
  for (int ch = 0; ch < 5; ++ch) {
    const ActuatorChannel& chan = hy.channels[ch];
    x(ix::poppet + ch) = chan.counterbalance.fitted
        ? counterbalance_opening(chan.counterbalance, x(ix::p + 2 * ch), x(ix::pilot + ch))
        : 0.0;
  }
}

}  // namespace

State initial_state(const MachineParams& m, const InitialConditions& init) {
  State st;
  StateVector& x = st.x;
  const double s = hang_clam(m, init, st);
  const Vec3 q = x.segment<3>(ix::q);
  const Vec3 tip = tip_position(m.crane, q);
  // The grab hangs plumb under the tip, its body straight: the anti-swing device pulls only
  // on an eye off the plumb, so at rest the ropes carry the whole weight.
  const double drop = x(ix::yA) + tip(2);
  const double reach = drop;
  const Eigen::Vector2d tension = resting_tensions(m, x, drop, reach);

  // Unstretched rope lengths for those tensions, over the whole rope from the drum:
  // path + span = L (1 + T / EA); the closing rope's span includes its parts in the clam.
  const HydraulicsParams& hy = m.hydraulics;
  const double span[2] = {reach, reach + m.clam.closing_parts * s};
  for (int i = 0; i < 2; ++i) {
    const double path = reeved_path(m.crane, hy.winches[i].reeving, q).length_m;
    x(ix::len + i) = (path + span[i]) / (1.0 + tension(i) / hy.winches[i].rope_EA_N);
  }
  set_holding_pressures(m, init, x);
  const ClamContext c = clam_context(m, x);
  st.stops_engaged = engaged_stops(m, x, c);
  // the indicator starts reading what hangs at the tip, not from zero
  st.stability.load_kg = hook_load_kg(m, c);
  st.stability.pct = load_moment_reading(m, q, st.stability.load_kg).pct;
  return st;
}

namespace {

// A step's last stage may overshoot the vapour floor the lines' rates stop at, or a poppet
// pass its seat or its full stroke, where it stops (poppet_rate); a state gone non-finite
// is a numerical failure: the last good pose is kept, all motion stopped, and it is counted.
void keep_in_bounds(const MachineParams& m, State& st, const StateVector& before) {
  for (int i = 0; i < 10; ++i) {
    const double floor = m.hydraulics.channels[i / 2].lines.floor_Pa;
    st.x(ix::p + i) = std::max(st.x(ix::p + i), floor);
  }
  for (int i = 0; i < 5; ++i) st.x(ix::poppet + i) = std::clamp(st.x(ix::poppet + i), 0.0, 1.0);
  if (!st.x.allFinite()) {
    st.x = before;
    st.x.segment<3>(ix::qd).setZero();
    st.x(ix::vA) = st.x(ix::vC) = 0.0;
    st.x.segment<2>(ix::lend).setZero();
    st.x.segment<2>(ix::hvx).setZero();
    st.x.segment<2>(ix::tiltd).setZero();
    ++st.health.nonfinite_resets;
  }
}

// The jaws' event in the world: a gripped load joins the clam's horizontal motion (momentum
// shared, inelastic), a released one is let go where the clam is.
void take_or_let_go(const MachineParams& m, State& st, JawEvent jaw, int jaw_load,
                    double mass_before, const ClamPose& pose) {
  if (jaw == JawEvent::Gripped && jaw_load >= 0) {
    const LoadBody& load = st.world.loads[static_cast<std::size_t>(jaw_load)];
    const Eigen::Vector2d p = mass_before * st.x.segment<2>(ix::hvx) +
                              st.clam.load_mass_kg * load.velocity_m_per_s.head<2>();
    st.x.segment<2>(ix::hvx) = p / clam_mass(m.clam, st.clam.load_mass_kg);
    grip_load(st.world, jaw_load, pose);
  } else if (jaw == JawEvent::Released) {
    release_load(st.world, pose);
  }
}

// The loads over the step, and what the world did to the clam kept for the frame. The
// loads' stiff contacts take sub-steps; each keeps the clam's contact markers and adds its
// own, so the last sub-step's are the ones shown.
void world_after_step(const MachineParams& m, const WorldParams& wp, State& st,
                      const ClamPose& pose, const LoadPushes& pushes, const ClamWorldForces& world,
                      const Vec3d& current, double h) {
  const int sub = load_substeps(wp.contact, h);
  const int clam_markers = st.world.marker_count;
  for (int k = 0; k < sub; ++k) {
    st.world.marker_count = clam_markers;
    advance_loads(wp, st.world, pose, pushes, h / sub, m.crane.gravity_m_per_s2, current);
  }
  st.world.clam_world_force_N = world.force_N;
  st.world.clam_world_head_up_N = world.head_up_N;
  st.world.clam_contact_N = world.contact_N;
  st.world.clam_submerged = world.submerged;
}

// The events and states of the step's end: ropes, load moment, stops, implausible speeds.
void step_events(const MachineParams& m, const StepModel& sm, State& st, const ClamContext& after,
                 double h) {
  rope_events(m, st, after);
  stability_step(m, st, after, h);
  const std::uint8_t engaged = engaged_stops(m, st.x, after);
  if (engaged & ~st.stops_engaged) ++st.health.limit_hits;
  st.stops_engaged = engaged;
  const bool implausible = implausible_speed(m, sm.fastest, st.x) != nullptr;
  if (implausible && !st.implausible) ++st.health.nonphysical_warnings;
  st.implausible = implausible;
}

// One step with the model's derived parts already built (advance_to builds them once) and
// the context of the state the last step ended with, if it is still st.x's.
void step_with(const MachineParams& m, const StepModel& sm, State& st, const Control& u,
               const Environment& env, StepCarry& carry) {
  ContextAt& context = carry.context;
  const DerivedModel& model = sm.derived;
  const double h = m.integrator.step_s;
  const Control allowed = load_moment_cutout(st, anti_two_block_cutout(st, u, env.faults), env.faults);
  const SpoolTrack spool =
      spool_track(m, sm.spool_decay, st.spool, spools_for(m, allowed, env.faults));
  const StateVector before = st.x;

  // The world's pushes on the clam, held over the step; the loads' reactions wait for
  // advance_loads. Without a world there is nothing between the jaws to grip.
  JawObject between_jaws;
  ClamWorldForces world;
  const Vec3d current(env.faults.water_velocity_m_per_s[0], env.faults.water_velocity_m_per_s[1], 0.0);
  LoadPushes pushes;
  int jaw_load = -1;
  if (env.world) {
    const ClamPose& pose = pose_of(m, st.x, carry.pose);
    const HeadMass head_mass(m, context_of(m, st.x, context), st.clam);
    world = clam_world_forces(m, *env.world, st.world, pose, h, current, head_mass, pushes);
    between_jaws = find_jaw_object(m, *env.world, st.world, pose, &jaw_load);
  }

  // The first stage is at st.x itself: its context is the last step's end's, and its valve
  // flows give the lines' decay rates.
  int singular = 0;
  StateVector lambda;
  const StateVector k1 = derivative(m, model, st.x, context_of(m, st.x, context), st.clam,
                                    spool.start, env.faults, world.push(), &singular, &lambda);
  etd_rk4_step(
      st.x, h, lambda, k1,
      [&](const StateVector& x, double t) {
        const Spools& at = t < h ? spool.half : spool.end;
        return derivative(m, model, x, st.clam, at, env.faults, world.push(), &singular);
      },
      carry.weights);
  st.spool = spool.end;
  st.health.singular_solves += static_cast<std::uint64_t>(singular);
  keep_in_bounds(m, st, before);
  const double mass_before = clam_mass(m.clam, st.clam.load_mass_kg);
  const JawEvent jaw = clam_events(m, sm.stops, st, context_of(m, st.x, context), between_jaws,
                                   world.push(), world.held_up_N);
  if (env.world) {
    const ClamPose& pose = pose_of(m, st.x, carry.pose);
    take_or_let_go(m, st, jaw, jaw_load, mass_before, pose);
    world_after_step(m, *env.world, st, pose, pushes, world, current, h);
  }
  step_events(m, sm, st, context_of(m, st.x, context), h);
  ++st.steps;
  st.time_s = static_cast<double>(st.steps) * h;
}

}  // namespace

void step(const MachineParams& m, State& st, const Control& u, const Environment& env) {
  StepCarry carry;
  step_with(m, step_model(m), st, u, env, carry);
}

void advance_to(const MachineParams& m, State& st, const Control& u, const Environment& env,
                double t_end_s) {
  const double h = m.integrator.step_s;
  const double n = std::floor((t_end_s - st.time_s) / h + 0.5);
  const StepModel sm = step_model(m);
  StepCarry carry;
  for (long i = 0; i < static_cast<long>(n); ++i) step_with(m, sm, st, u, env, carry);
}

namespace {

// The world's part of a frame: the clam's contact and water, the loads, the contacts and
// the event counts and states as the world keeps them.
void world_outputs(const State& st, const Environment& env, Outputs& o) {
  const WorldState& w = st.world;
  o.clam_contact_force_N = w.clam_contact_N;
  o.clam_submerged = w.clam_submerged;
  o.turbidity = env.faults.turbidity;
  o.load_count = w.load_count;
  o.held_load = w.held_load;
  for (int i = 0; i < w.load_count; ++i) {
    const LoadBody& b = w.loads[static_cast<std::size_t>(i)];
    Outputs::Load& l = o.loads[static_cast<std::size_t>(i)];
    l.position_m = {b.position_m.x(), b.position_m.y(), b.position_m.z()};
    l.orientation = {b.orientation.w(), b.orientation.x(), b.orientation.y(), b.orientation.z()};
    l.velocity_m_per_s = {b.velocity_m_per_s.x(), b.velocity_m_per_s.y(), b.velocity_m_per_s.z()};
    l.held = b.held;
    l.in_contact = b.in_contact;
    l.asleep = b.asleep;
    if (env.world) l.submerged = load_submerged_fraction(*env.world, i, b);
  }
  o.contact_count = w.marker_count;
  o.contacts = w.markers;
  o.events = w.events;
  o.rope_slack = w.rope_slack;
  o.overloaded = w.overloaded;
  o.two_blocked = w.two_blocked;
}

}  // namespace

Outputs outputs(const MachineParams& m, const State& st, const Environment& env) {
  const StateVector& x = st.x;
  const ClamContext c = clam_context(m, x);
  const ClamSolution sol = clam_solution(
      m, c, st.clam, WorldPush(st.world.clam_world_force_N, st.world.clam_world_head_up_N));
  const ClamKinematics& k = c.kin;
  Outputs o;
  o.time_s = st.time_s;
  // Swing is continuous; Table 4.1 reports it in [0, 360).
  double swing_deg = std::fmod(x(ix::q) * kRadToDeg, 360.0);
  if (swing_deg < 0.0) swing_deg += 360.0;
  if (swing_deg >= 360.0 - 1e-9) swing_deg = 0.0;
  o.joint_pos = {swing_deg,
                 (x(ix::q + 1) - kHalfPi) * kRadToDeg, x(ix::q + 2)};
  o.joint_vel = {x(ix::qd) * kRadToDeg, x(ix::qd + 1) * kRadToDeg, x(ix::qd + 2)};
  o.theta1_clam_deg = k.theta1() * kRadToDeg;
  o.theta2_clam_deg = k.theta2() * kRadToDeg;
  const double opening = 2.0 * (m.clam.theta2_closed_rad - k.theta2()) * kRadToDeg;
  // Table 4.1 order and units; [3] is the distance from the tip to the clam (rope 1).
  // [5], [6]: the unstretched rope hanging below the tip sheave (the winch state less the
  // reeved path along the boom), as the thesis's cable lengths.
  o.display = {o.joint_pos[0], o.joint_pos[1], o.joint_pos[2], c.reach,
               opening < 0.0 ? 0.0 : opening, hanging_length(c, x, 0), hanging_length(c, x, 1),
               st.clam.load_mass_kg};
  for (int i = 0; i < 10; ++i) o.pressures_Pa[i] = x(ix::p + i);
  o.tensions_N = {c.rope[0].tension_N, c.rope[1].tension_N};
  o.cable_rates_m_per_s = {x(ix::lend), x(ix::lend + 1)};
  o.jaw_gap_m = clam_jaw_gap(m.clam, k.theta2());
  o.stop_force_N = locked(st.clam) ? sol.stop_force_N : 0.0;
  if (st.clam.load == LoadStatus::WithLoad) {
    const double ds_dtheta2 = clam_ds_dtheta2(m.clam, k);
    const std::array<double, 2> n = shell_normal_forces(grip_of(st.clam), ds_dtheta2, sol.stop_force_N);
    o.squeeze_N = 0.5 * (n[0] + n[1]);
    o.grip_holds_kg = grip_capacity_N(grip_of(st.clam), ds_dtheta2, sol.stop_force_N) /
                      m.crane.gravity_m_per_s2;
  }
  o.clam_vel_m_per_s = {-x(ix::vA), -x(ix::vC)};
  o.working = st.clam.working;
  o.geo = st.clam.geo;
  o.load = st.clam.load;
  o.tip = {c.tip(0), c.tip(1), c.tip(2)};
  // The clam hangs along its ropes (section 3.4.2) and opens in the boom's vertical plane.
  const ClamPose pose = clam_pose(m, x);
  auto arr = [](const Vec3d& v) { return std::array<double, 3>{v.x(), v.y(), v.z()}; };
  o.point_a = arr(pose.a);
  o.point_b = arr(pose.b[0]);
  o.point_c = arr(pose.c);
  o.clam_swing_deg = {pose.swing_rad[0] * kRadToDeg, pose.swing_rad[1] * kRadToDeg};
  const Eigen::Quaterniond frame(pose.frame);
  o.clam_orientation = {frame.w(), frame.x(), frame.y(), frame.z()};
  o.energy_J = total_energy(m, st);
  o.nonphysical_warnings = st.health.nonphysical_warnings;

  world_outputs(st, env, o);
  o.slack_m = {slack_loop_m(c, x, 0), slack_loop_m(c, x, 1)};
  stability_outputs(m, st, o);
  o.parts = part_poses(m, st, pose);
  return o;
}

double total_energy(const MachineParams& m, const State& st) {
  const StateVector& x = st.x;
  const Vec3 q = x.segment<3>(ix::q), qd = x.segment<3>(ix::qd);
  const CraneParams& cr = m.crane;
  const HydraulicsParams& hy = m.hydraulics;
  const double load = st.clam.load_mass_kg;
  double e = crane_kinetic_energy(cr, q, qd, 0.0) + crane_potential_energy(cr, q);
  // The swing, axis by axis (derivative.h swing_accelerations): the head's motion, the body
  // turning about it, and its centre of gravity's rise d (1 - cos phi).
  const SwingBody body = swing_body(m.clam, load);
  const double g = cr.gravity_m_per_s2, d = body.cog_below_a_m;
  for (int i = 0; i < 2; ++i) {
    const double v = x(ix::hvx + i), w = x(ix::tiltd + i), c = std::cos(x(ix::tilt + i));
    e += 0.5 * body.mass_kg * v * v + body.mass_kg * d * c * v * w +
         0.5 * body.about_a_kgm2() * w * w + body.mass_kg * g * d * (1.0 - c);
  }
  e += stop_energy(q(1) - kHalfPi, cr.boom_min_rad, cr.boom_max_rad,
                   cr.boom_stop_stiffness_Nm_per_rad);
  e += stop_energy(q(2), cr.telescope_min_m, cr.telescope_max_m,
                   cr.telescope_stop_stiffness_N_per_m);
  const ClamContext c = clam_context(m, x);
  e += clam_energy(m.clam, c.kin, x(ix::yA), x(ix::yC), x(ix::vA), load, cr.gravity_m_per_s2);
  e += anti_swing_energy(m.anti_swing, c.chain.offset_m);
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = hy.winches[i];
    const double rate = x(ix::lend + i) / w.drum_radius_m;
    e += 0.5 * w.drum_inertia_kgm2 * rate * rate;
    e += rope_energy(w, c.path[i] + c.span[i], x(ix::len + i));
    e += stop_energy(hanging_length(c, x, i), w.min_length_m, w.max_length_m,
                     w.stop_stiffness_N_per_m);
  }
  for (int ch = 0; ch < 5; ++ch) {
    const double cc = line_compliance(hy.channels[ch].lines);
    for (int l = 0; l < 2; ++l) e += 0.5 * cc * x(ix::p + 2 * ch + l) * x(ix::p + 2 * ch + l);
  }
  return e;
}

}  // namespace clamsim::core
