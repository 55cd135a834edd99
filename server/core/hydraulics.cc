#include "core/hydraulics.h"

#include <algorithm>
#include <cmath>

namespace clamsim::core {

namespace {

// Turbulent orifice flow a * sign(dp) * sqrt(|dp|), linear below the laminar transition so
// that its slope stays finite at zero pressure drop (the sqrt's slope is infinite there).
double orifice(double a, double dp, double laminar_dp) {
  const double mag = std::fabs(dp);
  if (mag >= laminar_dp) return std::copysign(a * std::sqrt(mag), dp);
  return a * dp / std::sqrt(laminar_dp);
}

// d(orifice)/d(dp) where the orifice passes `flow` at dp: largest, a / sqrt(laminar_dp), in the
// laminar band; flow / (2 dp) beyond it (no second square root on the hot path).
double orifice_slope(double a, double flow, double dp, double laminar_dp) {
  const double mag = std::fabs(dp);
  if (mag >= laminar_dp) return std::fabs(flow) / (2.0 * mag);
  return a / std::sqrt(laminar_dp);
}

// Two sharp-edged orifices in series pass sqrt(dp) / sqrt(1/a^2 + 1/c^2): one orifice of a c /
// sqrt(a^2 + c^2); either closed closes the pair.
double series_coeff(double a, double c) {
  if (a <= 0.0 || c <= 0.0) return 0.0;
  return a * c / std::sqrt(a * a + c * c);
}

}  // namespace

double spool_position(const ValveParams& v, double volts) {
  const double mag = std::fabs(volts) - v.input_deadband_V;
  if (mag <= 0.0) return 0.0;
  const double x = mag / (kFullStick_V - v.input_deadband_V);
  return std::copysign(std::min(1.0, x), volts);
}

// A real open-centre spool throttles its centre bypass with notches on the bypass land, and
// the notches set where the pump pressure rises to the load's (hydraulic-design.com, "Hydraulic
// open centre valve"; Power & Motion, "Open-center valves in mobile equipment, part 2"): a
// steep first piece builds the pressure over the first part of the lever, the gentle second
// piece then meters the flow that the load does not take back to tank. Eq 2.23's linear area
// (Zheng 2001, after Merritt 1967) is the special case with the knee on the line 1 - x.
double bypass_opening(const ValveParams& v, double stroke) {
  const double s = std::clamp(stroke, 0.0, 1.0);
  const double ks = v.bypass_knee_stroke;
  const double ko = v.bypass_knee_opening;
  if (s <= ks) return 1.0 - (1.0 - ko) * s / ks;
  return ko * (1.0 - s) / (1.0 - ks);
}

void use_thesis_bypass(ValveParams& v) {
  v.bypass_knee_stroke = 0.5;  // any knee on the line 1 - x gives the straight line
  v.bypass_knee_opening = 0.5;
}

void use_thesis_valves(HydraulicsParams& hy) {
  for (ActuatorChannel& ch : hy.channels) {
    use_thesis_bypass(ch.valve);
    ch.valve.spool_lag_s = 0.0;   // eqs 2.21-2.23: the spool is where the signal puts it
    ch.counterbalance.fitted = false;
  }
}

ValveFlows open_centre_valve(const ValveParams& v, double x, double pa, double pb) {
  const double ax = std::fabs(x);
  const double q = v.pump_flow_m3_per_s;
  const double a = v.orifice_coeff * ax;            // metering orifice, eq 2.21-2.22
  const double b = v.orifice_coeff * bypass_opening(v, ax);  // centre to tank, eq 2.23
  const double pe = v.tank_pressure_Pa;
  const double p_in = x >= 0.0 ? pa : pb;           // line being fed
  const double p_out = x >= 0.0 ? pb : pa;          // line returning to tank

  // Pump pressure Ps from Q = a sqrt(Ps - P_in) + b sqrt(Ps - Pe) with a load-holding check
  // valve (no flow back from the line). With s = sqrt(Ps - Pe), t = sqrt(Ps - P_in),
  // s^2 - t^2 = dlt and a t + b s = Q, which gives the root in the rationalised form below
  // (finite also where a == b).
  double ps = 0.0;
  double q_in = 0.0;
  const double dlt = std::max(0.0, p_in - pe);
  if (a <= 0.0 || (b > 0.0 && q * q <= b * b * dlt)) {
    ps = pe + (q / b) * (q / b);                    // check valve closed: all flow to tank
  } else if (b <= 0.0) {
    ps = pe + dlt + (q / a) * (q / a);              // centre closed: all flow to the line
    q_in = q;
  } else {
    const double r = q * q + (a * a - b * b) * dlt;
    const double s = (q * q + a * a * dlt) / (q * b + a * std::sqrt(std::max(0.0, r)));
    ps = pe + s * s;
    q_in = std::max(0.0, q - b * s);
  }
  if (ps > v.relief_pressure_Pa) {  // pump relief: the surplus goes over the relief valve
    ps = v.relief_pressure_Pa;
    q_in = a * std::sqrt(std::max(0.0, ps - pe - dlt));
  }
  const double q_out = orifice(a, p_out - pe, v.laminar_dp_Pa);
  ValveFlows f;
  f.pump_pressure_Pa = ps;
  f.into_a = x >= 0.0 ? q_in : -q_out;
  f.into_b = x >= 0.0 ? -q_out : q_in;
  return f;
}

LineConductances valve_conductances(const ValveParams& v, double x, double pa, double pb,
                                    const ValveFlows& f) {
  const double a = v.orifice_coeff * std::fabs(x);
  const double b = v.orifice_coeff * bypass_opening(v, std::fabs(x));
  const double pe = v.tank_pressure_Pa;
  const double p_in = x >= 0.0 ? pa : pb;
  const double p_out = x >= 0.0 ? pb : pa;
  const double q_in = x >= 0.0 ? f.into_a : f.into_b;
  const double q_out = -(x >= 0.0 ? f.into_b : f.into_a);
  // g_in = -dq_in/dp_in: zero where the check valve is shut, the line is below tank, or the
  // closed centre sends it the whole pump flow whatever its pressure.
  double g_in = 0.0;
  if (a > 0.0 && q_in > 0.0 && p_in > pe) {
    if (f.pump_pressure_Pa >= v.relief_pressure_Pa) {
      // q_in = a sqrt(Ps - P_in) at the relief setting; its slope is infinite at zero head,
      // bounded here by the laminar band's, as the orifices' are
      g_in = orifice_slope(a, q_in, f.pump_pressure_Pa - p_in, v.laminar_dp_Pa);
    } else if (b > 0.0) {
      // a t + b s = Q and s^2 - t^2 = P_in - Pe give dq_in/dP_in = -a b / (2 (b t + a s))
      const double s = std::sqrt(f.pump_pressure_Pa - pe);
      const double t = q_in / a;
      g_in = a * b / (2.0 * (b * t + a * s));
    }
  }
  const double g_out = orifice_slope(a, q_out, p_out - pe, v.laminar_dp_Pa);
  LineConductances g;
  g.a = x >= 0.0 ? g_in : g_out;
  g.b = x >= 0.0 ? g_out : g_in;
  return g;
}

double counterbalance_demand(const CounterbalanceParams& cb, double pa, double pilot) {
  const double drive = pa + cb.pilot_ratio * std::max(0.0, pilot) - cb.setting_Pa;
  return drive / cb.opening_rise_Pa;
}

double counterbalance_opening(const CounterbalanceParams& cb, double pa, double pilot) {
  return std::clamp(counterbalance_demand(cb, pa, pilot), 0.0, 1.0);
}

namespace {

// The poppet's opening: its state where it lags, clamped to its travel, else the static one.
double poppet_opening(const ActuatorChannel& ch, double pa, double pilot, double poppet) {
  if (poppet_lags(ch)) return std::clamp(poppet, 0.0, 1.0);
  return counterbalance_opening(ch.counterbalance, pa, pilot);
}

}  // namespace

ValveFlows channel_valve(const ActuatorChannel& ch, double x, double pa, double pb,
                         double pilot, double poppet) {
  ValveFlows f = open_centre_valve(ch.valve, x, pa, pb);
  const CounterbalanceParams& cb = ch.counterbalance;
  const ValveParams& v = ch.valve;
  // feeding line A, or A below the return line: oil flows in through the check, unrestricted
  if (!cb.fitted || x >= 0.0 || pa <= v.tank_pressure_Pa) return f;
  const double a = v.orifice_coeff * std::fabs(x);
  const double c = cb.orifice_coeff * poppet_opening(ch, pa, pilot, poppet);
  f.into_a = -orifice(series_coeff(a, c), pa - v.tank_pressure_Pa, v.laminar_dp_Pa);
  return f;
}

LineConductances channel_conductances(const ActuatorChannel& ch, double x, double pa, double pb,
                                      double pilot, const ValveFlows& f, double poppet) {
  const ValveParams& v = ch.valve;
  LineConductances g = valve_conductances(v, x, pa, pb, f);
  const CounterbalanceParams& cb = ch.counterbalance;
  if (!cb.fitted || x >= 0.0 || pa <= v.tank_pressure_Pa) return g;
  // q = e(a, c(P_A)) orifice(P_A - Pe): the orifice's own slope at the series coefficient e,
  // plus the poppet opening with P_A inside its band (de/dc = a^3 / (a^2 + c^2)^1.5)
  const double a = v.orifice_coeff * std::fabs(x);
  const double opening = poppet_opening(ch, pa, pilot, poppet);
  const double c = cb.orifice_coeff * opening;
  const double e = series_coeff(a, c);
  const double dp = pa - v.tank_pressure_Pa;
  g.a = orifice_slope(e, -f.into_a, dp, v.laminar_dp_Pa);
  // a lagging poppet's opening does not move with P_A within the step: its state does
  if (!poppet_lags(ch) && opening > 0.0 && opening < 1.0 && a > 0.0) {
    const double de_dc = a * a * a / std::pow(a * a + c * c, 1.5);
    g.a += orifice(1.0, dp, v.laminar_dp_Pa) * de_dc * cb.orifice_coeff / cb.opening_rise_Pa;
  }
  return g;
}

double smooth_sign(double v, double v_eps) {
  if (!(v_eps > 0.0)) return 0.0;
  // tanh(u) = (1 - e^-2|u|) / (1 + e^-2|u|) with its sign: one exp, where libm's tanh goes
  // through expm1 at several times the cost (five calls a stage; docs/model.md, Performance).
  // Near u = 0 the difference loses digits relative to u but stays within 2e-16 of tanh,
  // which is what a friction force of F_c tanh(u) needs.
  const double u = v / v_eps;
  const double e = std::exp(-2.0 * std::abs(u));
  return std::copysign((1.0 - e) / (1.0 + e), u);
}

double cylinder_force(const CylinderParams& c, double pa, double pb, double v) {
  return pa * c.cap_area_m2 - pb * c.rod_area_m2 - c.viscous_Ns_per_m * v -
         c.coulomb_N * smooth_sign(v, c.coulomb_velocity_m_per_s);
}

double motor_output_torque(const MotorParams& m, double pa, double pb, double w) {
  return m.gear_ratio * m.displacement_m3_per_rad * (pa - pb) - m.viscous_Nms_per_rad * w -
         m.coulomb_Nm * smooth_sign(w, m.coulomb_velocity_rad_per_s);
}

}  // namespace clamsim::core
