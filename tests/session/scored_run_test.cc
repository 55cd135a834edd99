// The training task's scoring on a real, scripted run: the shipped dam scenario,
// the real dynamics and the real scorer, frame by frame as the session feeds it. The run
// first sets the open clam down hard on the top of the trash rack (one known collision),
// then a scripted operator clears one log into the truck cleanly. The score must show exactly
// that: the task completed inside the optimum time, one rack/gate penalty, nothing else.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/machine.h"
#include "model/machine_file.h"
#include "model/scenario_file.h"
#include "training/task_score.h"
#include "tools/pick_place_pilot.h"

namespace clamsim::session {
namespace {

struct DamRun {
  core::MachineParams m = model::load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
  model::Scenario sc = model::load_scenario_file(
      std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json", m);
  core::State st;
  core::Environment env{&sc.world};
  DamRun() {
    st = core::initial_state(m, sc.start);
    core::reset_world(sc.world, st.world);
  }
  core::Outputs frame(const core::Control& u) {
    core::advance_to(m, st, u, env, st.time_s + m.integrator.frame_s);
    return core::outputs(m, st, env);
  }
  int load(const std::string& name) const {
    for (std::size_t i = 0; i < sc.world.loads.size(); ++i)
      if (sc.world.loads[i].name == name) return static_cast<int>(i);
    return -1;
  }
};

TEST(ScoredRun, OneKnownRackCollisionThenACleanDeliveryScoresExactlyThat) {
  DamRun run;
  const int log = run.load("log3");
  ASSERT_GE(log, 0);
  model::TaskSpec task = run.sc.task;
  ASSERT_TRUE(task.enabled);
  task.loads = {log};   // one log, so the test stays short; the rules are the same
  std::vector<std::string> names;
  for (const auto& l : run.sc.world.loads) names.push_back(l.name);
  training::TaskScorer scorer(task, names);

  core::Control u;
  core::Outputs o = run.frame(u);
  scorer.update(o, true);  // timed from the first frame, as if a control had moved
  // 1. Out over the rack: telescope until the tip is above it (x = 11.1 m).
  const double target_tel = (11.1 + run.m.crane.a1_m) / std::cos(o.joint_pos[1] * M_PI / 180.0);
  for (int f = 0; f < 400 && o.joint_pos[2] < target_tel; ++f) {
    u.volts = {0, 0, 4.0, 0, 0};
    o = run.frame(u);
    scorer.update(o, true);
  }
  // 2. Down onto the rack's top until the clam strikes it, at 0.6 m/s: faster, the winches
  // run on for their spools' lag after the strike and pay out a slack loop (another penalty).
  for (int f = 0; f < 800 && o.events.rack_gate_hits == 0; ++f) {
    u.volts = {0, 0, 0, -2.0, -2.0};
    o = run.frame(u);
    scorer.update(o, true);
  }
  ASSERT_EQ(o.events.rack_gate_hits, 1u) << "the known collision";
  // 3. Up again, clear of the rack (1.5 s at 1.6 m/s).
  for (int f = 0; f < 30; ++f) {
    u.volts = {0, 0, 0, 4.0, 4.0};
    o = run.frame(u);
    scorer.update(o, true);
  }
  EXPECT_EQ(scorer.score().rack_gate_hits, 1);
  EXPECT_DOUBLE_EQ(scorer.score().penalty_points, task.penalties.of(model::PenaltyKind::RackGateHit));

  // 4. The scripted operator clears the log into the truck.
  const auto& at = o.loads[static_cast<std::size_t>(log)].position_m;
  const model::LoadSpace& truck = task.truck;
  const double floor_z = truck.center_m.z() - truck.half_size_m.z();
  tools::PickPlacePilot pilot(run.m, {at[0], at[1], at[2]},
                                {truck.center_m.x(), truck.center_m.y(), floor_z + 0.25},
                                truck.center_m.z() + truck.half_size_m.z() + 1.0);
  for (int f = 0; f < 4000 && !scorer.score().finished; ++f) {
    u = pilot.phase() == tools::PickPlacePilot::Phase::Done ? core::Control{} : pilot.next(o, 0.05);
    o = run.frame(u);
    scorer.update(o, true);
  }
  const training::TaskScore& s = scorer.score();
  ASSERT_TRUE(s.finished) << "pilot stopped in " << pilot.phase_name();
  EXPECT_TRUE(s.completed);
  EXPECT_EQ(s.delivered, 1);
  EXPECT_LT(s.elapsed_s, s.optimum_s);
  EXPECT_DOUBLE_EQ(s.time_points, 100.0);
  EXPECT_EQ(s.rack_gate_hits, 1);
  EXPECT_EQ(s.structure_hits, 0);
  EXPECT_EQ(s.slack_cables, 0);
  EXPECT_EQ(s.overloads, 0);
  EXPECT_EQ(s.dropped_loads, 0);
  EXPECT_DOUBLE_EQ(s.total, 100.0 - task.penalties.of(model::PenaltyKind::RackGateHit));

  // The report tells the same story, with the collision in its timeline.
  const nlohmann::ordered_json r = scorer.report("scored-run test", {});
  EXPECT_EQ(r.at("schema"), "clamsim-report/1");
  EXPECT_DOUBLE_EQ(r.at("total").get<double>(), s.total);
  ASSERT_EQ(r.at("timeline").size(), 1u);
  RecordProperty("elapsed_s", std::to_string(s.elapsed_s));
}

}  // namespace
}  // namespace clamsim::session
