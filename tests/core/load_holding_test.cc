// Load-holding (counterbalance) valves and the vapour floor (docs/model.md), checked as
// physics: a pulling load lowers at the speed the pump's oil allows, holds when the lever is
// released, and no line goes below the vapour pressure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/crane.h"
#include "core/derivative.h"
#include "core/hydraulics.h"
#include "core/machine.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

constexpr double kRadToDeg = 180.0 / M_PI;

// A heavy grab: 4.3 t of buckets instead of 0.8 t, so the ropes pull hard on the boom and the
// winches (the held load's mass is not a state the tests can set without a world).
// 4.3 t at the tests' 13 m radius is past the load chart (about 2.6 t there) and the tipping
// load: these tests are about the valves, so the carrier is made heavy enough to stand and
// the load moment limiter is kept out of the way (core/stability.h).
MachineParams heavy_machine() {
  MachineParams m = testing::shipped_machine();
  m.clam.link2_mass_kg = 2000.0;
  m.carrier.mass_kg *= 4.0;
  m.load_moment.warning_pct = m.load_moment.cutout_pct = 1e6;
  return m;
}

MachineParams without_counterbalance(MachineParams m) {
  for (ActuatorChannel& ch : m.hydraulics.channels) ch.counterbalance.fitted = false;
  return m;
}

double lowest_pressure(const State& st) {
  return st.x.segment<10>(ix::p).minCoeff();
}

struct Trial {
  State st;
  double lowest_Pa = 1e300;
};

// Advances frame by frame, keeping the lowest line pressure seen.
void run_for(const MachineParams& m, Trial& r, const Control& u, double seconds) {
  const double end = r.st.time_s + seconds;
  while (r.st.time_s < end - 1e-9) {
    advance_to(m, r.st, u, {}, r.st.time_s + m.integrator.frame_s);
    r.lowest_Pa = std::min(r.lowest_Pa, lowest_pressure(r.st));
  }
}

// The boom angle [deg], telescope [m] and hanging ropes [m], averaged frame by frame over
// the next `seconds` with the valves centred.
struct HeldPose {
  double boom_deg = 0.0, telescope_m = 0.0;
  std::array<double, 2> rope_m{};
};
HeldPose mean_pose(const MachineParams& m, Trial& r, double seconds) {
  const int frames = static_cast<int>(std::lround(seconds / m.integrator.frame_s));
  HeldPose sum;
  for (int f = 0; f < frames; ++f) {
    run_for(m, r, testing::volts(0, 0, 0, 0, 0), m.integrator.frame_s);
    const Outputs o = outputs(m, r.st, {});
    sum.boom_deg += o.joint_pos[1] / frames;
    sum.telescope_m += o.joint_pos[2] / frames;
    for (int i = 0; i < 2; ++i) sum.rope_m[i] += o.display[5 + i] / frames;
  }
  return sum;
}

InitialConditions high_boom() {
  InitialConditions ic = testing::default_pose();
  ic.boom_rad = testing::deg(45);
  ic.telescope_m = 20.0;
  ic.clam_depth_m = 6.0;
  return ic;
}

// Boom down at full stick: the pump's whole flow goes into the rod side, so the cylinder
// retracts at Q / A_rod; the cap side's oil leaves through the counterbalance valve no
// faster than that. Without the valve the boom's weight pushes the cap oil out through the
// open spool far faster than the pump fills the rod side, which cavitates.
TEST(LoadHolding, BoomLowersAtTheSpeedThePumpFillsTheRodSide) {
  const MachineParams m = heavy_machine();
  const HydraulicsParams& hy = m.hydraulics;
  Trial r{initial_state(m, high_boom())};
  run_for(m, r, testing::volts(0, -5, 0, 0, 0), 1.0);
  const Outputs start = outputs(m, r.st, {});
  run_for(m, r, testing::volts(0, -5, 0, 0, 0), 1.0);
  const Outputs o = outputs(m, r.st, {});
  // the heavy grab bounces on its ropes as the boom moves, so the speed is the mean over 1 s
  const double mean = o.joint_pos[1] - start.joint_pos[1];
  const double mid = 0.5 * (o.joint_pos[1] + start.joint_pos[1]);
  const double lever = boom_cylinder_lever(hy.boom_geometry, testing::deg(mid));
  const double metered =
      hy.channels[1].valve.pump_flow_m3_per_s / hy.boom_cylinders.rod_area_m2 / lever * kRadToDeg;
  EXPECT_NEAR(mean, -metered, 0.1 * metered) << "boom deg/s";
  EXPECT_GE(r.lowest_Pa, kVapourPressureGauge_Pa);

  const MachineParams bare = without_counterbalance(m);
  Trial b{initial_state(bare, high_boom())};
  run_for(bare, b, testing::volts(0, -5, 0, 0, 0), 2.0);
  const Outputs ob = outputs(bare, b.st, {});
  const double bare_mean = (ob.joint_pos[1] - high_boom().boom_rad * kRadToDeg) / 2.0;
  EXPECT_LT(bare_mean, -1.5 * metered) << "without the valve the boom runs away";
  EXPECT_GE(b.lowest_Pa, kVapourPressureGauge_Pa);
  EXPECT_LT(b.lowest_Pa, 0.0) << "and the rod side is drawn below atmospheric, to the floor";
  RecordProperty("boom_deg_s", std::to_string(mean));
  RecordProperty("boom_deg_s_without_valve", std::to_string(bare_mean));
}

// Telescope in at full stick with the boom high: gravity pulls it in, the valve meters it.
TEST(LoadHolding, TelescopeRetractsAtTheSpeedThePumpFillsTheRodSide) {
  const MachineParams m = heavy_machine();
  const HydraulicsParams& hy = m.hydraulics;
  Trial r{initial_state(m, high_boom())};
  run_for(m, r, testing::volts(0, 0, -5, 0, 0), 1.0);
  const double d3 = r.st.x(ix::q + 2);
  run_for(m, r, testing::volts(0, 0, -5, 0, 0), 1.0);
  const Outputs o = outputs(m, r.st, {});
  const double metered =
      hy.channels[2].valve.pump_flow_m3_per_s / hy.telescope_cylinder.rod_area_m2;
  // the mean over the second second: the heavy grab bounces on its ropes, which run along the
  // telescope (docs/model.md, Rope reeving), and the speed swings with it about the mean
  const double mean = r.st.x(ix::q + 2) - d3;
  EXPECT_NEAR(mean, -metered, 0.1 * metered) << "telescope m/s";
  EXPECT_GE(r.lowest_Pa, kVapourPressureGauge_Pa);
  RecordProperty("telescope_m_s", std::to_string(mean));
  RecordProperty("telescope_m_s_at_2s", std::to_string(o.joint_vel[2]));
}

// Both winches paying out the heavy grab at full stick: each pump's whole flow goes into its
// motor's line B, so the drum turns at Q / D (D = D_m N), the rope at that times the drum's
// radius; the winch's counterbalance valve meters line A's oil at that, where without it the
// grab would drive the motor faster than the pump fills it. The operator eases the levers to
// full over half a second: slammed from rest, a 120 m/min drum pays out faster than the grab
// can fall and the grab drops onto its ropes (what the lesson teaches not to do).
struct PayOut {
  std::array<double, 2> mean_m_per_s{};    // over the third second at full stick
  std::array<double, 2> swing_m_per_s{};   // largest minus smallest rope speed in it
  double lowest_Pa = 0.0;
};
PayOut pay_out(const MachineParams& m, double volts) {
  Trial r{initial_state(m, high_boom())};
  const double frame = m.integrator.frame_s;
  for (int f = 1; f <= 10; ++f)   // 0.5 s to full
    run_for(m, r, testing::volts(0, 0, 0, 0.1 * f * volts, 0.1 * f * volts), frame);
  run_for(m, r, testing::volts(0, 0, 0, volts, volts), 2.0);
  PayOut p;
  std::array<double, 2> lo{1e9, 1e9}, hi{-1e9, -1e9};
  const int frames = static_cast<int>(std::lround(1.0 / frame));
  for (int f = 0; f < frames; ++f) {
    run_for(m, r, testing::volts(0, 0, 0, volts, volts), frame);
    const Outputs o = outputs(m, r.st, {});
    for (std::size_t i = 0; i < 2; ++i) {
      const double v = o.cable_rates_m_per_s[i];
      p.mean_m_per_s[i] += v / frames;
      lo[i] = std::min(lo[i], v);
      hi[i] = std::max(hi[i], v);
    }
  }
  for (std::size_t i = 0; i < 2; ++i) p.swing_m_per_s[i] = hi[i] - lo[i];
  p.lowest_Pa = r.lowest_Pa;
  return p;
}

// A winch's rope speed when the pump's whole flow turns its motor: Q / (D_m N) r.
double metered_rope_speed(const MachineParams& m, int i) {
  const HydraulicsParams& hy = m.hydraulics;
  const WinchParams& w = hy.winches[static_cast<std::size_t>(i)];
  return hy.channels[static_cast<std::size_t>(kMainHoist + i)].valve.pump_flow_m3_per_s /
         (w.motor.displacement_m3_per_rad * w.motor.gear_ratio) * w.drum_radius_m;
}

// Bounds: within 3 % of Q / D at the drum's radius; the speed's swing within the second
// under 0.05 m/s. Without the valves the grab runs ahead by more than 15 %.
TEST(LoadHolding, WinchesPayOutAtTheSpeedThePumpFillsTheMotor) {
  const MachineParams m = heavy_machine();
  const PayOut p = pay_out(m, -5.0);
  const PayOut bare = pay_out(without_counterbalance(m), -5.0);
  for (std::size_t i = 0; i < 2; ++i) {
    const double metered = metered_rope_speed(m, static_cast<int>(i));
    EXPECT_NEAR(p.mean_m_per_s[i], metered, 0.03 * metered) << "cable " << i + 1 << " m/s";
    EXPECT_LT(p.swing_m_per_s[i], 0.05) << "cable " << i + 1 << " m/s";
    EXPECT_GT(bare.mean_m_per_s[i], 1.15 * metered) << "without the valve, cable " << i + 1;
    RecordProperty("cable" + std::to_string(i + 1) + "_m_s", std::to_string(p.mean_m_per_s[i]));
    RecordProperty("cable" + std::to_string(i + 1) + "_swing_m_s", std::to_string(p.swing_m_per_s[i]));
    RecordProperty("cable" + std::to_string(i + 1) + "_m_s_without_valve",
                   std::to_string(bare.mean_m_per_s[i]));
  }
  EXPECT_GE(p.lowest_Pa, kVapourPressureGauge_Pa);
  EXPECT_GE(bare.lowest_Pa, kVapourPressureGauge_Pa);
}

MachineParams with_winch_valves(MachineParams m, double ratio, double poppet_lag_s) {
  for (int ch = kMainHoist; ch <= kAuxHoist; ++ch) {
    CounterbalanceParams& cb = m.hydraulics.channels[static_cast<std::size_t>(ch)].counterbalance;
    cb.pilot_ratio = ratio;
    cb.poppet_lag_s = poppet_lag_s;
  }
  return m;
}

// Why the winches' valves have a low pilot ratio and a slow poppet. The pilot, line B's
// pressure, closes a loop around the drum's speed: the drum runs ahead, line B empties, the
// poppet shuts, the drum slows, line B fills, the poppet opens. The higher the ratio the more
// the loop's gain; a lag in it (the poppet's damping chamber, or an orifice in the pilot)
// takes away its damping unless it is slow enough to filter the loop out. With the shipped
// 3:1 and 1 s poppet the rope pays out at 2.00 m/s, swinging by 0.013 and 0.003 m/s; at 10:1
// by 0.40 and 0.08 m/s (0.20 on the closing rope before rope 1's damping rose to 0.012 s:
// models/t250.json); at 3:1 with a 0.2 s poppet by 2.0 and 2.1 m/s (0.5 s: 0.56 and 0.35 m/s). With the opening a static function of the pressures the 3:1 winch meters
// steadily too (0.009 m/s), where the boom chatters (docs/model.md, Load-holding valves).
// Bounds: hunting swings by more than 0.05 m/s, the shipped valve by a tenth of the hunting's.
TEST(LoadHolding, AHighPilotRatioOrAQuickerPoppetMakesAWinchValveHunt) {
  const MachineParams m = heavy_machine();
  for (int ch = kMainHoist; ch <= kAuxHoist; ++ch) {
    const CounterbalanceParams& cb = m.hydraulics.channels[static_cast<std::size_t>(ch)].counterbalance;
    ASSERT_EQ(cb.pilot_ratio, 3.0) << "channel " << ch;
    ASSERT_EQ(cb.pilot_lag_s, 0.0) << "channel " << ch;
    ASSERT_EQ(cb.poppet_lag_s, 1.0) << "channel " << ch;
  }
  const PayOut steady = pay_out(m, -5.0);
  const PayOut high_ratio = pay_out(with_winch_valves(m, 10.0, 1.0), -5.0);
  const PayOut quicker = pay_out(with_winch_valves(m, 3.0, 0.2), -5.0);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_GT(high_ratio.swing_m_per_s[i], 0.05) << "10:1, cable " << i + 1;
    EXPECT_GT(quicker.swing_m_per_s[i], 0.05) << "3:1, 0.2 s poppet, cable " << i + 1;
    EXPECT_LT(steady.swing_m_per_s[i], 0.1 * std::min(high_ratio.swing_m_per_s[i],
                                                      quicker.swing_m_per_s[i]))
        << "cable " << i + 1;
    RecordProperty("cable" + std::to_string(i + 1) + "_swing_10_to_1_m_s",
                   std::to_string(high_ratio.swing_m_per_s[i]));
    RecordProperty("cable" + std::to_string(i + 1) + "_swing_quicker_poppet_m_s",
                   std::to_string(quicker.swing_m_per_s[i]));
  }
}

// Lever released after lowering: the valve closes, the boom, telescope and ropes hold.
// Bound: nothing sinks more than 0.02 deg or 2 mm over 10 s. Measured: the boom rises by
// 0.05 deg as the heavy grab's bounce on its ropes settles (upward: no leak); 0.1 deg bound.
TEST(LoadHolding, TheLoadHoldsWhenTheLeverIsReleased) {
  const MachineParams m = heavy_machine();
  Trial r{initial_state(m, high_boom())};
  run_for(m, r, testing::volts(0, -5, -5, -5, -5), 1.0);
  run_for(m, r, testing::volts(0, 0, 0, 0, 0), 1.0);  // the motion stops
  const HeldPose held = mean_pose(m, r, 4.0);
  run_for(m, r, testing::volts(0, 0, 0, 0, 0), 6.0);
  const HeldPose later = mean_pose(m, r, 4.0);
  // the machine rocks on the grab's bounce (about 4 s a period, the ropes' whole length the
  // spring since they run along the boom; the telescope's oil spring, along d3 through the
  // 2:1 cable, moves about 7 mm with it): compare means over a period, 10 s apart
  EXPECT_GT(later.boom_deg, held.boom_deg - 0.02) << "boom sinks, deg";
  EXPECT_NEAR(later.boom_deg, held.boom_deg, 0.1) << "boom deg";
  EXPECT_NEAR(later.telescope_m, held.telescope_m, 0.002) << "telescope m";
  for (int i = 0; i < 2; ++i)
    EXPECT_NEAR(later.rope_m[i], held.rope_m[i], 0.002) << "cable " << i + 1 << " m";
  EXPECT_GE(r.lowest_Pa, kVapourPressureGauge_Pa);
  RecordProperty("boom_drift_deg", std::to_string(later.boom_deg - held.boom_deg));
  RecordProperty("telescope_drift_m", std::to_string(later.telescope_m - held.telescope_m));
  for (int i = 0; i < 2; ++i)
    RecordProperty("cable" + std::to_string(i + 1) + "_drift_m",
                   std::to_string(later.rope_m[i] - held.rope_m[i]));
}

// The valve's setting holds the heaviest load with Sun's margin: at least 1.3 x the highest
// load pressure the function can lift (its relief setting), which is above the pressure that
// holds the heavy grab at the corners of the range. A winch's: 1.3 x the pressure that holds
// its rope's rated pull; a heavier pull is let down, not held.
TEST(LoadHolding, SettingsAreAboveTheHoldingPressuresWithMargin) {
  const MachineParams m = heavy_machine();
  double worst[5] = {0, 0, 0, 0, 0};
  for (double boom : {m.crane.boom_min_rad, m.crane.boom_max_rad}) {
    for (double tel : {m.crane.telescope_min_m, m.crane.telescope_max_m}) {
      InitialConditions ic = testing::default_pose();
      ic.boom_rad = boom;
      ic.telescope_m = tel;
      const State st = initial_state(m, ic);
      for (int ch = 1; ch < 5; ++ch) worst[ch] = std::max(worst[ch], st.x(ix::p + 2 * ch));
    }
  }
  for (int i = 0; i < 2; ++i) {
    const int ch = kMainHoist + i;
    const WinchParams& w = m.hydraulics.winches[static_cast<std::size_t>(i)];
    const CounterbalanceParams& cb = m.hydraulics.channels[static_cast<std::size_t>(ch)].counterbalance;
    ASSERT_TRUE(cb.fitted) << "channel " << ch;
    const double rated = w.rated_pull_N * w.drum_radius_m /
                         (w.motor.gear_ratio * w.motor.displacement_m3_per_rad);
    EXPECT_GE(cb.setting_Pa, 1.3 * rated - 1.0) << "channel " << ch;
    EXPECT_LT(worst[ch], cb.setting_Pa) << "channel " << ch;
    RecordProperty("holding_MPa_" + std::to_string(ch), std::to_string(worst[ch] / 1e6));
  }
  for (int ch = 1; ch < 3; ++ch) {   // boom and telescope
    const CounterbalanceParams& cb = m.hydraulics.channels[ch].counterbalance;
    ASSERT_TRUE(cb.fitted) << "channel " << ch;
    const double relief = m.hydraulics.channels[ch].valve.relief_pressure_Pa;
    EXPECT_LT(worst[ch], relief) << "channel " << ch;
    EXPECT_GE(cb.setting_Pa, 1.3 * relief - 1.0) << "channel " << ch;
    RecordProperty("holding_MPa_" + std::to_string(ch), std::to_string(worst[ch] / 1e6));
  }
  EXPECT_FALSE(m.hydraulics.channels[0].counterbalance.fitted) << "the swing holds no load";
}

}  // namespace
}  // namespace clamsim::core
