#include "core/derivative.h"

#include <Eigen/Dense>
#include <cmath>

#include "core/faults.h"
#include "core/hydraulics.h"
#include "core/reeving.h"
#include "core/stops.h"

namespace clamsim::core {

namespace {

Vec3 joints(const StateVector& x) { return x.segment<3>(ix::q); }
Vec3 joint_rates(const StateVector& x) { return x.segment<3>(ix::qd); }

// Flows out of a channel's lines that are neither the valve's nor the actuator's: an
// injected fault's leaks (core/faults.h). Between the load-holding valve and the actuator.
struct FaultLeaks {
  double a = 0.0, b = 0.0;            // out of line A, out of line B [m^3/s]
  double g_a = 0.0, g_b = 0.0;        // their conductances to each line's own pressure
};

FaultLeaks leaks_of_faults(const MachineParams& m, const Faults& faults, int ch, double pa,
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

// Every channel at every stage asks; nearly always nothing is injected, which this answers
// without a call.
inline FaultLeaks fault_leaks(const MachineParams& m, const Faults& faults, int ch, double pa,
                              double pb) {
  const bool brake = ch >= kMainHoist && faults.brakes[static_cast<std::size_t>(ch - kMainHoist)].active;
  if (!brake && !faults.hoses[static_cast<std::size_t>(ch)].active) return {};
  return leaks_of_faults(m, faults, ch, pa, pb);
}

// The integrator's decay rates of a channel's two lines (decay_rates), from the valve's flows
// at these pressures.
void line_decay_rates(const ActuatorChannel& ch, double spool, double pa, double pb,
                      double pilot, double poppet, const ValveFlows& f, const FaultLeaks& leak,
                      double* decay) {
  const LineConductances g = channel_conductances(ch, spool, pa, pb, pilot, f, poppet);
  const double k = line_stiffness(ch.lines);
  decay[0] = (g.a + line_protection_conductance(ch.valve, pa) + leak.g_a) * k;
  decay[1] = (g.b + line_protection_conductance(ch.valve, pb) + leak.g_b) * k;
}

// Stage 3: one valve channel feeding two lines, given the valve's flows, the actuator's flow
// out of line A into line B (cylinders: cap and rod displacement; motors: D_m * speed) and
// the faults'.
void line_rates(const ActuatorChannel& ch, double pa, double pb, const ValveFlows& f,
                double drawn_from_a, double returned_to_b, const FaultLeaks& leak,
                double& pa_dot, double& pb_dot) {
  // eq 2.24
  const double k = line_stiffness(ch.lines);
  pa_dot = line_pressure_rate(
      ch.lines, pa, f.into_a + line_protection_flow(ch.valve, pa) - drawn_from_a - leak.a, k);
  pb_dot = line_pressure_rate(
      ch.lines, pb, f.into_b + line_protection_flow(ch.valve, pb) + returned_to_b - leak.b, k);
}

// A lagging poppet's decay rate, 1 / T_poppet: its first order do/dt = (o_static - o) / T
// is the integrator's stiff linear part, taken exactly at any h / T (core/integrator.h); the
// static opening's movement with the pressures is left to the explicit weights.
void poppet_decay_rates(const MachineParams& m, StateVector& rate) {
  for (int ch = 0; ch < 5; ++ch) {
    const ActuatorChannel& chan = m.hydraulics.channels[static_cast<std::size_t>(ch)];
    rate(ix::poppet + ch) = poppet_lags(chan) ? 1.0 / chan.counterbalance.poppet_lag_s : 0.0;
  }
}

}  // namespace

// A stuck spool stays at the opening it stuck at, whatever the stick says.
Spools spools_for(const MachineParams& m, const Control& u, const Faults& faults) {
  Spools s;
  for (std::size_t i = 0; i < 5; ++i) {
    const SpoolStick& stick = faults.spools[i];
    s[i] = spool_position(m.hydraulics.channels[i].valve, stick.active ? stick.volts : u.volts[i]);
  }
  return s;
}

Spools spool_half_step_decay(const MachineParams& m) {
  Spools e{};
  const double h = m.integrator.step_s;
  for (std::size_t i = 0; i < 5; ++i) {
    const double lag = m.hydraulics.channels[i].valve.spool_lag_s;
    e[i] = lag > 0.0 ? std::exp(-0.5 * h / lag) : 0.0;
  }
  return e;
}

SpoolTrack spool_track(const MachineParams& m, const Spools& half_step_decay, const Spools& from,
                       const Spools& asked) {
  SpoolTrack t;
  for (std::size_t i = 0; i < 5; ++i) {
    const double e = half_step_decay[i], gap = from[i] - asked[i];
    const bool lags = m.hydraulics.channels[i].valve.spool_lag_s > 0.0;
    t.start[i] = lags ? from[i] : asked[i];
    t.half[i] = asked[i] + gap * e;
    t.end[i] = asked[i] + gap * e * e;
  }
  return t;
}

double stop_sign(const ClamMode& mode) {
  if (mode.load == LoadStatus::WithLoad) return 1.0;
  return mode.geo == GeoStatus::Open ? -1.0 : 1.0;
}

bool locked(const ClamMode& mode) { return mode.working != WorkingState::Free; }

ClamContext clam_context(const MachineParams& m, const StateVector& x, const JointTrig& trig) {
  ClamContext c;
  const Vec3 q = joints(x);
  c.trig = trig;
  c.tip = tip_position(m.crane, q, trig);
  c.tip_grad = tip_height_gradient(q, trig);
  c.tip_jac = tip_horizontal_jacobian(m.crane, q, trig);
  c.tip_z_rate = c.tip_grad.dot(joint_rates(x));
  c.hang = Eigen::Vector2d(x(ix::hx), x(ix::hy)) - c.tip.head<2>();
  c.hang_rate = Eigen::Vector2d(x(ix::hvx), x(ix::hvy)) - c.tip_jac * joint_rates(x);
  c.kin = clam_kinematics(m.clam, x(ix::yA), x(ix::yC), x(ix::vA), x(ix::vC));
  c.drop = x(ix::yA) + c.tip(2);
  c.reach = std::sqrt(c.drop * c.drop + c.hang.squaredNorm());
  const double reach_rate =
      (c.drop * (x(ix::vA) + c.tip_z_rate) + c.hang.dot(c.hang_rate)) / c.reach;
  const double parts = m.clam.closing_parts;
  c.span[0] = c.reach;
  c.span[1] = c.reach + parts * c.kin.s;
  const double span_rate[2] = {reach_rate, reach_rate + parts * c.kin.s_dot};
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = m.hydraulics.winches[i];
    const ReevedPath path = reeved_path(m.crane, w.reeving, q, trig);
    c.path[i] = path.length_m;
    c.path_grad[i] = path.grad;
    c.path_rate[i] = path.grad.dot(joint_rates(x));
    // the whole rope, drum to clam, stretches under one tension (frictionless sheaves)
    c.rope[i] = rope_force(w, c.path[i] + c.span[i], c.path_rate[i] + span_rate[i],
                           x(ix::len + i), x(ix::lend + i));
  }
  c.axis = clam_axis(x);
  if (m.anti_swing.fitted) c.chain = anti_swing_chain(m, x, c);
  return c;
}

ClamContext clam_context(const MachineParams& m, const StateVector& x) {
  return clam_context(m, x, joint_trig(joints(x)));
}

ClamAxis clam_axis(const StateVector& x) {
  ClamAxis a;
  for (int i = 0; i < 2; ++i) sin_cos(x(ix::tilt + i), &a.sin(i), &a.cos(i));
  // both tilts near 90 deg at once would lift the axis above A: kept just below level
  const double level = std::sqrt(std::max(1e-6, 1.0 - a.sin.squaredNorm()));
  a.down = Vec3(a.sin(0), a.sin(1), -level);
  return a;
}

Eigen::Vector2d anti_swing_force(const AntiSwingParams& a, const Eigen::Vector2d& offset_m,
                                 const Eigen::Vector2d& rate_m_per_s) {
  if (!a.fitted) return Eigen::Vector2d::Zero();
  // Coulomb friction against the eye's motion, v / sqrt(|v|^2 + v_s^2): its full value once
  // the eye moves faster than v_s, viscous (friction / v_s) below, so that a 2.5 ms step sees
  // a force that changes smoothly and the grab comes to rest at the plumb, not wherever the
  // friction last held it
  const double v_s = a.friction_velocity_m_per_s;
  const Eigen::Vector2d friction =
      a.friction_N / std::sqrt(rate_m_per_s.squaredNorm() + v_s * v_s) * rate_m_per_s;
  return -a.stiffness_N_per_m * offset_m - a.damping_Ns_per_m * rate_m_per_s - friction;
}

double anti_swing_energy(const AntiSwingParams& a, const Eigen::Vector2d& offset_m) {
  if (!a.fitted) return 0.0;
  return 0.5 * a.stiffness_N_per_m * offset_m.squaredNorm();
}

AntiSwingChain anti_swing_chain(const MachineParams& m, const StateVector& x,
                                const ClamContext& c) {
  const AntiSwingParams& a = m.anti_swing;
  AntiSwingChain ch;
  if (!a.fitted) return ch;
  // The eye is e below A on the body's axis, eye = A + e axis(tilt). Relative to the tip:
  // the roll pays out with the ropes and travels with the boom, so only the chain's angle
  // against the plumb works the spring and the friction. The context has A's offset from the
  // tip (hang) and its rate already; the axis's horizontal part turns with each tilt alone
  // (d axis_x / d tilt_x = cos tilt_x, clam_axis), so the eye's rate adds e cos(phi) phi'.
  const ClamAxis& axis = c.axis;
  const double e = a.attach_below_a_m;
  ch.offset_m = c.hang + e * axis.down.head<2>();
  ch.offset_rate_m_per_s =
      c.hang_rate + e * axis.cos.cwiseProduct(x.segment<2>(ix::tiltd));
  ch.force_N.head<2>() = anti_swing_force(a, ch.offset_m, ch.offset_rate_m_per_s);
  // virtual work at the eye: a horizontal force F does F . d(eye)/d(tilt_i) = e F_i cos(phi_i)
  ch.on_tilt = e * axis.cos.cwiseProduct(ch.force_N.head<2>());
  return ch;
}

SwingAccelerations swing_accelerations(const SwingBody& body, double g, const ClamAxis& axis,
                                       const Eigen::Vector2d& tilt_rate,
                                       const Eigen::Vector2d& force,
                                       const Eigen::Vector2d& tilt_force) {
  // Axis by axis, the Lagrangian of the head (mass M at h) and the body turned by phi about
  // it, centre of gravity d below A: T = M h'^2 / 2 + M d cos(phi) h' phi' + J_A phi'^2 / 2,
  // V = M g d (1 - cos phi). Its 2 x 2 mass matrix has determinant M (J_G + M d^2 sin^2),
  // never 0.
  SwingAccelerations a;
  const double mass = body.mass_kg, d = body.cog_below_a_m, ja = body.about_a_kgm2();
  for (int i = 0; i < 2; ++i) {
    const double c = axis.cos(i), s = axis.sin(i), w = tilt_rate(i);
    const double coupling = mass * d * c;
    const double f = force(i) + mass * d * s * w * w;
    const double q = tilt_force(i) - mass * g * d * s;
    const double det = mass * ja - coupling * coupling;
    a.head(i) = (ja * f - coupling * q) / det;
    a.tilt(i) = (mass * q - coupling * f) / det;
  }
  return a;
}

ClamSolution clam_solution(const MachineParams& m, const ClamContext& c, const ClamMode& mode,
                           const WorldPush& world) {
  const double g = m.crane.gravity_m_per_s2;
  const ClamPulls p = c.pulls(m.clam);
  // a push on the head acts at A like the ropes' pull there
  const double at_a = p.at_A + world.head_up_N, lift = world.at_c_up_N();
  if (!locked(mode)) return clam_free(m.clam, c.kin, at_a, p.at_C, g, lift);
  return clam_locked(m.clam, c.kin, at_a, p.at_C, g, mode.load_mass_kg, stop_sign(mode), lift);
}

double head_mass_kg(const MachineParams& m, const ClamContext& c, const ClamMode& mode) {
  const double whole = clam_mass(m.clam, mode.load_mass_kg);
  const ClamSolution at_rest = clam_solution(m, c, mode, WorldPush{});
  const ClamSolution pushed = clam_solution(m, c, mode, WorldPush(Vec3(0.0, 0.0, 1.0), 1.0));
  const double give = at_rest.aA - pushed.aA;   // a_A is down: 1 N up slows it by 1 / mass
  if (!at_rest.ok || !pushed.ok || !(give > 1.0 / whole)) return whole;
  return 1.0 / give;
}

DerivedModel derived_model(const MachineParams& m) {
  return {crane_inertia(m.crane), boom_linkage(m.hydraulics.boom_geometry),
          swing_body(m.clam, 0.0)};
}

HydraulicStage hydraulic_stage(const MachineParams& m, const StateVector& x, const Spools& spool,
                               const Faults& faults) {
  return hydraulic_stage(m, boom_linkage(m.hydraulics.boom_geometry), joint_trig(joints(x)), x,
                         spool, faults, false);
}

namespace {

// hydraulic_stage, compiled with and without the decay rates so that the stages that do not
// need them pay nothing for them.
template <bool kWithDecay>
HydraulicStage hydraulic_stage_of(const MachineParams& m, const BoomLinkage& boom,
                                  const JointTrig& trig, const StateVector& x,
                                  const Spools& spool, const Faults& faults) {
  const HydraulicsParams& hy = m.hydraulics;
  const Vec3 qd = joint_rates(x);
  HydraulicStage out;
  auto p = [&](int i) { return x(ix::p + i); };
  // One channel's lines, given the actuator's flows out of line A and into line B.
  auto channel = [&](int ch, double drawn_from_a, double returned_to_b) {
    const auto c = static_cast<std::size_t>(ch);
    const double pa = p(2 * ch), pb = p(2 * ch + 1);
    const double pilot = pilot_pressure(hy.channels[c], pb, x(ix::pilot + ch));
    const double poppet = x(ix::poppet + ch);
    const double stroke = spool[c];
    const FaultLeaks leak = fault_leaks(m, faults, ch, pa, pb);
    const ValveFlows f = channel_valve(hy.channels[c], stroke, pa, pb, pilot, poppet);
    line_rates(hy.channels[c], pa, pb, f, drawn_from_a, returned_to_b, leak,
               out.pressure_rate[2 * c], out.pressure_rate[2 * c + 1]);
    out.pilot_rate[c] = pilot_rate(hy.channels[c], pb, x(ix::pilot + ch));
    out.poppet_rate[c] = poppet_rate(hy.channels[c], pa, pilot, poppet);
    if constexpr (kWithDecay)
      line_decay_rates(hy.channels[c], stroke, pa, pb, pilot, poppet, f, leak,
                       &out.decay_rate[2 * c]);
  };

  // Swing motor through its gear train (eq 2.26).
  out.joint(0) = motor_output_torque(hy.swing_motor, p(0), p(1), qd(0));
  const double swing_flow = motor_flow(hy.swing_motor, qd(0), p(0), p(1));
  channel(kSwing, swing_flow, swing_flow);

  // Boom cylinders through the linkage of Fig. 2.8 (eqs 2.16-2.20).
  const double lever = boom_cylinder_lever(boom, trig);
  const double boom_v = lever * qd(1);
  const CylinderParams& bc = hy.boom_cylinders;
  out.joint(1) = cylinder_force(bc, p(2), p(3), boom_v) * lever;
  channel(kBoom, bc.cap_area_m2 * boom_v, bc.rod_area_m2 * boom_v);

  // Telescope cylinder acts along d3 directly (eq 2.25).
  const CylinderParams& tc = hy.telescope_cylinder;
  out.joint(2) = cylinder_force(tc, p(4), p(5), qd(2));
  channel(kTelescope, tc.cap_area_m2 * qd(2), tc.rod_area_m2 * qd(2));

  // Winches: positive pressure difference reels in (rope length shrinks).
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = hy.winches[static_cast<std::size_t>(i)];
    const int ch = kMainHoist + i;
    const double reel_in = -x(ix::lend + i) / w.drum_radius_m;
    const double torque = motor_output_torque(w.motor, p(2 * ch), p(2 * ch + 1), reel_in);
    const double flow = motor_flow(w.motor, reel_in, p(2 * ch), p(2 * ch + 1));
    channel(ch, flow, flow);
    out.drum_pull_N[static_cast<std::size_t>(i)] = torque / w.drum_radius_m;
  }
  return out;
}

}  // namespace

HydraulicStage hydraulic_stage(const MachineParams& m, const BoomLinkage& boom,
                               const JointTrig& trig, const StateVector& x, const Spools& spool,
                               const Faults& faults, bool with_decay) {
  return with_decay ? hydraulic_stage_of<true>(m, boom, trig, x, spool, faults)
                    : hydraulic_stage_of<false>(m, boom, trig, x, spool, faults);
}

ForceStage force_stage(const MachineParams& m, const StateVector& x, const ClamContext& c,
                       const HydraulicStage& hy, const WorldPush& world) {
  const CraneParams& cr = m.crane;
  const Vec3 q = joints(x), qd = joint_rates(x);
  ForceStage out;
  out.joint = hy.joint;
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = m.hydraulics.winches[static_cast<std::size_t>(i)];
    // The drum's end stops act on the hanging length len - path: at the short end the block
    // is against the tip sheave, so the stop pushes the drum and (through the path) the boom.
    const double stop = stop_force(hanging_length(c, x, i), x(ix::lend + i) - c.path_rate[i],
                                   w.min_length_m, w.max_length_m, w.stop_stiffness_N_per_m,
                                   w.stop_damping_Ns_per_m);
    out.drum_N[static_cast<std::size_t>(i)] =
        c.rope[i].drum_force_N - hy.drum_pull_N[static_cast<std::size_t>(i)] + stop;
    // Virtual work of the rope along the boom: tension T over the stretched length
    // path(q) + span does -T dpath/dq on the joints (the span's part is the tip's, below);
    // the stop's generalised force on q is stop * d(len - path)/dq.
    out.joint -= (c.rope[i].tension_N + stop) * c.path_grad[i];
  }
  out.joint(1) += stop_force(q(1) - kHalfPi, qd(1), cr.boom_min_rad, cr.boom_max_rad,
                             cr.boom_stop_stiffness_Nm_per_rad, cr.boom_stop_damping_Nms_per_rad);
  out.joint(2) += stop_force(q(2), qd(2), cr.telescope_min_m, cr.telescope_max_m,
                             cr.telescope_stop_stiffness_N_per_m, cr.telescope_stop_damping_Ns_per_m);
  const Eigen::Vector2d ropes_on_clam = c.horizontal_pull();
  out.joint -= c.vertical_pull() * c.tip_grad;
  // reactions at the tip, of the ropes and of the chain's guide hung under the tip sheave
  out.joint -= c.tip_jac.transpose() * (ropes_on_clam + c.chain.force_N.head<2>());
  // (the world's push acts at the body's centre of gravity: its part on the tilts is
  // added where the body is known, in derivative())
  const Eigen::Vector2d pushed = world.force_N.head<2>();
  out.clam_horizontal = ropes_on_clam + c.chain.force_N.head<2>() + pushed;
  out.clam_tilt = c.chain.on_tilt;
  return out;
}

StateVector decay_rates(const MachineParams& m, const StateVector& x, const Spools& spool,
                        const Faults& faults) {
  StateVector rate = StateVector::Zero();
  for (int ch = 0; ch < 5; ++ch) {
    const ActuatorChannel& chan = m.hydraulics.channels[ch];
    const double pa = x(ix::p + 2 * ch), pb = x(ix::p + 2 * ch + 1);
    const double pilot = pilot_pressure(chan, pb, x(ix::pilot + ch));
    const double poppet = x(ix::poppet + ch);
    const double stroke = spool[static_cast<std::size_t>(ch)];
    double decay[2];
    line_decay_rates(chan, stroke, pa, pb, pilot, poppet,
                     channel_valve(chan, stroke, pa, pb, pilot, poppet),
                     fault_leaks(m, faults, ch, pa, pb), decay);
    rate(ix::p + 2 * ch) = decay[0];
    rate(ix::p + 2 * ch + 1) = decay[1];
  }
  poppet_decay_rates(m, rate);
  return rate;
}

StateVector derivative(const MachineParams& m, const DerivedModel& model, const StateVector& x,
                       const ClamMode& mode, const Spools& spool, const Faults& faults,
                       const WorldPush& world, int* singular) {
  return derivative(m, model, x, clam_context(m, x), mode, spool, faults, world,
                    singular);
}

StateVector derivative(const MachineParams& m, const DerivedModel& model, const StateVector& x,
                       const ClamContext& c, const ClamMode& mode, const Spools& spool,
                       const Faults& faults, const WorldPush& world, int* singular,
                       StateVector* decay) {
  const Vec3 q = joints(x), qd = joint_rates(x);
  const JointTrig& trig = c.trig;
  const HydraulicStage hy = hydraulic_stage(m, model.boom, trig, x, spool, faults, decay != nullptr);
  if (decay) {
    decay->setZero();
    for (int i = 0; i < 10; ++i) (*decay)(ix::p + i) = hy.decay_rate[static_cast<std::size_t>(i)];
    poppet_decay_rates(m, *decay);
  }
  const ForceStage f = force_stage(m, x, c, hy, world);

  // Stage 5: accelerations. The clam is its own body: the crane carries it only through the
  // ropes and chain.
  StateVector dx;
  for (int i = 0; i < 10; ++i) dx(ix::p + i) = hy.pressure_rate[static_cast<std::size_t>(i)];
  for (int i = 0; i < 5; ++i) dx(ix::pilot + i) = hy.pilot_rate[static_cast<std::size_t>(i)];
  for (int i = 0; i < 5; ++i) dx(ix::poppet + i) = hy.poppet_rate[static_cast<std::size_t>(i)];
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = m.hydraulics.winches[static_cast<std::size_t>(i)];
    dx(ix::len + i) = x(ix::lend + i);
    dx(ix::lend + i) = f.drum_N[static_cast<std::size_t>(i)] * w.drum_radius_m * w.drum_radius_m /
                       w.drum_inertia_kgm2;
  }
  const CraneDynamics dyn = crane_dynamics(m.crane, model.inertia, q, trig, qd, 0.0);
  dx.segment<3>(ix::q) = qd;
  dx.segment<3>(ix::qd) = joint_accelerations(dyn, f.joint);

  // The swing: the head on its ropes, the body turning about it (a double pendulum). The
  // world's push acts at the centre of gravity: on the tilt through d cos(phi).
  // the empty grab's body is the model's; a held load changes it
  const SwingBody body = mode.load_mass_kg == 0.0 ? model.empty_body
                                                  : swing_body(m.clam, mode.load_mass_kg);
  const Eigen::Vector2d tilt_rate = x.segment<2>(ix::tiltd);
  const Eigen::Vector2d tilt_force =
      f.clam_tilt + body.cog_below_a_m * c.axis.cos.cwiseProduct(world.force_N.head<2>());
  const SwingAccelerations sw = swing_accelerations(body, m.crane.gravity_m_per_s2, c.axis,
                                                    tilt_rate, f.clam_horizontal, tilt_force);
  dx(ix::hx) = x(ix::hvx);
  dx(ix::hy) = x(ix::hvy);
  dx.segment<2>(ix::hvx) = sw.head;
  dx.segment<2>(ix::tilt) = tilt_rate;
  dx.segment<2>(ix::tiltd) = sw.tilt;

  const ClamSolution sol = clam_solution(m, c, mode, world);
  if (!sol.ok && singular) ++*singular;
  dx(ix::yA) = x(ix::vA);
  dx(ix::yC) = x(ix::vC);
  dx(ix::vA) = sol.aA;
  dx(ix::vC) = sol.aC;
  return dx;
}

}  // namespace clamsim::core
