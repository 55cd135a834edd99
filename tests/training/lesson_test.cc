// The first lesson on the real model: the shipped first_lesson scenario, the
// real dynamics and the real LessonTracker, frame by frame as the session feeds it. A
// scripted trainee uses only the controls each step names (its data), so the test also
// proves that the hints the browser shows do what the step asks.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/machine.h"
#include "model/machine_file.h"
#include "model/scenario_file.h"
#include "training/lesson.h"
#include "training/report_figures.h"

namespace clamsim::training {
namespace {

constexpr double kVolts = 5.0;   // what a held key sends (web/js/input.js)
constexpr double kHalfVolts = 2.5;   // with the half-speed key (config/keyboard.json)

struct LessonRun {
  core::MachineParams m = model::load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
  model::Scenario sc = model::load_scenario_file(
      std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/first_lesson.json", m);
  core::State st;
  core::Environment env{&sc.world};
  LessonTracker lesson{sc.lesson};
  core::Outputs o;
  LessonRun() {
    st = core::initial_state(m, sc.start);
    core::reset_world(sc.world, st.world);
    o = frame({});
  }
  core::Outputs frame(const core::Control& u) {
    core::advance_to(m, st, u, env, st.time_s + m.integrator.frame_s);
    o = core::outputs(m, st, env);
    lesson.update(o);
    return o;
  }
  // The volts of control `c` of the step under way: its [signal, direction] pairs, at the
  // speed the step teaches (half where the control says half_speed) unless `volts` is given.
  core::Control push(int c, double volts = 0.0) const {
    core::Control u;
    const auto& step = sc.lesson.steps[static_cast<std::size_t>(lesson.progress().step)];
    const auto& control = step.controls[static_cast<std::size_t>(c)];
    if (volts == 0.0) volts = control.half_speed ? kHalfVolts : kVolts;
    for (const auto& [signal, direction] : control.signals)
      u.volts[static_cast<std::size_t>(signal)] = direction * volts;
    return u;
  }
  // Holds control c until the step under way changes or `until` holds; false on timeout.
  template <class Until>
  bool hold(int c, Until until, int max_frames = 1200, double volts = 0.0) {
    const int step = lesson.progress().step;
    for (int f = 0; f < max_frames; ++f) {
      if (lesson.progress().step != step || until(o)) return true;
      frame(push(c, volts));
    }
    return false;
  }
  bool hold(int c) { return hold(c, [](const core::Outputs&) { return false; }); }
  // Lets the machine settle with the controls at neutral.
  void rest(int frames) {
    for (int f = 0; f < frames; ++f) frame({});
  }
};

TEST(Lesson, ShippedLessonHasTheSixStepsOfTheIssue) {
  LessonRun run;
  ASSERT_TRUE(run.sc.lesson.enabled);
  using K = model::LessonCheckKind;
  const K kinds[] = {K::ClamLowered, K::JawsOpened, K::LoadGripped, K::LoadLifted, K::LoadSwung,
                     K::LoadSetDown};
  ASSERT_EQ(run.sc.lesson.steps.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(run.sc.lesson.steps[k].check.kind, kinds[k]) << k;
  EXPECT_FALSE(run.sc.task.enabled);   // a lesson, not a scored task
}

TEST(Lesson, NothingHappensWithoutTheTrainee) {
  LessonRun run;
  run.rest(200);   // 10 s at neutral: the clam hangs still, no step is done for it
  EXPECT_EQ(run.lesson.progress().step, 0);
  EXPECT_LT(run.lesson.progress().progress, 0.1);
  EXPECT_FALSE(run.lesson.progress().finished);
}

TEST(Lesson, AScriptedTraineeCompletesTheWholeLessonWithTheNamedControls) {
  LessonRun run;
  const LessonProgress& p = run.lesson.progress();
  const double a0 = run.o.point_a[2];
  // 1. lower
  ASSERT_TRUE(run.hold(0)) << "lowering never reached the goal";
  EXPECT_EQ(p.step, 1);
  EXPECT_LE(run.o.point_a[2], a0 - run.sc.lesson.steps[0].check.by_m + 0.05);
  run.rest(20);
  // 2. open at half speed, letting go as the opening passes 50 deg (the step's words): the
  // winches run on and carry the jaws past the step's by_deg, short of the stop
  constexpr std::size_t kOpeningDeg = 4;   // Outputs::display
  ASSERT_TRUE(run.hold(0, [](const core::Outputs& o) { return o.display[kOpeningDeg] >= 50.0; }))
      << "the jaws never opened";
  for (int f = 0; f < 60 && p.step == 1; ++f) run.frame({});
  EXPECT_EQ(p.step, 2) << "opening " << run.o.display[kOpeningDeg];
  EXPECT_GE(run.o.display[kOpeningDeg], run.sc.lesson.steps[1].check.by_deg);
  run.rest(20);
  EXPECT_EQ(run.o.events.slack_cables, 0u) << "opening paid cable 2 out slack";
  // 3. lower the open buckets until their lips are beside the log (C three quarters of a lip
  // above its centre, or resting on it), then close: cable 2 in, cable 1 held. Higher, the
  // shells would close on it in their throat and only push it down (docs/model.md, Grip).
  const double log_z = run.o.loads[0].position_m[2];
  const double grip_depth = 0.75 * run.m.clam.lip_length_m;
  ASSERT_TRUE(run.hold(0, [&](const core::Outputs& o) {
    return o.point_c[2] < log_z + grip_depth || o.clam_contact_force_N > 2000.0;
  }, 1200, kHalfVolts)) << "point C " << run.o.point_c[2];
  // The buckets may already have closed on the log as it pushed up between them: the step
  // then counts it held. Either way the trainee keeps closing (E) until the closing rope,
  // slack while both ropes lowered, is taken up and squeezes the log.
  if (p.step == 2) {
    ASSERT_TRUE(run.hold(1, [](const core::Outputs&) { return false; }, 1200, kHalfVolts))
        << "closing never gripped the log; squeeze " << run.o.squeeze_N;
  }
  // the lesson measures the lift from where the log was when the grip was made
  const double lz = run.o.loads[0].position_m[2];
  core::Control close;
  close.volts[4] = kHalfVolts;
  for (int f = 0; f < 100 && run.o.tensions_N[1] < 2000.0; ++f) run.frame(close);
  run.rest(20);   // E let go: the closing winch stops before both start together
  EXPECT_EQ(p.step, 3);
  EXPECT_EQ(run.o.held_load, 0);
  EXPECT_EQ(run.o.load, core::LoadStatus::WithLoad);
  EXPECT_GE(run.o.tensions_N[1], 2000.0) << "the closing rope squeezes the log";
  // 4. lift on both (Q + E): the two winches wind at the same speed, so cable 1 follows with
  // the slack the close left it, and the jaws stay shut on the log
  const auto slack = [](const core::Outputs& o) { return o.display[5] - o.display[3]; };
  const double slack_before = slack(run.o);
  ASSERT_TRUE(run.hold(0)) << "lifting never reached the goal";
  EXPECT_EQ(run.o.held_load, 0) << "lifting on both lost the log";
  EXPECT_NEAR(slack(run.o), slack_before, 0.3) << "cable 1 keeps its slack";
  ASSERT_EQ(p.step, 4) << "lifting never reached the goal; held " << run.o.held_load;
  EXPECT_EQ(p.step, 4);
  EXPECT_GE(run.o.loads[0].position_m[2], lz + run.sc.lesson.steps[3].check.by_m - 0.05);
  run.rest(20);
  // 5. swing
  const double s0 = run.o.joint_pos[0];
  ASSERT_TRUE(run.hold(0)) << "swinging never reached the goal";
  EXPECT_EQ(p.step, 5);
  // swung right (the step's one control): the swing angle goes through 0, measured the short
  // way round
  EXPECT_GE(std::abs(std::remainder(run.o.joint_pos[0] - s0, 360.0)),
            run.sc.lesson.steps[4].check.by_deg - 0.5);
  run.rest(60);   // let the swing and the log's sway settle
  // 6. set down: lower until the log touches the deck, let it come to rest there (a trainee
  // waits for the bounce of the landing and the ropes' sway), then open
  ASSERT_TRUE(run.hold(0, [](const core::Outputs& o) { return o.loads[0].in_contact; }));
  run.rest(40);
  ASSERT_TRUE(run.hold(1, [](const core::Outputs& o) { return o.held_load < 0; }));
  run.rest(100);
  EXPECT_TRUE(p.finished) << "step " << p.step << " progress " << p.progress;
  EXPECT_EQ(p.step, 6);
  EXPECT_EQ(p.setbacks, 0);
  EXPECT_EQ(run.o.events.slack_cables, 0u) << "a rope paid out slack";
  EXPECT_FALSE(run.o.loads[0].held);
  EXPECT_NEAR(run.o.loads[0].position_m[2], 0.25, 0.05);   // lying on the deck

  const ReportVersions versions{"0.1.0", "t250", "ab12", "first_lesson", "cd34"};
  const auto r = run.lesson.report("session 1 (t250, first_lesson)", versions, "Ada");
  EXPECT_EQ(r["kind"], "lesson");
  EXPECT_EQ(r["versions"]["scenario"]["name"], "first_lesson") << "versions in every report";
  EXPECT_EQ(r["elapsed_s"].get<double>(), round_figure(r["elapsed_s"].get<double>(), 2));
  EXPECT_EQ(r["outcome"], "completed");
  EXPECT_EQ(r["delivered"], 6);
  EXPECT_EQ(r["steps"].size(), 6u);
  for (const auto& s : r["steps"]) EXPECT_TRUE(s["done_s"].is_number());
}

}  // namespace
}  // namespace clamsim::training

namespace clamsim::training {
namespace {

// The lift on both cables when a hand presses one key before the other: cable 1 (holding)
// taken up first pulls the jaws open and the log slips out; cable 2 (closing) first only
// squeezes harder. The lesson lists cable 2's key first (config/scenarios/first_lesson.json).
struct SkewedLift {
  bool kept;            // the log still held once the step is done (or 400 frames on)
  double min_squeeze_N; // cable 2's least tension on the way
};

SkewedLift lift_with_one_key_first(std::size_t first_signal, int lead_frames) {
  LessonRun run;
  const LessonProgress& p = run.lesson.progress();
  constexpr std::size_t kClamTipM = 3, kOpeningDeg = 4;   // Outputs::display
  run.hold(0);
  run.rest(20);
  run.hold(0, [](const core::Outputs& o) { return o.display[kOpeningDeg] >= 50.0; });
  run.rest(60);
  run.hold(0, [](const core::Outputs& o) { return o.display[kClamTipM] >= 3.8; }, 1200, kHalfVolts);
  run.rest(20);
  if (p.step == 2) run.hold(1, [](const core::Outputs&) { return false; }, 1200, kHalfVolts);
  run.rest(30);
  EXPECT_EQ(p.step, 3) << "the grip step is done";
  const core::Control both = run.push(0);
  core::Control one;
  one.volts[first_signal] = both.volts[first_signal];
  SkewedLift r{true, run.o.tensions_N[1]};
  for (int f = 0; f < lead_frames; ++f) run.frame(one);
  for (int f = 0; f < 400 && p.step == 3 && run.o.held_load == 0; ++f) {
    run.frame(both);
    r.min_squeeze_N = std::min(r.min_squeeze_N, run.o.tensions_N[1]);
  }
  r.kept = run.o.held_load == 0 && p.setbacks == 0;
  return r;
}

TEST(Lesson, TheLiftKeepsTheLogWhenCable2IsTakenUpFirstAndLosesItWhenCable1Is) {
  constexpr std::size_t kCable1 = 3, kCable2 = 4;   // ControlSignal
  const auto spec = LessonRun{}.sc.lesson;
  const auto& lift = spec.steps[3].controls[0].signals;
  ASSERT_EQ(lift.size(), 2u);
  EXPECT_EQ(static_cast<std::size_t>(lift[0].first), kCable2) << "the panel lists cable 2's key first";
  for (int lead : {0, 2, 6, 10}) {
    const SkewedLift r = lift_with_one_key_first(kCable2, lead);
    EXPECT_TRUE(r.kept) << "cable 2 pressed " << lead << " frames first";
    EXPECT_GT(r.min_squeeze_N, 2000.0) << "cable 2 pressed " << lead << " frames first";
  }
  EXPECT_TRUE(lift_with_one_key_first(kCable1, 0).kept) << "both pressed at once";
  EXPECT_FALSE(lift_with_one_key_first(kCable1, 6).kept) << "cable 1 pressed 0.3 s first";
}

}  // namespace
}  // namespace clamsim::training
