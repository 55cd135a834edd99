// Hydraulic actuators (section 2.2.2): open-centre valve (eqs 2.21-2.23), line
// compressibility (eq 2.24), cylinder force (eq 2.25), motor torque (eq 2.26).
//
// Each channel has two lines between valve and actuator: line A is pressurised for positive
// voltage (swing counter-clockwise, boom up, telescope out, winch reels in), line B for
// negative. Pressures are gauge pressures [Pa].
#pragma once

#include <algorithm>

#include "params.h"

namespace clamsim::core {

// Normalised spool position x in [-1, 1] from a command voltage (-5..+5 V), with the
// spool overlap deadband of the valve.
double spool_position(const ValveParams& v, double volts);

// Opening of the centre bypass at spool stroke |x| in [0, 1], as a fraction of its neutral
// opening: the valve's notch characteristic (ValveParams::bypass_knee_*).
double bypass_opening(const ValveParams& v, double stroke);

// Makes v's bypass the thesis's as published: area linear in the stroke, 1 - x (eq 2.23).
void use_thesis_bypass(ValveParams& v);
// Makes every channel's valve the thesis's (eqs 2.21-2.23): the linear bypass, and no
// counterbalance valve (its actuator model is "only the actuator itself and its servo-valve",
// Fig. 2.10). Experiment 5.1.1's steps were tuned on it (clamsim-sim --valve thesis).
void use_thesis_valves(HydraulicsParams& hy);

// Flows from the valve into lines A and B [m^3/s] (negative: out of the line) and the pump
// pressure the open-centre valve settles at.
struct ValveFlows {
  double into_a = 0.0;
  double into_b = 0.0;
  double pump_pressure_Pa = 0.0;
};
ValveFlows open_centre_valve(const ValveParams& v, double x, double pa, double pb);

// Each line's conductance to the valve, -d(into)/dp of its own pressure [m^3/(s Pa)], at the
// point `f` = open_centre_valve(v, x, pa, pb). The other line's pressure does not enter: one
// line is fed from the pump, the other drains to tank. The integrator's stiff rate G / C.
struct LineConductances {
  double a = 0.0;
  double b = 0.0;
};
LineConductances valve_conductances(const ValveParams& v, double x, double pa, double pb,
                                    const ValveFlows& f);

// The counterbalance valve's poppet opening in [0, 1]: it cracks when the load pressure plus
// the pilot ratio times the pilot pressure reaches the setting, and is fully open
// opening_rise_Pa above that (Sun Hydraulics: "Pilot assist at port 3 lowers the effective
// setting of the relief valve at a rate determined by the pilot ratio"). The pilot is line
// B's pressure, through the pilot's damping orifice where one is fitted (pilot_pressure).
double counterbalance_opening(const CounterbalanceParams& cb, double pa, double pilot);

// The pressure on a channel's pilot piston: line B's, pb, or where the valve has a damping
// orifice (pilot_lag_s > 0) the lagged pressure the state carries (ix::pilot), `lagged`.
// And the lagged pressure's rate, the lag's first order: (P_B - lagged) / lag (0 without).
// (Inline: called for every channel at every stage.)
inline double pilot_pressure(const ActuatorChannel& ch, double pb, double lagged) {
  return ch.counterbalance.pilot_lag_s > 0.0 ? lagged : pb;
}
inline double pilot_rate(const ActuatorChannel& ch, double pb, double lagged) {
  const double lag = ch.counterbalance.pilot_lag_s;
  return lag > 0.0 ? (pb - lagged) / lag : 0.0;
}

// The net force on the poppet, as a fraction of the force that holds it fully open: the load
// pressure plus the pilot ratio times the pilot pressure, less the setting, over the opening
// rise. Unclamped: below 0 the spring's preload presses the poppet onto its seat.
// counterbalance_opening is this clamped to the poppet's travel, [0, 1].
double counterbalance_demand(const CounterbalanceParams& cb, double pa, double pilot);

// The poppet's own dynamics (poppet_lag_s > 0; docs/model.md, Load-holding valves): the
// poppet with its spring and a damping chamber emptied through an orifice, overdamped, moves
// at a speed proportional to the net force on it, do/dt = (d - o) / T, its state o in
// ix::poppet. Closing, d is the unclamped demand (counterbalance_demand): below its setting
// the spring's preload drives the poppet onto its seat at a finite speed, so it seats in a
// finite time and a released load holds (a lag towards the clamped opening, 0, only
// approaches the seat exponentially, and the load crept 5.7 mm in 10 s). Opening, d stops at
// the full opening, 1: a faster opening, with the pilot's whole force, made the long boom's
// lowering hunt again (docs/model.md). The seat and the full stroke stop it (step_with
// clamps o to [0, 1] after each step). Inline: called for every channel at every stage.
inline bool poppet_lags(const ActuatorChannel& ch) {
  return ch.counterbalance.fitted && ch.counterbalance.poppet_lag_s > 0.0;
}
inline double poppet_rate(const ActuatorChannel& ch, double pa, double pilot, double poppet) {
  if (!poppet_lags(ch)) return 0.0;
  const double demand = std::min(counterbalance_demand(ch.counterbalance, pa, pilot), 1.0);
  // on its seat and pressed onto it, or at full stroke: it stays
  if ((poppet <= 0.0 && demand <= poppet) || (poppet >= 1.0 && demand >= poppet)) return 0.0;
  return (demand - poppet) / ch.counterbalance.poppet_lag_s;
}

// One channel's valve (open_centre_valve) with its counterbalance valve in line A: flow into
// A passes the check freely, flow out of A passes the poppet and the spool's metering
// orifice in series. Without a counterbalance valve, open_centre_valve itself. `poppet` is
// the poppet's opening state, read where the poppet lags (poppet_lags), else ignored.
ValveFlows channel_valve(const ActuatorChannel& ch, double x, double pa, double pb,
                         double pilot, double poppet = 0.0);
// The conductances of channel_valve's flows (valve_conductances, with the series poppet's
// slope, its opening's included where the opening follows P_A at once, on line A).
LineConductances channel_conductances(const ActuatorChannel& ch, double x, double pa, double pb,
                                      double pilot, const ValveFlows& f, double poppet = 0.0);

// The line and motor terms below are inline: each is a line or two, asked for every line at
// every stage, where a call cost more than the term (docs/model.md, Performance).

// Cross-port relief above the relief setting and anti-cavitation make-up below tank
// pressure: flow into the line [m^3/s].
inline double line_protection_flow(const ValveParams& v, double p) {
  if (p > v.relief_pressure_Pa) return -v.relief_gain_m3_per_s_Pa * (p - v.relief_pressure_Pa);
  if (p < 0.0) return -v.relief_gain_m3_per_s_Pa * p;  // make-up from tank, no vacuum
  return 0.0;
}
// -d(line_protection_flow)/dp: the relief or make-up valve's conductance where it is open.
inline double line_protection_conductance(const ValveParams& v, double p) {
  return (p > v.relief_pressure_Pa || p < 0.0) ? v.relief_gain_m3_per_s_Pa : 0.0;
}

// Hydraulic compliance C = V / beta of one line (eq 2.24), and its inverse, the oil's
// stiffness beta / V that the rates multiply by (a channel's two lines share it, so a stage
// divides once per channel, not once per line and rate: docs/model.md, Performance).
inline double line_compliance(const LineParams& l) { return l.volume_m3 / l.bulk_modulus_Pa; }
inline double line_stiffness(const LineParams& l) { return l.bulk_modulus_Pa / l.volume_m3; }

// The line's pressure rate dP/dt = net flow / C (eq 2.24), held at the line's floor
// (LineParams::floor_Pa, the vapour floor) when the line is drawn on there.
inline double line_pressure_rate(const LineParams& l, double p, double net_flow,
                                 double stiffness) {
  if (p <= l.floor_Pa && net_flow < 0.0) return 0.0;
  return net_flow * stiffness;
}
inline double line_pressure_rate(const LineParams& l, double p, double net_flow) {
  return line_pressure_rate(l, p, net_flow, line_stiffness(l));
}

// Smooth sign for Coulomb friction: tanh(v / v_eps); v_eps keeps the term non-stiff.
double smooth_sign(double v, double v_eps);

// Net cylinder force (eq 2.25 without the rod's inertia, which is folded into the link):
// P_A A_cap - P_B A_rod - d v - F_c sign(v).
double cylinder_force(const CylinderParams& c, double pa, double pb, double v);

// Torque at the output shaft of a motor and gear train (eq 2.26):
// n D_m (P_A - P_B) - viscous - Coulomb, for output speed w [rad/s].
double motor_output_torque(const MotorParams& m, double pa, double pb, double w);

// Oil volume flow the motor draws from line A (returns to line B) at output speed w, with its
// internal leak from A across to B (docs/model.md, Slewing drive): n D_m w + K_l (P_A - P_B).
inline double motor_flow(const MotorParams& m, double w, double pa, double pb) {
  return m.displacement_m3_per_rad * m.gear_ratio * w + m.cross_port_leak_m3_per_s_Pa * (pa - pb);
}

}  // namespace clamsim::core
