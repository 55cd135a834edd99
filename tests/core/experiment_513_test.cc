// The thesis's experiment 5.1.3 as an automated scenario: in the shipped dam scenario, a
// scripted operator (reading only the frames, answering with joystick voltages) swings the
// clam over a log floating against the trash rack, lowers it round the log, closes, lifts,
// carries it to the truck and lets it go. The log must end up lying in the truck's load space.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/machine.h"
#include "model/scenario_file.h"
#include "test_model.h"
#include "tools/pick_place_pilot.h"

namespace clamsim::core {
namespace {

TEST(Experiment513, ScriptedOperatorPutsAFloatingLogIntoTheTruck) {
  const MachineParams m = testing::shipped_machine();
  const model::Scenario sc =
      model::load_scenario_file(std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json", m);
  const WorldParams& w = sc.world;
  int log = -1;
  for (std::size_t i = 0; i < w.loads.size(); ++i)
    if (w.loads[i].name == "log3") log = static_cast<int>(i);
  ASSERT_GE(log, 0);
  State st = initial_state(m, sc.start);
  reset_world(w, st.world);
  const Environment env{&w};
  // Let the floating logs settle at their draft before the operator starts.
  advance_to(m, st, Control{}, env, 2.0);
  const Outputs start = outputs(m, st, env);
  const auto& at = start.loads[static_cast<std::size_t>(log)].position_m;
  const model::LoadSpace& truck = sc.task.truck;
  const double bed_floor = truck.center_m.z() - truck.half_size_m.z();
  tools::PickPlacePilot pilot(m, {at[0], at[1], at[2]},
                                {truck.center_m.x(), truck.center_m.y(), bed_floor + 0.25},
                                truck.center_m.z() + truck.half_size_m.z() + 1.0);

  const double frame = 0.05;
  for (int f = 0; f < 3600 && pilot.phase() != tools::PickPlacePilot::Phase::Done &&
                  pilot.phase() != tools::PickPlacePilot::Phase::Failed; ++f) {
    const Outputs o = outputs(m, st, env);
    const Control u = pilot.next(o, frame);
    if (std::getenv("CLAMSIM_TRACE") && f % 20 == 0)   // a trace to tune the script by
      std::printf("%6.1f s %-14s joints %6.1f %5.1f %5.2f  C z %6.2f  swing %5.1f %5.1f  T %6.0f %6.0f"
                  "  %s  u %4.1f %4.1f %4.1f %4.1f %4.1f\n",
                  st.time_s, pilot.phase_name(), o.joint_pos[0], o.joint_pos[1], o.joint_pos[2],
                  o.point_c[2], o.clam_swing_deg[0], o.clam_swing_deg[1], o.tensions_N[0],
                  o.tensions_N[1], to_string(o.load), u.volts[0], u.volts[1], u.volts[2],
                  u.volts[3], u.volts[4]);
    advance_to(m, st, u, env, st.time_s + frame);
  }
  ASSERT_EQ(pilot.phase(), tools::PickPlacePilot::Phase::Done) << "stopped in " << pilot.phase_name();
  // Let it come to rest.
  advance_to(m, st, Control{}, env, st.time_s + 5.0);
  const Outputs o = outputs(m, st, env);
  const auto& p = o.loads[static_cast<std::size_t>(log)].position_m;
  RecordProperty("task_time_s", std::to_string(st.time_s));
  // In the load space: inside the bed's footprint, lying on its floor (centre one radius up).
  EXPECT_LT(std::fabs(p[0] - truck.center_m.x()), truck.half_size_m.x()) << p[0];
  EXPECT_LT(std::fabs(p[1] - truck.center_m.y()), truck.half_size_m.y()) << p[1];
  EXPECT_NEAR(p[2], bed_floor + w.loads[static_cast<std::size_t>(log)].radius_m, 0.02);
  EXPECT_FALSE(o.loads[static_cast<std::size_t>(log)].held);
  EXPECT_EQ(o.load, LoadStatus::WithoutLoad);
  EXPECT_EQ(o.events.grips, o.events.releases);
  // docs/model.md claims the run has no collision, slack or overload: assert it
  EXPECT_EQ(o.events.clam_rack_gate_hits, 0u);
  EXPECT_EQ(o.events.clam_world_hits, 0u);
  EXPECT_EQ(o.events.slack_cable_events, 0u);
  EXPECT_EQ(o.events.overload_events, 0u);
  std::printf("pick-and-place took %.1f s; log at (%.2f, %.2f, %.2f); events: %llu rack/gate "
              "hits, %llu structure hits, %llu slack, %llu overload\n",
              st.time_s, p[0], p[1], p[2],
              static_cast<unsigned long long>(o.events.clam_rack_gate_hits),
              static_cast<unsigned long long>(o.events.clam_world_hits),
              static_cast<unsigned long long>(o.events.slack_cable_events),
              static_cast<unsigned long long>(o.events.overload_events));
}

}  // namespace
}  // namespace clamsim::core
