// The stepped-sine frequency response (clamsim-sim --chirp, tools/chirp.h) on real runs of
// the core, read against closed forms worked out here from the machine's parameters, not
// from the tool's own reference: the winch as a velocity source at low frequency, the
// spool's first-order lag at 1 Hz, and the grab's bounce on its rope.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/clam.h"
#include "core/machine.h"
#include "model/machine_file.h"
#include "tools/chirp.h"
#include "../core/test_model.h"

namespace clamsim::tools {
namespace {

constexpr double kPi = 3.14159265358979323846;

core::MachineParams shipped() { return testing::shipped_machine(); }
using testing::default_pose;

ChirpRequest tone(int channel, double f_Hz, double amplitude_V) {
  ChirpRequest r;
  r.channel = channel;
  r.amplitude_V = amplitude_V;
  r.from_Hz = r.to_Hz = f_Hz;
  r.tones = 1;
  return r;
}

TEST(Chirp, ChannelsAreTheMachineFilesNames) {
  EXPECT_EQ(chirp_channel("swing"), 0);
  EXPECT_EQ(chirp_channel("main_hoist"), 3);
  EXPECT_EQ(chirp_channel("aux_hoist"), 4);
  EXPECT_FALSE(chirp_channel("hoist1").has_value());
  EXPECT_EQ(chirp_channel_list(), "swing, boom, telescope, main_hoist, aux_hoist");
}

// At 0.05 Hz the winch is a velocity source: full stick (5 V) runs the rope at the pump's
// flow over the motor's displacement, through the gear, at the drum's radius, and a
// full-stick sine's fundamental is that per 5 V. Within 10 %: the valve's deadband and
// metering bend the line between 0 and full stick.
TEST(Chirp, LowFrequencyRopeSpeedPerVoltIsPumpFlowOverDisplacement) {
  const core::MachineParams m = shipped();
  const core::State st = core::initial_state(m, default_pose());
  const ChirpResult r = run_chirp(m, st, {}, tone(3, 0.05, 5.0));
  ASSERT_TRUE(r.finite) << r.what;
  ASSERT_EQ(r.tones.size(), 1u);
  const core::WinchParams& w = m.hydraulics.winches[0];
  const double full_speed = m.hydraulics.channels[3].valve.pump_flow_m3_per_s /
                            (w.motor.displacement_m3_per_rad * w.motor.gear_ratio) *
                            w.drum_radius_m;
  const double expected = full_speed / 5.0;
  EXPECT_NEAR(r.tones[0].gain, expected, 0.10 * expected);
  EXPECT_GT(r.tones[0].fundamental_share, 0.9) << "the response is the sine's, not noise";
  RecordProperty("gain_m_s_per_V", std::to_string(r.tones[0].gain));
  RecordProperty("expected_m_s_per_V", std::to_string(expected));
}

// At 1 Hz the rope speed lags the volts by the spool's first-order lag, -atan(2 pi f T);
// the drum's inertia on its oil adds a few degrees more, hence 8 deg. The same with the
// lag set to a third: the phase follows the parameter, it is no coincidence. There the
// load-holding valve's damped poppet, which lets the paying-out half-cycles start late,
// is taken as static, so that the spool alone sets the phase (with it: 8.6 deg more).
TEST(Chirp, PhaseAtOneHertzIsTheSpoolLag) {
  core::MachineParams m = shipped();
  for (const double lag_s : {m.hydraulics.channels[3].valve.spool_lag_s, 0.1}) {
    m.hydraulics.channels[3].valve.spool_lag_s = lag_s;
    if (lag_s == 0.1) m.hydraulics.channels[3].counterbalance.poppet_lag_s = 0.0;
    const core::State st = core::initial_state(m, default_pose());
    const ChirpResult r = run_chirp(m, st, {}, tone(3, 1.0, 5.0));
    ASSERT_TRUE(r.finite) << r.what;
    const double expected_deg = -std::atan(2.0 * kPi * 1.0 * lag_s) * 180.0 / kPi;
    EXPECT_NEAR(r.tones[0].phase_deg, expected_deg, 8.0) << "spool lag " << lag_s << " s";
    RecordProperty("phase_deg_lag_" + std::to_string(lag_s), std::to_string(r.tones[0].phase_deg));
  }
}

// The closed grab hanging on rope 2 alone (rope 1 slack) is a mass on a spring: k = EA / L,
// L the whole rope from the drum (docs/model.md, Ropes). Driven at the drum, the rope's
// tension over the drum's rope speed, k m s / (m s^2 + k), peaks at sqrt(k / m). The
// sweep is 2 V about centre: enough to open the spool past its overlap, small enough that
// the rope never goes slack (a slack rope is no spring). Within 10 %: the boom tip, on
// its own oil and steel, gives a little under the rope.
TEST(Chirp, RopeTensionPeaksAtTheGrabsBounceOnItsRope) {
  const core::MachineParams m = shipped();
  core::InitialConditions ic = default_pose();
  ic.clam_theta2_rad = m.clam.theta2_closed_rad;
  core::State st = core::initial_state(m, ic);
  st.x(core::ix::len) += 0.5;   // rope 1 slack
  core::advance_to(m, st, {}, {}, 10.0);
  ChirpRequest r;
  r.channel = 4;
  r.amplitude_V = 2.0;
  r.from_Hz = 2.5;
  r.to_Hz = 5.0;
  r.tones = 13;
  r.settle_s = 2.0;
  r.measure_s = 2.0;
  const ChirpResult res = run_chirp(m, st, {}, r);
  ASSERT_TRUE(res.finite) << res.what;
  for (const ChirpTone& t : res.tones) {
    EXPECT_GT(t.tension_min_N, 0.0) << "rope 2 went slack at " << t.frequency_Hz << " Hz";
  }
  const double k = m.hydraulics.winches[1].rope_EA_N / st.x(core::ix::len + 1);
  const double expected_Hz = std::sqrt(k / core::clam_mass(m.clam, 0.0)) / (2.0 * kPi);
  EXPECT_NEAR(rope_bounce_Hz(m, st, 1), expected_Hz, 1e-9 * expected_Hz);
  const double peak_Hz = tension_peak_Hz(res.tones);
  EXPECT_NEAR(peak_Hz, expected_Hz, 0.10 * expected_Hz);
  RecordProperty("peak_Hz", std::to_string(peak_Hz));
  RecordProperty("expected_Hz", std::to_string(expected_Hz));
}

// The reference the tool draws: a full-stick sine about centre on a cylinder averages the
// cap side's speed (out) and the rod side's (in); an offset sweep that only extends sees
// the cap side alone.
TEST(Chirp, ReferenceAveragesCapAndRodSidesAboutCentre) {
  const core::MachineParams m = shipped();
  const core::CylinderParams& c = m.hydraulics.telescope_cylinder;
  const double q = m.hydraulics.channels[2].valve.pump_flow_m3_per_s;
  ChirpRequest r = tone(2, 0.1, 5.0);
  EXPECT_NEAR(chirp_reference(m, r, 0.5).low_frequency_gain,
              0.5 * (q / c.cap_area_m2 + q / c.rod_area_m2) / 5.0, 1e-6);
  r.amplitude_V = 2.0;
  r.offset_V = 3.0;
  EXPECT_NEAR(chirp_reference(m, r, 0.5).low_frequency_gain, q / c.cap_area_m2 / 5.0, 1e-6);
}

}  // namespace
}  // namespace clamsim::tools
