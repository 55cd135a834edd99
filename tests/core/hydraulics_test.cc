// Open-centre valve and actuator laws (eqs 2.21-2.26).
#include "core/hydraulics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_model.h"

namespace clamsim::core {
namespace {

ValveParams boom_valve() { return testing::shipped_machine().hydraulics.channels[1].valve; }

TEST(Valve, SpoolFollowsVoltageWithDeadbandAndSaturation) {
  const ValveParams v = boom_valve();
  EXPECT_EQ(spool_position(v, 0.0), 0.0);
  EXPECT_EQ(spool_position(v, 0.9 * v.input_deadband_V), 0.0);
  EXPECT_DOUBLE_EQ(spool_position(v, 5.0), 1.0);
  EXPECT_DOUBLE_EQ(spool_position(v, -5.0), -1.0);
  EXPECT_DOUBLE_EQ(spool_position(v, 50.0), 1.0) << "the session clamps; the valve saturates";
  EXPECT_NEAR(spool_position(v, -2.0), -spool_position(v, 2.0), 1e-15);
}

TEST(Valve, CentredSpoolSealsTheLinesAndBypassesThePump) {
  const ValveParams v = boom_valve();
  const ValveFlows f = open_centre_valve(v, 0.0, 8e6, 2e6);
  EXPECT_EQ(f.into_a, 0.0);
  EXPECT_EQ(f.into_b, 0.0);
  // eq 2.23 with x = 0: Q = k w sqrt(Ps - Pe)
  const double q = v.pump_flow_m3_per_s;
  EXPECT_NEAR(f.pump_pressure_Pa, v.tank_pressure_Pa + std::pow(q / v.orifice_coeff, 2), 1.0);
}

TEST(Valve, PumpFlowSplitsBetweenLineAndTankAsEquations21To23) {
  const ValveParams v = boom_valve();
  for (double x : {0.2, 0.5, 0.8, 1.0}) {
    const double pa = 4e6, pb = 1e6;
    const ValveFlows f = open_centre_valve(v, x, pa, pb);
    const double k = v.orifice_coeff, pe = v.tank_pressure_Pa, ps = f.pump_pressure_Pa;
    const double q_in = k * x * std::sqrt(std::max(0.0, ps - pa));          // eq 2.21
    const double q_e = k * bypass_opening(v, x) * std::sqrt(ps - pe);         // eq 2.23
    EXPECT_NEAR(f.into_a, q_in, 1e-9) << "x=" << x;
    EXPECT_NEAR(q_in + q_e, v.pump_flow_m3_per_s, 1e-9) << "pump flow is conserved, x=" << x;
    EXPECT_NEAR(-f.into_b, k * x * std::sqrt(pb - pe), 1e-9) << "eq 2.22, x=" << x;
  }
  // Reversed spool feeds line B and drains line A.
  const ValveFlows r = open_centre_valve(v, -0.6, 4e6, 1e6);
  EXPECT_GT(r.into_b, 0.0);
  EXPECT_LT(r.into_a, 0.0);
}

TEST(Valve, BypassClosesInTwoStraightPiecesThroughTheKnee) {
  ValveParams v = boom_valve();
  EXPECT_DOUBLE_EQ(bypass_opening(v, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(bypass_opening(v, v.bypass_knee_stroke), v.bypass_knee_opening);
  EXPECT_DOUBLE_EQ(bypass_opening(v, 1.0), 0.0);
  double last = 1.0;
  for (int i = 1; i <= 1000; ++i) {  // continuous and falling: no step a trainee could feel
    const double b = bypass_opening(v, i / 1000.0);
    EXPECT_LT(b, last);
    EXPECT_LT(last - b, 0.01) << "stroke " << i / 1000.0;
    last = b;
  }
  // The thesis's linear law (eq 2.23) is the knee on the line 1 - x.
  use_thesis_bypass(v);
  for (double x : {0.0, 0.1, 0.4, 0.7, 1.0}) EXPECT_NEAR(bypass_opening(v, x), 1.0 - x, 1e-15);
  v.bypass_knee_stroke = 0.4;  // any knee on that line
  v.bypass_knee_opening = 0.6;
  for (double x : {0.0, 0.1, 0.4, 0.7, 1.0}) EXPECT_NEAR(bypass_opening(v, x), 1.0 - x, 1e-15);
}

// Stroke at which the valve starts to feed a line held at pressure pl: bisection on the valve.
double start_stroke(const ValveParams& v, double pl) {
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (open_centre_valve(v, mid, pl, v.tank_pressure_Pa).into_a > 0.0 ? hi : lo) = mid;
  }
  return hi;
}

TEST(Valve, ALoadMovesOnceTheBypassRaisesThePumpToItsPressure) {
  // With no flow into the line, eq 2.23 gives Ps = Pe + (Q / (k w b(x)))^2, so the load at
  // pressure Pl starts where b(x) = Q / (k w sqrt(Pl - Pe)): the closed form, inverted on
  // the two straight pieces. A heavier load starts later (load dependence of open centre).
  const ValveParams v = boom_valve();
  double last = 0.0;
  for (double pl : {2e6, 5e6, 8e6, 11e6, 15e6}) {
    const double b = v.pump_flow_m3_per_s / (v.orifice_coeff * std::sqrt(pl - v.tank_pressure_Pa));
    const double ks = v.bypass_knee_stroke, ko = v.bypass_knee_opening;
    const double x = b >= ko ? (1.0 - b) * ks / (1.0 - ko) : 1.0 - b * (1.0 - ks) / ko;
    EXPECT_NEAR(start_stroke(v, pl), x, 1e-9) << "Pl = " << pl;
    EXPECT_GT(x, last);
    last = x;
  }
  // The shipped valve lifts 11 MPa by 15 % of stick (0.75 V, after the overlap).
  EXPECT_LT(start_stroke(v, 11e6), spool_position(v, 0.75));
}

TEST(Valve, LoadHoldingCheckPreventsBackflowAndReliefCapsPressure) {
  const ValveParams v = boom_valve();
  // A line pressure above what the pump reaches at a small opening: no flow back out.
  const ValveFlows f = open_centre_valve(v, 0.1, 20e6, 0.3e6);
  EXPECT_EQ(f.into_a, 0.0);
  // Fully shifted spool against a stalled actuator: pump pressure stops at the relief.
  const ValveFlows stall = open_centre_valve(v, 1.0, 40e6, 0.3e6);
  EXPECT_LE(stall.pump_pressure_Pa, v.relief_pressure_Pa);
  EXPECT_LT(line_protection_flow(v, v.relief_pressure_Pa + 1e6), 0.0);
  EXPECT_GT(line_protection_flow(v, -1e5), 0.0);
  EXPECT_EQ(line_protection_flow(v, 5e6), 0.0);
}

TEST(Actuators, CylinderAndMotorLaws) {
  const auto hy = testing::shipped_machine().hydraulics;
  const CylinderParams c = hy.boom_cylinders;
  EXPECT_NEAR(cylinder_force(c, 10e6, 1e6, 0.0), 10e6 * c.cap_area_m2 - 1e6 * c.rod_area_m2, 1e-6);
  EXPECT_LT(cylinder_force(c, 0, 0, 0.1), 0.0) << "friction opposes motion";
  const MotorParams m = hy.swing_motor;
  EXPECT_NEAR(motor_output_torque(m, 10e6, 1e6, 0.0),
              m.gear_ratio * m.displacement_m3_per_rad * 9e6, 1e-6);  // eq 2.26
  EXPECT_NEAR(motor_flow(m, 0.1, 0.0, 0.0), m.displacement_m3_per_rad * m.gear_ratio * 0.1, 1e-15);
  // the internal leak: 0.1 L/min per MPa of port-to-port difference, from A to B
  ASSERT_GT(m.cross_port_leak_m3_per_s_Pa, 0.0);
  EXPECT_NEAR(motor_flow(m, 0.0, 10e6, 1e6), 0.1e-3 / 60.0 * 9.0, 1e-15);
  EXPECT_NEAR(motor_flow(m, 0.0, 1e6, 10e6), -0.1e-3 / 60.0 * 9.0, 1e-15);
}

// The integrator's stiff rates: each line's conductance is the slope of its own flow,
// checked against central differences of open_centre_valve in every branch the valve has
// (metering with the bypass open, centre shut, pump relief, return orifice laminar and
// turbulent, fed line below tank), away from the branches' kinks.
TEST(Valve, LineConductancesAreTheFlowsSlopes) {
  const ValveParams v = boom_valve();
  const double pe = v.tank_pressure_Pa;
  struct Point { double x, p_in, p_out; };
  const Point points[] = {
      {0.3, 8e6, pe + 1e5},    // bypass open, return laminar
      {0.6, 12e6, pe + 2e6},   // return turbulent
      {1.0, 10e6, pe + 5e5},   // centre shut: the whole pump flow, slope zero
      {0.8, 27.5e6, pe},       // pump at relief, close to the line's pressure
      {0.5, 0.1e6, pe + 3e6},  // fed line below tank pressure
      {-0.4, 6e6, pe + 1.5e5}, // the other way round
  };
  for (const Point& pt : points) {
    const double pa = pt.x >= 0.0 ? pt.p_in : pt.p_out;
    const double pb = pt.x >= 0.0 ? pt.p_out : pt.p_in;
    const LineConductances g = valve_conductances(v, pt.x, pa, pb, open_centre_valve(v, pt.x, pa, pb));
    const double d = 10.0;  // Pa
    const ValveFlows up = open_centre_valve(v, pt.x, pa + d, pb + d);
    const ValveFlows dn = open_centre_valve(v, pt.x, pa - d, pb - d);
    const double fd_a = -(up.into_a - dn.into_a) / (2.0 * d);
    const double fd_b = -(up.into_b - dn.into_b) / (2.0 * d);
    EXPECT_NEAR(g.a, fd_a, 1e-4 * std::fabs(fd_a) + 1e-16) << "x = " << pt.x;
    EXPECT_NEAR(g.b, fd_b, 1e-4 * std::fabs(fd_b) + 1e-16) << "x = " << pt.x;
    EXPECT_GE(g.a, 0.0);
    EXPECT_GE(g.b, 0.0);
  }
  EXPECT_EQ(line_protection_conductance(v, 1e6), 0.0);
  EXPECT_EQ(line_protection_conductance(v, -1e3), v.relief_gain_m3_per_s_Pa);
  EXPECT_EQ(line_protection_conductance(v, v.relief_pressure_Pa + 1e3), v.relief_gain_m3_per_s_Pa);
}

// The counterbalance valve: closed below its setting, cracked by the pilot at
// P_A + ratio P_B = setting, fully open opening_rise above; lifting passes the check freely.
TEST(Counterbalance, PilotOpensItAndTheCheckPassesLifting) {
  const ActuatorChannel ch = testing::shipped_machine().hydraulics.channels[1];
  const CounterbalanceParams& cb = ch.counterbalance;
  ASSERT_TRUE(cb.fitted);
  const double load = 0.5 * cb.setting_Pa;
  const double crack = (cb.setting_Pa - load) / cb.pilot_ratio;   // pilot that cracks it
  EXPECT_EQ(counterbalance_opening(cb, load, 0.0), 0.0);
  EXPECT_EQ(counterbalance_opening(cb, load, crack), 0.0);
  EXPECT_NEAR(counterbalance_opening(cb, load, crack + 0.5 * cb.opening_rise_Pa / cb.pilot_ratio),
              0.5, 1e-12);
  EXPECT_EQ(counterbalance_opening(cb, load, crack + cb.opening_rise_Pa / cb.pilot_ratio), 1.0);
  // lowering with the pilot below cracking: the cap oil cannot leave, whatever the spool
  EXPECT_EQ(channel_valve(ch, -1.0, load, 0.9 * crack, 0.9 * crack).into_a, 0.0);
  // lifting: exactly the open-centre valve's flow
  EXPECT_EQ(channel_valve(ch, 0.7, load, 1e6, 1e6).into_a, open_centre_valve(ch.valve, 0.7, load, 1e6).into_a);
  // a thermal rise of the held load alone past the setting opens it: its relief function
  EXPECT_GT(counterbalance_opening(cb, cb.setting_Pa + 1e5, 0.0), 0.0);
}

// The conductance of line A through the counterbalance valve (series poppet and metering
// orifice, and the opening's own slope inside its band) against central differences.
TEST(Counterbalance, LineConductancesAreTheFlowsSlopes) {
  const ActuatorChannel ch = testing::shipped_machine().hydraulics.channels[1];
  const CounterbalanceParams& cb = ch.counterbalance;
  const double pe = ch.valve.tank_pressure_Pa;
  const double load = 0.6 * cb.setting_Pa;
  const double crack = (cb.setting_Pa - load) / cb.pilot_ratio;
  struct Point { double x, pa, pb; };
  const Point points[] = {
      {-1.0, load, crack + 0.3 * cb.opening_rise_Pa / cb.pilot_ratio},  // poppet in its band
      {-0.4, load, crack + 0.8 * cb.opening_rise_Pa / cb.pilot_ratio},  // spool part open
      {-1.0, load, crack + 2.0 * cb.opening_rise_Pa / cb.pilot_ratio},  // poppet fully open
      {-1.0, load, 0.5 * crack},                                         // poppet shut
      {-0.6, pe + 1e5, cb.setting_Pa / cb.pilot_ratio + 1e6},            // A in the laminar band
      {0.5, load, pe + 1e6},                                             // lifting, check open
  };
  for (const Point& pt : points) {
    const LineConductances g =
        channel_conductances(ch, pt.x, pt.pa, pt.pb, pt.pb, channel_valve(ch, pt.x, pt.pa, pt.pb, pt.pb));
    const double d = 10.0;  // Pa, on line A alone: B's pressure is the pilot, not a slope
    const double fd_a = -(channel_valve(ch, pt.x, pt.pa + d, pt.pb, pt.pb).into_a -
                          channel_valve(ch, pt.x, pt.pa - d, pt.pb, pt.pb).into_a) / (2.0 * d);
    const double fd_b = -(channel_valve(ch, pt.x, pt.pa, pt.pb + d, pt.pb + d).into_b -
                          channel_valve(ch, pt.x, pt.pa, pt.pb - d, pt.pb - d).into_b) / (2.0 * d);
    EXPECT_NEAR(g.a, fd_a, 1e-4 * std::fabs(fd_a) + 1e-16) << "x = " << pt.x << " pb = " << pt.pb;
    EXPECT_NEAR(g.b, fd_b, 1e-4 * std::fabs(fd_b) + 1e-16) << "x = " << pt.x << " pb = " << pt.pb;
    EXPECT_GE(g.a, 0.0);
  }
}

// No line goes below the vapour floor: a line there that is drawn on stops falling.
TEST(Lines, PressureStopsAtTheVapourFloor) {
  LineParams l;
  l.volume_m3 = 0.004;
  l.bulk_modulus_Pa = 1.2e9;
  const double c = line_compliance(l);
  EXPECT_EQ(l.floor_Pa, kVapourPressureGauge_Pa);
  EXPECT_EQ(line_pressure_rate(l, kVapourPressureGauge_Pa, -1e-3), 0.0);
  EXPECT_EQ(line_pressure_rate(l, kVapourPressureGauge_Pa - 1.0, -1e-3), 0.0);
  EXPECT_DOUBLE_EQ(line_pressure_rate(l, kVapourPressureGauge_Pa, 1e-3), 1e-3 / c);   // refills
  EXPECT_DOUBLE_EQ(line_pressure_rate(l, 1e6, -1e-3), -1e-3 / c);
  EXPECT_GT(kVapourPressureGauge_Pa, -101325.0);  // above absolute zero
}

}  // namespace
}  // namespace clamsim::core
