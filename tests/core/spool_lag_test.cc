// The spool's response (ValveParams::spool_lag_s, State::spool): a pilot-operated spool
// follows the stick as a first-order lag, so a lever slammed to full opens the valve over a
// tenth of a second instead of at once. Each step takes the lag exactly (spool_track), so it
// is checked against the closed form to rounding, at any lag against the step, and for what
// it is there for: the grab is snatched less on its rope.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/clam.h"
#include "core/derivative.h"
#include "core/machine.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::default_pose;
using testing::volts;

MachineParams without_spool_lag(MachineParams m) {
  for (ActuatorChannel& ch : m.hydraulics.channels) ch.valve.spool_lag_s = 0.0;
  return m;
}

// x(t) = x_stick (1 - exp(-t / T)) from the centre; the stroke at full stick is 1.
TEST(SpoolLag, TheSpoolFollowsAFullStickAsAFirstOrderLag) {
  const MachineParams m = testing::shipped_machine();
  for (int ch = 0; ch < 5; ++ch) {
    const double lag = m.hydraulics.channels[static_cast<std::size_t>(ch)].valve.spool_lag_s;
    ASSERT_GT(lag, 0.0) << "channel " << ch;
    State st = initial_state(m, default_pose());
    Control u;
    u.volts[static_cast<std::size_t>(ch)] = 5.0;
    for (double t : {0.5 * lag, lag, 3.0 * lag}) {
      advance_to(m, st, u, {}, t);
      EXPECT_NEAR(st.spool[static_cast<std::size_t>(ch)], 1.0 - std::exp(-t / lag), 1e-12)
          << "channel " << ch << " at " << t << " s";
    }
    // and back to the centre the same way
    const double released = st.time_s, from = st.spool[static_cast<std::size_t>(ch)];
    advance_to(m, st, Control{}, {}, released + lag);
    EXPECT_NEAR(st.spool[static_cast<std::size_t>(ch)], from * std::exp(-1.0), 1e-12)
        << "channel " << ch;
  }
}

// A lag shorter than the step (here a third of it) is still the closed form after every
// step, and the valve it meters moves the boom a little later than an instant spool does.
TEST(SpoolLag, ALagShorterThanTheStepIsStillTheClosedForm) {
  MachineParams m = testing::shipped_machine();
  const double h = m.integrator.step_s, lag = h / 3.0;
  m.hydraulics.channels[kBoom].valve.spool_lag_s = lag;
  State st = initial_state(m, default_pose());
  for (int k = 1; k <= 5; ++k) {
    step(m, st, volts(0, 5, 0, 0, 0), {});
    EXPECT_NEAR(st.spool[kBoom], 1.0 - std::exp(-k * h / lag), 1e-12) << "step " << k;
  }
  const MachineParams instant = without_spool_lag(m);
  State at_once = initial_state(instant, default_pose());
  advance_to(instant, at_once, volts(0, 5, 0, 0, 0), {}, st.time_s);
  EXPECT_LT(st.x(ix::p + 2), at_once.x(ix::p + 2)) << "the cap line fills later";
  EXPECT_GT(st.x(ix::p + 2), initial_state(m, default_pose()).x(ix::p + 2));
}

// Largest pull on either rope while both winches hoist the empty grab from rest at full stick.
double snatch_N(const MachineParams& m) {
  State st = initial_state(m, default_pose());
  double peak = 0.0;
  for (int f = 1; f <= 20; ++f) {   // 1 s
    advance_to(m, st, volts(0, 0, 0, 5, 5), {}, 0.05 * f);
    const Outputs o = outputs(m, st, {});
    peak = std::max({peak, o.tensions_N[0], o.tensions_N[1]});
  }
  return peak;
}

// Slammed to full, the valve opened at once throws the drums' full torque at the ropes before
// the grab has moved; through the spool's lag the drums come up to speed over a few tenths
// of a second and the ropes' pull overshoots the grab's weight by less.
TEST(SpoolLag, ALeverSlammedToFullSnatchesTheGrabLessThroughTheLag) {
  const MachineParams m = testing::shipped_machine();
  const double weight = clam_mass(m.clam, 0.0) * m.crane.gravity_m_per_s2;
  const double lagged = snatch_N(m), at_once = snatch_N(without_spool_lag(m));
  EXPECT_GT(at_once, lagged);
  EXPECT_LT(lagged - weight, 0.8 * (at_once - weight)) << "lagged " << lagged << " N, at once "
                                                       << at_once << " N";
  RecordProperty("snatch_lagged_N", std::to_string(lagged));
  RecordProperty("snatch_at_once_N", std::to_string(at_once));
}

}  // namespace
}  // namespace clamsim::core
