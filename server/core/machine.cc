#include "core/machine.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "core/cable.h"
#include "core/clam.h"
#include "core/clam_pose.h"
#include "core/crane.h"
#include "core/faults.h"
#include "core/hydraulics.h"
#include "core/integrator.h"
#include "core/stops.h"
#include "core/world_step.h"

namespace clamsim::core {

namespace {

constexpr double kRadToDeg = 57.295779513082320877;
// A locked clam leaves its stop when the links pull away from it with more than this:
// 2.5 % of the clam's weight. At 1 N the stop rattled under the crane's jerks (162 lock /
// unlock cycles in the 5.1.3 run, each an eq 2.9 impact); at 20 N, 8.
constexpr double kStopRelease_N = 20.0;
// A load slips out when the grip has failed this long: a rope's snatch or rebound alone
// does not drop it, an operator opening the jaws does.
constexpr double kSlipTime_s = 0.1;
enum Channel { kSwing = 0, kBoom = 1, kTelescope = 2, kMainHoist = 3, kAuxHoist = 4 };

using Spools = std::array<double, 5>;

Vec3 joints(const StateVector& x) { return x.segment<3>(ix::q); }
Vec3 joint_rates(const StateVector& x) { return x.segment<3>(ix::qd); }

// Which way the locked clam's stop pushes: closing stop or a held load (+1), opening stop (-1).
double stop_sign(const ClamMode& mode) {
  if (mode.load == LoadStatus::WithLoad) return 1.0;
  return mode.geo == GeoStatus::Open ? -1.0 : 1.0;
}

bool locked(const ClamMode& mode) { return mode.working != WorkingState::Free; }

// Stage 1-2: kinematics and ropes. Everything the clam's equations need.
// The ropes run from the tip sheave to A and to C, which share the clam's horizontal
// position h (the clam swings as a pendulum on them); `hang` is h minus the tip's.
struct ClamContext {
  Vec3 tip;
  Vec3 tip_grad;          // d(tip z)/dq
  Eigen::Matrix<double, 2, 3> tip_jac;   // d(tip x, y)/dq
  double tip_z_rate = 0.0;
  Eigen::Vector2d hang = Eigen::Vector2d::Zero();
  Eigen::Vector2d hang_rate = Eigen::Vector2d::Zero();
  double drop[2] = {0.0, 0.0};   // vertical distance from the tip down to A and to C
  double span[2] = {0.0, 0.0};   // rope lengths, straight
  ClamKinematics kin;
  RopeForce rope[2];
  // The ropes' pull on the clam: vertical (up) and horizontal parts.
  double vertical_pull(int i) const { return rope[i].tension_N * drop[i] / span[i]; }
  Eigen::Vector2d horizontal_pull() const {
    return -(rope[0].tension_N / span[0] + rope[1].tension_N / span[1]) * hang;
  }
};

ClamContext clam_context(const MachineParams& m, const StateVector& x, const JointTrig& trig) {
  ClamContext c;
  const Vec3 q = joints(x);
  c.tip = tip_position(m.crane, q, trig);
  c.tip_grad = tip_height_gradient(q, trig);
  c.tip_jac = tip_horizontal_jacobian(m.crane, q, trig);
  c.tip_z_rate = c.tip_grad.dot(joint_rates(x));
  c.hang = Eigen::Vector2d(x(ix::hx), x(ix::hy)) - c.tip.head<2>();
  c.hang_rate = Eigen::Vector2d(x(ix::hvx), x(ix::hvy)) - c.tip_jac * joint_rates(x);
  c.kin = clam_kinematics(m.clam, x(ix::yA), x(ix::yC), x(ix::vA), x(ix::vC));
  const double depth[2] = {x(ix::yA), x(ix::yC)};
  const double depth_rate[2] = {x(ix::vA), x(ix::vC)};
  for (int i = 0; i < 2; ++i) {
    c.drop[i] = depth[i] + c.tip(2);
    c.span[i] = std::sqrt(c.drop[i] * c.drop[i] + c.hang.squaredNorm());
    const double drop_rate = depth_rate[i] + c.tip_z_rate;
    const double rate = (c.drop[i] * drop_rate + c.hang.dot(c.hang_rate)) / c.span[i];
    c.rope[i] = rope_force(m.hydraulics.winches[i], c.span[i], rate, x(ix::len + i),
                           x(ix::lend + i));
  }
  return c;
}

ClamContext clam_context(const MachineParams& m, const StateVector& x) {
  return clam_context(m, x, joint_trig(joints(x)));
}

// The anti-swing chain's pull on the clam (Fig. 2.11), horizontal.
Eigen::Vector2d anti_swing_force(const MachineParams& m, const ClamContext& c) {
  return -m.anti_swing.stiffness_N_per_m * c.hang - m.anti_swing.damping_Ns_per_m * c.hang_rate;
}

ClamSolution clam_solution(const MachineParams& m, const ClamContext& c, const ClamMode& mode,
                           double lift_N) {
  const double g = m.crane.gravity_m_per_s2;
  const double t1 = c.vertical_pull(0), t2 = c.vertical_pull(1);
  if (!locked(mode)) return clam_free(m.clam, c.kin, t1, t2, g, lift_N);
  return clam_locked(m.clam, c.kin, t1, t2, g, mode.load_mass_kg, stop_sign(mode), lift_N);
}

// Flows out of a channel's lines that are neither the valve's nor the actuator's: an
// injected fault's leaks (core/faults.h). Between the load-holding valve and the actuator.
struct FaultLeaks {
  double a = 0.0, b = 0.0;            // out of line A, out of line B [m^3/s]
  double g_a = 0.0, g_b = 0.0;        // their conductances to each line's own pressure
};

FaultLeaks fault_leaks(const MachineParams& m, const Faults& faults, int ch, double pa,
                       double pb) {
  FaultLeaks l;
  const HoseBurst& hose = faults.hoses[static_cast<std::size_t>(ch)];
  if (hose.active) {
    const ValveParams& v = m.hydraulics.channels[static_cast<std::size_t>(ch)].valve;
    const bool on_a = hose.line == HoseLine::A;
    const double p = on_a ? pa : pb;
    (on_a ? l.a : l.b) = hose_leak_flow(hose, v, p);
    (on_a ? l.g_a : l.g_b) = hose_leak_conductance(hose, v, p);
  }
  if (ch >= kMainHoist) {
    const int w = ch - kMainHoist;
    const BrakeSlip& brake = faults.brakes[static_cast<std::size_t>(w)];
    if (brake.active) {
      // the motor's leak from the holding side across to the other
      const double g = brake_leak_conductance(brake, m.hydraulics.winches[static_cast<std::size_t>(w)]);
      l.a += g * (pa - pb);
      l.b -= g * (pa - pb);
      l.g_a += g;
      l.g_b += g;
    }
  }
  return l;
}

// Stage 3: one valve channel feeding two lines, given the actuator's flow out of line A
// into line B (cylinders: cap and rod displacement; motors: D_m * speed) and the faults'.
void line_rates(const ActuatorChannel& ch, double spool, double pa, double pb,
                double drawn_from_a, double returned_to_b, const FaultLeaks& leak,
                double& pa_dot, double& pb_dot) {
  const ValveFlows f = channel_valve(ch, spool, pa, pb);
  // eq 2.24
  pa_dot = line_pressure_rate(
      ch.lines, pa, f.into_a + line_protection_flow(ch.valve, pa) - drawn_from_a - leak.a);
  pb_dot = line_pressure_rate(
      ch.lines, pb, f.into_b + line_protection_flow(ch.valve, pb) + returned_to_b - leak.b);
}

// Each state's decay rate for the integrator: a line's conductance to its valve (with its
// counterbalance valve), relief and fault leaks over its compliance, G / C, the stiff part
// taken exactly; zero for the mechanical states.
StateVector decay_rates(const MachineParams& m, const StateVector& x, const Spools& spool,
                        const Faults& faults) {
  StateVector rate = StateVector::Zero();
  for (int ch = 0; ch < 5; ++ch) {
    const ActuatorChannel& chan = m.hydraulics.channels[ch];
    const ValveParams& v = chan.valve;
    const double pa = x(ix::p + 2 * ch), pb = x(ix::p + 2 * ch + 1);
    const LineConductances g =
        channel_conductances(chan, spool[ch], pa, pb, channel_valve(chan, spool[ch], pa, pb));
    const double c = line_compliance(chan.lines);
    const FaultLeaks leak = fault_leaks(m, faults, ch, pa, pb);
    rate(ix::p + 2 * ch) = (g.a + line_protection_conductance(v, pa) + leak.g_a) / c;
    rate(ix::p + 2 * ch + 1) = (g.b + line_protection_conductance(v, pb) + leak.g_b) / c;
  }
  return rate;
}

// The derivative dx/dt: kinematics -> ropes -> hydraulics -> forces -> accelerations.
// `inertia` is derived from m.crane once per advance (crane_inertia).
StateVector derivative(const MachineParams& m, const CraneInertia& inertia, const StateVector& x,
                       const ClamMode& mode, const Spools& spool, const Faults& faults,
                       const Vec3& world_force, int* singular) {
  const HydraulicsParams& hy = m.hydraulics;
  const CraneParams& cr = m.crane;
  const Vec3 q = joints(x), qd = joint_rates(x);
  const JointTrig trig = joint_trig(q);
  const ClamContext c = clam_context(m, x, trig);
  StateVector dx;
  auto p = [&](int i) { return x(ix::p + i); };
  auto pdot = [&](int i) -> double& { return dx(ix::p + i); };
  auto leak = [&](int ch) { return fault_leaks(m, faults, ch, p(2 * ch), p(2 * ch + 1)); };

  // Swing motor through its gear train (eq 2.26).
  const double swing_torque = motor_output_torque(hy.swing_motor, p(0), p(1), qd(0));
  const double swing_flow = motor_flow(hy.swing_motor, qd(0));
  line_rates(hy.channels[kSwing], spool[kSwing], p(0), p(1), swing_flow, swing_flow,
             leak(kSwing), pdot(0), pdot(1));

  // Boom cylinders through the linkage of Fig. 2.8 (eqs 2.16-2.20).
  const double boom = q(1) - kHalfPi;
  const double lever = boom_cylinder_lever(hy.boom_geometry, boom);
  const double boom_v = lever * qd(1);
  const CylinderParams& bc = hy.boom_cylinders;
  const double boom_torque = cylinder_force(bc, p(2), p(3), boom_v) * lever;
  line_rates(hy.channels[kBoom], spool[kBoom], p(2), p(3), bc.cap_area_m2 * boom_v,
             bc.rod_area_m2 * boom_v, leak(kBoom), pdot(2), pdot(3));

  // Telescope cylinder acts along d3 directly (eq 2.25).
  const CylinderParams& tc = hy.telescope_cylinder;
  const double tel_force = cylinder_force(tc, p(4), p(5), qd(2));
  line_rates(hy.channels[kTelescope], spool[kTelescope], p(4), p(5), tc.cap_area_m2 * qd(2),
             tc.rod_area_m2 * qd(2), leak(kTelescope), pdot(4), pdot(5));

  // Winches: positive pressure difference reels in (rope length shrinks).
  double drum_force[2];
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = hy.winches[i];
    const int ch = kMainHoist + i;
    const double reel_in = -x(ix::lend + i) / w.drum_radius_m;
    const double torque = motor_output_torque(w.motor, p(2 * ch), p(2 * ch + 1), reel_in);
    const double flow = motor_flow(w.motor, reel_in);
    line_rates(hy.channels[ch], spool[ch], p(2 * ch), p(2 * ch + 1), flow, flow, leak(ch),
               pdot(2 * ch), pdot(2 * ch + 1));
    drum_force[i] = c.rope[i].drum_force_N - torque / w.drum_radius_m +
                    stop_force(x(ix::len + i), x(ix::lend + i), w.min_length_m, w.max_length_m,
                               w.stop_stiffness_N_per_m, w.stop_damping_Ns_per_m);
    dx(ix::len + i) = x(ix::lend + i);
    dx(ix::lend + i) = drum_force[i] * w.drum_radius_m * w.drum_radius_m / w.drum_inertia_kgm2;
  }

  // Joint forces: actuators, hard stops, and the ropes and the anti-swing chain pulling
  // the tip towards the clam.
  Vec3 tau(swing_torque, boom_torque, tel_force);
  tau(1) += stop_force(boom, qd(1), cr.boom_min_rad, cr.boom_max_rad,
                       cr.boom_stop_stiffness_Nm_per_rad, cr.boom_stop_damping_Nms_per_rad);
  tau(2) += stop_force(q(2), qd(2), cr.telescope_min_m, cr.telescope_max_m,
                       cr.telescope_stop_stiffness_N_per_m, cr.telescope_stop_damping_Ns_per_m);
  const Eigen::Vector2d chain = anti_swing_force(m, c);
  const Eigen::Vector2d ropes_on_clam = c.horizontal_pull();
  tau -= (c.vertical_pull(0) + c.vertical_pull(1)) * c.tip_grad;
  tau -= c.tip_jac.transpose() * (ropes_on_clam + chain);   // reactions at the tip

  // The clam is its own body now: the crane carries it only through the ropes and chain.
  const CraneDynamics dyn = crane_dynamics(cr, inertia, q, trig, qd, 0.0);
  dx.segment<3>(ix::q) = qd;
  dx.segment<3>(ix::qd) = dyn.mass.ldlt().solve(tau - dyn.velocity - dyn.gravity);

  const double clam_total = clam_mass(m.clam, mode.load_mass_kg);
  dx(ix::hx) = x(ix::hvx);
  dx(ix::hy) = x(ix::hvy);
  dx.segment<2>(ix::hvx) = (ropes_on_clam + chain + world_force.head<2>()) / clam_total;

  const ClamSolution sol = clam_solution(m, c, mode, world_force(2));
  if (!sol.ok && singular) ++*singular;
  dx(ix::yA) = x(ix::vA);
  dx(ix::yC) = x(ix::vC);
  dx(ix::vA) = sol.aA;
  dx(ix::vC) = sol.aC;
  return dx;
}

// A stuck spool stays at the opening it stuck at, whatever the stick says.
Spools spools_for(const MachineParams& m, const Control& u, const Faults& faults) {
  Spools s;
  for (std::size_t i = 0; i < 5; ++i) {
    const SpoolStick& stick = faults.spools[i];
    s[i] = spool_position(m.hydraulics.channels[i].valve, stick.active ? stick.volts : u.volts[i]);
  }
  return s;
}

// Bits of the hard stops in contact, to count new hits.
std::uint8_t engaged_stops(const MachineParams& m, const StateVector& x) {
  const double boom = x(ix::q + 1) - kHalfPi, d3 = x(ix::q + 2);
  std::uint8_t bits = 0;
  if (boom < m.crane.boom_min_rad || boom > m.crane.boom_max_rad) bits |= 1;
  if (d3 < m.crane.telescope_min_m || d3 > m.crane.telescope_max_m) bits |= 2;
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = m.hydraulics.winches[i];
    const double len = x(ix::len + i);
    if (len < w.min_length_m || len > w.max_length_m) bits |= static_cast<std::uint8_t>(4 << i);
  }
  return bits;
}

GeoStatus geo_of(const ClamParams& cp, double s) {
  constexpr double tol = 1e-9;
  if (s <= clam_distance_at(cp, cp.theta2_closed_rad) + tol) return GeoStatus::Close;
  if (s >= clam_distance_at(cp, cp.theta2_open_rad) - tol) return GeoStatus::Open;
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

// Working-state changes allowed by Table 2.3, with the conditions of Table 2.5.
JawEvent clam_events(const MachineParams& m, State& st, const JawObject& obj, double lift_N) {
  JawEvent event = JawEvent::None;
  const ClamParams& cp = m.clam;
  ClamMode& mode = st.clam;
  const ClamContext c = clam_context(m, st.x);
  const ClamKinematics& k = c.kin;

  if (mode.working == WorkingState::Free) {
    const double s_closed = clam_distance_at(cp, cp.theta2_closed_rad);
    const double s_open = clam_distance_at(cp, cp.theta2_open_rad);
    if (obj.present && k.s_dot < 0.0 && clam_jaw_gap(cp, k.theta2) <= obj.width_m) {
      // Table 2.5: contact with an object while closing from Free -> With-load, Distributed.
      mode.load = LoadStatus::WithLoad;
      mode.load_mass_kg = obj.mass_kg;
      mode.grip_secured = false;
      lock_at(m, st, k, k.s);
      event = JawEvent::Gripped;
    } else if (k.s <= s_closed) {
      lock_at(m, st, k, s_closed);
    } else if (k.s >= s_open) {
      lock_at(m, st, k, s_open);
    }
  } else {
    const ClamSolution sol = clam_solution(m, c, mode, lift_N);
    const bool was_full = mode.working == WorkingState::Full;
    bool leave = false;
    if (mode.load == LoadStatus::WithLoad) {
      // The squeeze builds up after contact; once it has held the load, falling below the
      // threshold lets the load slip out. Before that, only pulling apart loses it.
      const double squeeze = clam_squeeze_force(cp, k, sol.stop_force_N);
      if (squeeze >= cp.release_squeeze_N) mode.grip_secured = true;
      const bool failing = (mode.grip_secured && squeeze < cp.release_squeeze_N) ||
                           sol.stop_force_N < -kStopRelease_N;
      mode.slip_s = failing ? mode.slip_s + m.integrator.step_s : 0.0;
      if (mode.slip_s >= kSlipTime_s) {
        mode.slip_s = 0.0;
        mode.load = LoadStatus::WithoutLoad;
        mode.load_mass_kg = 0.0;
        mode.grip_secured = false;
        ++st.health.loads_released;
        leave = true;
        event = JawEvent::Released;
      }
    } else {
      // The ropes pull the links away from the stop, or a released load left them mid-range.
      leave = sol.stop_force_N < -kStopRelease_N || geo_of(cp, k.s) == GeoStatus::InRange;
    }
    if (leave) {
      set_working(st, was_full ? WorkingState::Distributed : WorkingState::Free);  // Table 2.3
    } else {
      const bool both_taut = c.rope[0].tension_N > 0.0 && c.rope[1].tension_N > 0.0;
      set_working(st, both_taut ? WorkingState::Distributed : WorkingState::Full);
    }
  }
  mode.geo = mode.load == LoadStatus::WithLoad ? GeoStatus::InRange
                                               : geo_of(cp, st.x(ix::yC) - st.x(ix::yA));
  return event;
}

// Rope and load events an instructor cares about: a visible slack loop, an overload.
void rope_events(const MachineParams& m, State& st) {
  const ClamContext c = clam_context(m, st.x);
  WorldState& w = st.world;
  bool over = st.clam.load_mass_kg > m.clam.max_load_kg;
  for (int i = 0; i < 2; ++i) {
    const WinchParams& wp = m.hydraulics.winches[i];
    const double loop = st.x(ix::len + i) - c.span[i];
    if (!w.rope_slack[i] && loop > wp.slack_margin_m) {
      w.rope_slack[i] = true;
      ++w.events.slack_cable_events;
    } else if (w.rope_slack[i] && loop < 0.5 * wp.slack_margin_m) {
      w.rope_slack[i] = false;
    }
    over = over || c.rope[i].tension_N > wp.rated_pull_N;
  }
  if (over && !w.overloaded) ++w.events.overload_events;
  w.overloaded = over;
}

}  // namespace

State initial_state(const MachineParams& m, const InitialConditions& init) {
  State st;
  StateVector& x = st.x;
  x.setZero();
  x(ix::q + 0) = init.swing_rad;
  x(ix::q + 1) = kHalfPi + init.boom_rad;
  x(ix::q + 2) = init.telescope_m;
  const Vec3 q = joints(x);
  const Vec3 tip = tip_position(m.crane, q);
  const double s = clam_distance_at(m.clam, init.clam_theta2_rad);
  x(ix::yA) = -tip(2) + init.clam_depth_m;
  x(ix::hx) = tip(0);   // hanging still, straight under the tip
  x(ix::hy) = tip(1);
  x(ix::yC) = x(ix::yA) + s;
  st.clam.geo = geo_of(m.clam, s);
  st.clam.working =
      st.clam.geo == GeoStatus::InRange ? WorkingState::Free : WorkingState::Distributed;

  // Rope tensions that hold the Free mechanism at rest: a_A, a_C are affine in (T1, T2).
  const double g = m.crane.gravity_m_per_s2;
  const ClamKinematics k = clam_kinematics(m.clam, x(ix::yA), x(ix::yC), 0.0, 0.0);
  const ClamSolution s0 = clam_free(m.clam, k, 0.0, 0.0, g);
  const ClamSolution s1 = clam_free(m.clam, k, 1.0, 0.0, g);
  const ClamSolution s2 = clam_free(m.clam, k, 0.0, 1.0, g);
  Eigen::Matrix2d gain;
  gain << s1.aA - s0.aA, s2.aA - s0.aA, s1.aC - s0.aC, s2.aC - s0.aC;
  const Eigen::Vector2d tension = gain.partialPivLu().solve(-Eigen::Vector2d(s0.aA, s0.aC));

  // Unstretched rope lengths for those tensions: span = L (1 + T / EA).
  const HydraulicsParams& hy = m.hydraulics;
  const double span[2] = {x(ix::yA) + tip(2), x(ix::yC) + tip(2)};
  for (int i = 0; i < 2; ++i)
    x(ix::len + i) = span[i] / (1.0 + tension(i) / hy.winches[i].rope_EA_N);

  // Line pressures that hold everything still with the valves centred.
  for (int ch = 0; ch < 5; ++ch) {
    x(ix::p + 2 * ch) = hy.channels[ch].valve.tank_pressure_Pa;
    x(ix::p + 2 * ch + 1) = hy.channels[ch].valve.tank_pressure_Pa;
  }
  const ClamContext c = clam_context(m, x);
  const CraneDynamics dyn = crane_dynamics(m.crane, q, Vec3::Zero(), 0.0);
  const Vec3 hold = dyn.gravity + (c.rope[0].tension_N + c.rope[1].tension_N) * c.tip_grad;
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
  st.stops_engaged = engaged_stops(m, x);
  return st;
}

namespace {

// One step with the model's derived inertia already built (advance_to builds it once).
void step_with(const MachineParams& m, const CraneInertia& inertia, State& st, const Control& u,
               const Environment& env) {
  const double h = m.integrator.step_s;
  const Spools spool = spools_for(m, u, env.faults);
  const StateVector before = st.x;

  // The world's pushes on the clam, held over the step; the loads' reactions wait for
  // advance_loads. Without a world there is nothing between the jaws to grip.
  JawObject between_jaws;
  ClamWorldForces world;
  const Vec3d current(env.faults.water_velocity_m_per_s[0], env.faults.water_velocity_m_per_s[1], 0.0);
  LoadPushes pushes;
  int jaw_load = -1;
  if (env.world) {
    const ClamPose pose = clam_pose(m, st.x);
    world = clam_world_forces(m, *env.world, st.world, pose, h, current, pushes);
    between_jaws = find_jaw_object(m, *env.world, st.world, pose, &jaw_load);
  }

  int singular = 0;
  etd_rk4_step(st.x, h, decay_rates(m, st.x, spool, env.faults), [&](const StateVector& x) {
    return derivative(m, inertia, x, st.clam, spool, env.faults, world.force_N, &singular);
  });
  st.health.singular_solves += static_cast<std::uint64_t>(singular);
  // a step's last stage may overshoot the vapour floor the lines' rates stop at
  for (int i = 0; i < 10; ++i) {
    const double floor = m.hydraulics.channels[i / 2].lines.floor_Pa;
    st.x(ix::p + i) = std::max(st.x(ix::p + i), floor);
  }
  if (!st.x.allFinite()) {
    // Numerical failure: keep the last good pose, stop all motion, count it.
    st.x = before;
    st.x.segment<3>(ix::qd).setZero();
    st.x(ix::vA) = st.x(ix::vC) = 0.0;
    st.x.segment<2>(ix::lend).setZero();
    st.x.segment<2>(ix::hvx).setZero();
    ++st.health.nonfinite_resets;
  }
  const double mass_before = clam_mass(m.clam, st.clam.load_mass_kg);
  const JawEvent jaw = clam_events(m, st, between_jaws, world.force_N(2));
  if (env.world) {
    const ClamPose pose = clam_pose(m, st.x);
    if (jaw == JawEvent::Gripped && jaw_load >= 0) {
      // The load joins the clam's horizontal motion: momentum is shared (inelastic).
      const LoadBody& load = st.world.loads[static_cast<std::size_t>(jaw_load)];
      const Eigen::Vector2d p = mass_before * st.x.segment<2>(ix::hvx) +
                                st.clam.load_mass_kg * load.velocity_m_per_s.head<2>();
      st.x.segment<2>(ix::hvx) = p / clam_mass(m.clam, st.clam.load_mass_kg);
      grip_load(st.world, jaw_load, pose);
    } else if (jaw == JawEvent::Released) {
      release_load(st.world, pose);
    }
    // The loads' stiff contacts take sub-steps; each keeps the clam's contact markers and
    // adds its own, so the last sub-step's are the ones shown.
    const int sub = load_substeps(env.world->contact, h);
    const int clam_markers = st.world.marker_count;
    for (int k = 0; k < sub; ++k) {
      st.world.marker_count = clam_markers;
      advance_loads(*env.world, st.world, pose, pushes, h / sub, m.crane.gravity_m_per_s2, current);
    }
    st.world.clam_world_force_N = world.force_N;
    st.world.clam_contact_N = world.contact_N;
    st.world.clam_submerged = world.submerged;
  }
  rope_events(m, st);
  const std::uint8_t engaged = engaged_stops(m, st.x);
  if (engaged & ~st.stops_engaged) ++st.health.limit_hits;
  st.stops_engaged = engaged;
  ++st.steps;
  st.time_s = static_cast<double>(st.steps) * h;
}

}  // namespace

void step(const MachineParams& m, State& st, const Control& u, const Environment& env) {
  step_with(m, crane_inertia(m.crane), st, u, env);
}

void advance_to(const MachineParams& m, State& st, const Control& u, const Environment& env,
                double t_end_s) {
  const double h = m.integrator.step_s;
  const double n = std::floor((t_end_s - st.time_s) / h + 0.5);
  const CraneInertia inertia = crane_inertia(m.crane);
  for (long i = 0; i < static_cast<long>(n); ++i) step_with(m, inertia, st, u, env);
}

Outputs outputs(const MachineParams& m, const State& st, const Environment& env) {
  const StateVector& x = st.x;
  const ClamContext c = clam_context(m, x);
  const ClamSolution sol = clam_solution(m, c, st.clam, st.world.clam_world_force_N.z());
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
  o.theta1_clam_deg = k.theta1 * kRadToDeg;
  o.theta2_clam_deg = k.theta2 * kRadToDeg;
  const double opening = 2.0 * (m.clam.theta2_closed_rad - k.theta2) * kRadToDeg;
  // Table 4.1 order and units; [3] is the distance from the tip to the clam (rope 1).
  o.display = {o.joint_pos[0], o.joint_pos[1], o.joint_pos[2], c.span[0],
               opening < 0.0 ? 0.0 : opening, x(ix::len), x(ix::len + 1), st.clam.load_mass_kg};
  for (int i = 0; i < 10; ++i) o.pressures_Pa[i] = x(ix::p + i);
  o.tensions_N = {c.rope[0].tension_N, c.rope[1].tension_N};
  o.cable_rates_m_per_s = {x(ix::lend), x(ix::lend + 1)};
  o.jaw_gap_m = clam_jaw_gap(m.clam, k.theta2);
  o.stop_force_N = locked(st.clam) ? sol.stop_force_N : 0.0;
  o.squeeze_N = st.clam.load == LoadStatus::WithLoad ? clam_squeeze_force(m.clam, k, sol.stop_force_N)
                                                     : 0.0;
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

  const WorldState& w = st.world;
  o.clam_contact_force_N = w.clam_contact_N;
  o.clam_submerged = w.clam_submerged;
  o.turbidity = env.faults.turbidity;
  o.load_count = w.load_count;
  o.held_load = w.held_load;
  for (int i = 0; i < w.load_count; ++i) {
    const LoadBody& b = w.loads[static_cast<std::size_t>(i)];
    Outputs::Load& l = o.loads[static_cast<std::size_t>(i)];
    l.position_m = arr(b.position_m);
    l.orientation = {b.orientation.w(), b.orientation.x(), b.orientation.y(), b.orientation.z()};
    l.velocity_m_per_s = arr(b.velocity_m_per_s);
    l.held = b.held;
    l.in_contact = b.in_contact;
    l.asleep = b.asleep;
    if (env.world) l.submerged = load_submerged_fraction(*env.world, i, b);
  }
  o.contact_count = w.marker_count;
  o.contacts = w.markers;
  o.events = w.events;
  return o;
}

double total_energy(const MachineParams& m, const State& st) {
  const StateVector& x = st.x;
  const Vec3 q = joints(x), qd = joint_rates(x);
  const CraneParams& cr = m.crane;
  const HydraulicsParams& hy = m.hydraulics;
  const double load = st.clam.load_mass_kg;
  double e = crane_kinetic_energy(cr, q, qd, 0.0) + crane_potential_energy(cr, q);
  // The clam's horizontal motion and the anti-swing spring.
  e += 0.5 * clam_mass(m.clam, load) * x.segment<2>(ix::hvx).squaredNorm();
  e += stop_energy(q(1) - kHalfPi, cr.boom_min_rad, cr.boom_max_rad,
                   cr.boom_stop_stiffness_Nm_per_rad);
  e += stop_energy(q(2), cr.telescope_min_m, cr.telescope_max_m,
                   cr.telescope_stop_stiffness_N_per_m);
  const ClamContext c = clam_context(m, x);
  e += clam_energy(m.clam, c.kin, x(ix::yA), x(ix::yC), x(ix::vA), load, cr.gravity_m_per_s2);
  e += 0.5 * m.anti_swing.stiffness_N_per_m * c.hang.squaredNorm();
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = hy.winches[i];
    const double rate = x(ix::lend + i) / w.drum_radius_m;
    e += 0.5 * w.drum_inertia_kgm2 * rate * rate;
    e += rope_energy(w, c.span[i], x(ix::len + i));
    e += stop_energy(x(ix::len + i), w.min_length_m, w.max_length_m, w.stop_stiffness_N_per_m);
  }
  for (int ch = 0; ch < 5; ++ch) {
    const double cc = line_compliance(hy.channels[ch].lines);
    for (int l = 0; l < 2; ++l) e += 0.5 * cc * x(ix::p + 2 * ch + l) * x(ix::p + 2 * ch + l);
  }
  return e;
}

}  // namespace clamsim::core
