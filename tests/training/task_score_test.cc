// The training task's score on synthetic frames: the exam's time rule, a known collision,
// dropped versus delivered loads, and the report.
#include "training/task_score.h"

#include <gtest/gtest.h>

#include "training/report_figures.h"

#include <algorithm>
#include <regex>
#include <type_traits>

namespace clamsim::training {
namespace {

const ReportVersions kVersions{"1.2.3", "t250", "aa11", "dam_intake", "bb22"};

model::TaskSpec spec() {
  model::TaskSpec t;
  t.enabled = true;
  t.title = "two logs";
  t.loads = {0, 1};
  t.optimum_s = 100.0;
  t.penalties = {10.0, 5.0, 5.0, 15.0, 10.0};
  t.truck.center_m = {1.0, 8.0, 1.7};      // the shipped truck: floor at 1.2, sides to 2.2
  t.truck.half_size_m = {3.0, 1.25, 0.5};
  return t;
}

// A frame at time t: three loads floating in the bay, nothing held, no events.
core::Outputs frame(double t) {
  core::Outputs o;
  o.time_s = t;
  o.load_count = 3;
  for (int i = 0; i < 3; ++i) o.loads[static_cast<std::size_t>(i)].position_m = {12.0 + i, 0, -2.5};
  return o;
}

void put_in_truck(core::Outputs& o, int load) {
  o.loads[static_cast<std::size_t>(load)].position_m = {1.5, 8.2, 1.45};
}

TaskScorer scorer() { return TaskScorer(spec(), {"log1", "log2", "crate"}); }

constexpr bool kMoved = true;   // a control moved in the frame (the clock may start)

TEST(TaskScore, TheClockWaitsForTheFirstMovedControl) {
  TaskScorer s = scorer();
  core::Outputs o = frame(1.0);
  o.events.rack_gate_hits = 1;   // nothing is scored before the clock starts
  s.update(o, false);
  EXPECT_FALSE(s.score().running);
  EXPECT_DOUBLE_EQ(s.score().elapsed_s, 0.0);
  EXPECT_EQ(s.score().rack_gate_hits, 0);
  s.update(frame(30.0), false);   // a trainee giving a name, reading the help
  EXPECT_FALSE(s.score().running);
  EXPECT_EQ(s.report("session 1", kVersions)["started_utc"], nullptr);
  s.update(frame(31.0), kMoved);
  EXPECT_TRUE(s.score().running);
  s.update(frame(41.0), false);   // once running, a stick at rest does not stop it
  EXPECT_DOUBLE_EQ(s.score().elapsed_s, 10.0);
}

TEST(TaskScore, APracticeAttemptIsScoredWithoutATimeLimitAndItsReportSaysSo) {
  TaskScorer s = scorer();
  s.reset(true);
  EXPECT_TRUE(s.score().practice);
  EXPECT_DOUBLE_EQ(s.score().limit_s, 0.0) << "no limit";
  s.update(frame(0.0), kMoved);
  const TaskScore& late = s.update(frame(400.0), kMoved);   // past 1.5 x optimum
  EXPECT_FALSE(late.finished) << "practice does not time out";
  EXPECT_TRUE(late.running);
  EXPECT_DOUBLE_EQ(late.time_points, 0.0) << "time points by the timed rule";
  core::Outputs o = frame(401.0);
  put_in_truck(o, 0);
  put_in_truck(o, 1);
  s.update(o, kMoved);
  o.time_s = 402.5;
  const TaskScore& end = s.update(o, kMoved);
  EXPECT_TRUE(end.finished);
  EXPECT_TRUE(end.completed);
  const auto r = s.report("session 1", kVersions);
  EXPECT_EQ(r["practice"], true);
  EXPECT_EQ(r["limit_s"], nullptr);
  EXPECT_EQ(r["outcome"], "completed");
  s.reset();
  EXPECT_FALSE(s.score().practice) << "a restart without practice is timed";
  EXPECT_DOUBLE_EQ(s.score().limit_s, 150.0);
}

TEST(TaskScore, TimePointsHoldToTheOptimumAndAreGoneAtOneAndAHalfTimesIt) {
  TaskScorer s = scorer();
  EXPECT_TRUE(s.score().enabled);
  EXPECT_FALSE(s.score().running);
  EXPECT_DOUBLE_EQ(s.score().limit_s, 150.0);
  s.update(frame(2.0), kMoved);  // the clock starts at the first frame a control moved
  EXPECT_TRUE(s.score().running);
  EXPECT_DOUBLE_EQ(s.score().elapsed_s, 0.0);
  EXPECT_DOUBLE_EQ(s.update(frame(102.0), kMoved).time_points, 100.0) << "at the optimum";
  EXPECT_DOUBLE_EQ(s.update(frame(127.0), kMoved).time_points, 50.0) << "at 1.25 x";
  EXPECT_FALSE(s.just_finished());
  const TaskScore& end = s.update(frame(152.0), kMoved);
  EXPECT_DOUBLE_EQ(end.time_points, 0.0) << "at 1.5 x";
  EXPECT_TRUE(end.finished);
  EXPECT_FALSE(end.completed) << "timed out";
  EXPECT_FALSE(end.running);
  EXPECT_TRUE(s.just_finished());
  EXPECT_DOUBLE_EQ(end.total, 0.0);

  s.update(frame(160.0), kMoved);
  EXPECT_FALSE(s.just_finished()) << "only on the frame it ended";
  EXPECT_DOUBLE_EQ(s.score().elapsed_s, 150.0) << "the clock stopped";
  EXPECT_EQ(s.report("session 1", kVersions)["outcome"], "timed out");
}

TEST(TaskScore, AKnownCollisionCostsExactlyItsPoints) {
  TaskScorer s = scorer();
  s.update(frame(0.05), kMoved);
  core::Outputs o = frame(3.0);
  o.events.rack_gate_hits = 1;
  o.contact_count = 1;
  o.contacts[0].pair = core::ContactPair::ClamWorld;
  o.contacts[0].solid = core::SolidKind::Rack;
  EXPECT_DOUBLE_EQ(s.update(o, kMoved).penalty_points, 10.0);
  EXPECT_EQ(s.score().rack_gate_hits, 1);
  EXPECT_DOUBLE_EQ(s.score().total, 90.0);

  o.time_s = 3.05;  // the counter stays: no new hit
  EXPECT_DOUBLE_EQ(s.update(o, kMoved).penalty_points, 10.0);

  o.time_s = 4.0;  // the deck, twice, and a slack rope: structure 2 x 5, slack 5
  o.events.structure_hits = 2;
  o.events.slack_cables = 1;
  o.contacts[0].solid = core::SolidKind::Deck;
  s.update(o, kMoved);
  EXPECT_EQ(s.score().structure_hits, 2);
  EXPECT_EQ(s.score().slack_cables, 1);
  o.time_s = 5.0;
  o.events.overloads = 1;
  s.update(o, kMoved);
  EXPECT_EQ(s.score().overloads, 1);
  EXPECT_DOUBLE_EQ(s.score().penalty_points, 10.0 + 10.0 + 5.0 + 15.0);
  EXPECT_DOUBLE_EQ(s.score().total, 100.0 - 40.0);

  const auto r = s.report("session 7 (t250, dam_intake)", kVersions);
  EXPECT_EQ(r["penalties"]["rack_gate_hit"]["count"], 1);
  EXPECT_EQ(r["penalties"]["rack_gate_hit"]["points"], 10.0);
  EXPECT_EQ(r["penalties"]["structure_hit"]["points_each"], 5.0);
  EXPECT_EQ(r["penalties"]["structure_hit"]["points"], 10.0);
  ASSERT_EQ(r["timeline"].size(), 5u);
  EXPECT_EQ(r["timeline"][0]["kind"], "rack_gate_hit");
  EXPECT_EQ(r["timeline"][0]["solid"], core::to_string(core::SolidKind::Rack));
  EXPECT_DOUBLE_EQ(r["timeline"][0]["sim_time_s"].get<double>(), 3.0);
  EXPECT_NEAR(r["timeline"][0]["task_time_s"].get<double>(), 2.95, 1e-12);
  EXPECT_EQ(r["timeline"][1]["solid"], core::to_string(core::SolidKind::Deck));
  EXPECT_EQ(r["timeline"][4]["kind"], "overload");
  EXPECT_FALSE(r["timeline"][4].contains("solid"));
}

TEST(TaskScore, TheTotalNeverGoesBelowZero) {
  TaskScorer s = scorer();
  core::Outputs o = frame(0.0);
  o.events.overloads = 9;  // 135 points off
  s.update(o, kMoved);
  EXPECT_DOUBLE_EQ(s.score().penalty_points, 135.0);
  EXPECT_DOUBLE_EQ(s.score().total, 0.0);
}

TEST(TaskScore, ADropCostsPointsADeliveryCompletesTheTask) {
  TaskScorer s = scorer();
  core::Outputs o = frame(1.0);
  o.held_load = 0;
  s.update(o, kMoved);
  o.time_s = 2.0;
  o.loads[0].position_m[2] = -0.5;  // lifted 2 m out of the water
  s.update(o, kMoved);
  o.time_s = 2.05;
  o.held_load = -1;  // and let go over it
  s.update(o, kMoved);
  EXPECT_EQ(s.score().dropped_loads, 1);
  EXPECT_DOUBLE_EQ(s.score().penalty_points, 10.0);
  o.loads[0].position_m[2] = -2.5;  // it falls back

  // log2 carried to the truck and let go over it: no drop
  o.time_s = 3.0;
  o.held_load = 1;
  o.loads[1].held = true;
  put_in_truck(o, 1);
  o.loads[1].position_m[2] = 3.0;  // still above the sides
  s.update(o, kMoved);
  o.time_s = 3.05;
  o.held_load = -1;
  o.loads[1].held = false;
  s.update(o, kMoved);
  EXPECT_EQ(s.score().dropped_loads, 1);

  // it lands and lies still: delivered after 1 s at rest, not before
  o.loads[1].position_m[2] = 1.45;
  for (int i = 0; i < 20; ++i) {  // 3.1 .. 4.05 s
    o.time_s = 3.1 + 0.05 * i;
    s.update(o, kMoved);
  }
  EXPECT_EQ(s.score().delivered, 0) << "0.95 s at rest";
  o.time_s = 4.1;
  s.update(o, kMoved);
  EXPECT_EQ(s.score().delivered, 1);
  EXPECT_FALSE(s.score().finished);

  // moving too fast does not count, and restarts the wait
  put_in_truck(o, 0);
  o.loads[0].velocity_m_per_s = {0.0, 0.0, -0.5};
  o.time_s = 4.2;
  s.update(o, kMoved);
  o.loads[0].velocity_m_per_s = {0.0, 0.0, 0.0};
  for (int i = 0; i < 20; ++i) {  // 4.25 .. 5.2 s
    o.time_s = 4.25 + 0.05 * i;
    s.update(o, kMoved);
  }
  EXPECT_FALSE(s.score().finished);
  o.time_s = 5.25;
  const TaskScore& done = s.update(o, kMoved);
  EXPECT_EQ(done.delivered, 2);
  EXPECT_TRUE(done.finished);
  EXPECT_TRUE(done.completed);
  EXPECT_TRUE(s.just_finished());
  EXPECT_NEAR(done.elapsed_s, 4.25, 1e-9);
  EXPECT_DOUBLE_EQ(done.time_points, 100.0);
  EXPECT_DOUBLE_EQ(done.total, 90.0);

  const auto r = s.report("session 1", kVersions);
  EXPECT_EQ(r["outcome"], "completed");
  EXPECT_EQ(r["delivered"], 2);
  EXPECT_EQ(r["loads"][1]["name"], "log2");
  EXPECT_EQ(r["loads"][1]["delivered"], true);
  EXPECT_EQ(r["timeline"][0]["kind"], "dropped_load");
  EXPECT_EQ(r["timeline"][0]["load"], "log1");
}

// The clam takes a load and loses it again before it has carried it: an open grab landing on
// a log takes it into its throat and lets go as it is hoisted (world_test's landing case), or
// a trainee regrasps where the load lies. Neither is a drop; a lift past kCarriedM is.
TEST(TaskScore, ALoadLetGoBeforeItWasCarriedIsNotDropped) {
  TaskScorer s = scorer();
  core::Outputs o = frame(1.0);
  const auto hold = [&](int load, double t, double z) {
    o.time_s = t;
    o.held_load = load;
    o.loads[0].position_m[2] = z;
    s.update(o, kMoved);
  };
  hold(0, 1.0, -2.5);          // taken where it floats
  hold(0, 1.05, -2.5 + 0.2);   // raised 0.2 m
  hold(-1, 1.1, -2.5 + 0.25);  // and let go still under kCarriedM: not carried
  EXPECT_EQ(s.score().dropped_loads, 0);
  EXPECT_DOUBLE_EQ(s.score().penalty_points, 0.0);

  hold(0, 2.0, -2.5);                   // taken again: the height counts from here
  hold(0, 2.05, -2.5 + kCarriedM + 0.05);
  hold(0, 2.1, -2.5);                   // lowered back to where it lay,
  hold(-1, 2.15, -2.5);                 // but it had been carried
  EXPECT_EQ(s.score().dropped_loads, 1);

  hold(0, 3.0, 5.0);   // taken high up (say, off the truck's sides) and let go at once
  hold(-1, 3.05, 5.0);
  EXPECT_EQ(s.score().dropped_loads, 1);
}

TEST(TaskScore, OutsideTheLoadSpaceIsNotDelivered) {
  TaskScorer s = scorer();
  core::Outputs o = frame(0.0);
  put_in_truck(o, 0);
  put_in_truck(o, 1);
  o.loads[0].position_m[2] = 2.8;   // more than 0.5 m above the sides
  o.loads[1].position_m[0] = 4.2;   // past the truck's end (x 4.0)
  for (int i = 0; i < 60; ++i) {
    o.time_s = 0.05 * i;
    s.update(o, kMoved);
  }
  EXPECT_EQ(s.score().delivered, 0);
}

TEST(TaskScore, ReportSaysWhoWhatAndWhen) {
  TaskScorer s = scorer();
  s.update(frame(0.05), kMoved);
  const auto r = s.report("session 3 (t250, dam_intake)", kVersions);
  EXPECT_EQ(r["schema"], "clamsim-report/1");
  EXPECT_EQ(r["session"], "session 3 (t250, dam_intake)");
  EXPECT_EQ(r["task"], "two logs");
  EXPECT_EQ(r["outcome"], "running");
  EXPECT_TRUE(r["ended_utc"].is_null());
  EXPECT_TRUE(std::regex_match(r["started_utc"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << r["started_utc"];
  EXPECT_EQ(r["optimum_s"], 100.0);
  EXPECT_EQ(r["limit_s"], 150.0);
  EXPECT_EQ(r["required"], 2);
  EXPECT_EQ(r["time_points"], 100.0);
  for (const char* k :
       {"rack_gate_hit", "structure_hit", "slack_cable", "overload", "dropped_load"})
    EXPECT_EQ(r["penalties"][k]["count"], 0) << k;
}

TEST(TaskScore, ResetStartsANewAttempt) {
  TaskScorer s = scorer();
  core::Outputs o = frame(10.0);
  o.events.structure_hits = 3;
  s.update(o, kMoved);
  EXPECT_EQ(s.score().structure_hits, 3);
  s.reset();
  EXPECT_EQ(s.score().structure_hits, 0);
  EXPECT_FALSE(s.score().running);
  const TaskScore& again = s.update(frame(0.05), kMoved);  // the world's counters were reset too
  EXPECT_EQ(again.structure_hits, 0);
  EXPECT_DOUBLE_EQ(again.elapsed_s, 0.0);
  EXPECT_DOUBLE_EQ(again.total, 100.0);
}

TEST(TaskScore, NoTaskNoScore) {
  TaskScorer s{model::TaskSpec{}};
  core::Outputs o = frame(1.0);
  o.events.overloads = 2;
  const TaskScore& sc = s.update(o, kMoved);
  EXPECT_FALSE(sc.enabled);
  EXPECT_FALSE(sc.running);
  EXPECT_EQ(sc.overloads, 0);
  EXPECT_FALSE(s.just_finished());
}

TEST(TaskScore, ReportNamesTheServerModelAndScenarioItWasScoredWith) {
  TaskScorer s = scorer();
  s.update(frame(0.05), kMoved);
  const auto r = s.report("session 3 (t250, dam_intake)", kVersions);
  EXPECT_EQ(r["versions"]["server"], "1.2.3");
  EXPECT_EQ(r["versions"]["model"]["name"], "t250");
  EXPECT_EQ(r["versions"]["model"]["sha256"], "aa11");
  EXPECT_EQ(r["versions"]["scenario"]["name"], "dam_intake");
  EXPECT_EQ(r["versions"]["scenario"]["sha256"], "bb22");
}

// Frame times are sums of 0.05 s steps and not exact in binary: the report rounds them
// (and the points that follow from them) to the precision of report_figures.h.
TEST(TaskScore, ReportFiguresAreRoundedForPeople) {
  TaskScorer s = scorer();
  core::Outputs o = frame(0.0);
  s.update(o, kMoved);
  o.time_s = 110.00000000000001;   // past the optimum: time points fall with the clock
  o.events.rack_gate_hits = 1;
  s.update(o, kMoved);
  const TaskScore& raw = s.score();
  ASSERT_NE(raw.elapsed_s, round_figure(raw.elapsed_s, 2)) << "the test needs an inexact time";
  const auto r = s.report("session 1", kVersions);
  EXPECT_EQ(r["elapsed_s"].get<double>(), round_figure(raw.elapsed_s, 2));
  EXPECT_EQ(r["time_points"].get<double>(), round_figure(raw.time_points, 1));
  EXPECT_EQ(r["total"].get<double>(), round_figure(raw.total, 1));
  EXPECT_EQ(r["timeline"][0]["task_time_s"].get<double>(),
            round_figure(r["timeline"][0]["task_time_s"].get<double>(), 2));
  // no figure in the file has more digits than its stated precision
  const std::string text = r.dump(2);
  EXPECT_FALSE(std::regex_search(text, std::regex(R"(\d\.\d{3,})"))) << text;
}

}  // namespace
}  // namespace clamsim::training

namespace clamsim::training {
namespace {

// One name per penalty kind: its count in the score, and in the world's events where the
// world counts it, is the kind's name with "s" (the rule the browser and the docs rely on:
// web/js/event-kinds.js countKey), and the observers' event of it has the kind's own name.
TEST(TaskScore, EachPenaltyKindHasOneNameEverywhere) {
  for (std::size_t k = 0; k < model::kPenaltyKinds; ++k) {
    const std::string count = std::string(model::kPenaltyNames[k]) + "s";
    int in_score = 0;
    core::for_each_field(kTaskScoreFields, [&](const auto& f) {
      if constexpr (std::is_same_v<decltype(f.member), int TaskScore::*>) {
        if (f.member == kPenaltyCounts[k]) {
          EXPECT_EQ(f.name, count) << "the score's count of " << model::kPenaltyNames[k];
          ++in_score;
        }
      }
    });
    EXPECT_EQ(in_score, 1) << model::kPenaltyNames[k] << " is counted once in the score";
    // the kinds the scorer reads off the world's counters (the dropped load is its own rule)
    const auto kind = static_cast<model::PenaltyKind>(k);
    using K = model::PenaltyKind;
    const bool world_counts = kind == K::RackGateHit || kind == K::StructureHit || kind == K::SlackCable ||
                              kind == K::Overload || kind == K::LmiWarning || kind == K::LmiCutout;
    const auto& ev = core::kWorldEventFields;
    const bool in_events =
        std::any_of(ev.begin(), ev.end(), [&](const auto& f) { return f.name == count; });
    if (world_counts) {
      EXPECT_TRUE(in_events) << count << " in the world's events";
    }
  }
}

}  // namespace
}  // namespace clamsim::training
