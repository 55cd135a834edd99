// A newcomer's first attempt at the dam task, on the model alone: the shipped dam_intake
// scenario, the real dynamics and the real TaskScorer, frame by frame as the session feeds
// them. The trainee's hands are the browser's keys (full or half speed, web/js/input.js),
// changed no sooner than 0.3 s after the last change and up to 0.15 s late (a reaction), and
// the trainee reads only what the screen shows: the HUD's values and where the grab and the
// logs are in the scene. The moves are the first lesson's (tests/training/lesson_test.cc),
// joined into the task: an attempt done this way must finish with a positive score, for any
// reaction times. tests/e2e/first-attempt.test.js does the same in Chromium.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/machine.h"
#include "model/machine_file.h"
#include "model/scenario_file.h"
#include "training/task_score.h"

namespace clamsim::training {
namespace {

constexpr double kVolts = 5.0;       // what a held key sends (web/js/input.js)
constexpr double kHalfVolts = 2.5;   // with the half-speed key (config/keyboard.json)
constexpr double kMinChangeS = 0.3;  // a human's quickest key change
constexpr double kClosedOnN = 6000.0;   // cable 2's pull with the jaws squeezing a log (HUD, kN)

enum Signal { kSwing, kBoom, kTelescope, kCable1, kCable2 };

// The keys held: per signal -1, 0 or +1, and the half-speed key.
struct Chord {
  std::array<int, 5> dir{};
  bool half = false;
};
Chord keys(std::initializer_list<std::pair<Signal, int>> held, bool half = false) {
  Chord c;
  for (const auto& [s, d] : held) c.dir[static_cast<std::size_t>(s)] = d;
  c.half = half;
  return c;
}

using Screen = core::Outputs;
double radius(const std::array<double, 3>& p) { return std::hypot(p[0], p[1]); }
double wrap180(double deg) { return std::remainder(deg, 360.0); }
double bearing_deg(const std::array<double, 3>& p) { return std::atan2(p[1], p[0]) * 180.0 / M_PI; }

struct Attempt {
  core::MachineParams m = model::load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
  model::Scenario sc = model::load_scenario_file(
      std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json", m);
  core::State st;
  core::Environment env{&sc.world};
  TaskScorer scorer{sc.task};
  Screen o;
  Chord now;
  const double frame_s = m.integrator.frame_s;   // the model's frame period
  const int min_change_frames = static_cast<int>(std::ceil(kMinChangeS / frame_s - 1e-9));
  int since_change = 1000;
  unsigned reaction;   // a small linear congruential generator: 0-3 frames late per change

  explicit Attempt(unsigned seed) : reaction(seed) {
    st = core::initial_state(m, sc.start);
    core::reset_world(sc.world, st.world);
    frame();
  }
  void frame() {
    core::Control u;
    for (std::size_t i = 0; i < 5; ++i) u.volts[i] = now.dir[i] * (now.half ? kHalfVolts : kVolts);
    core::advance_to(m, st, u, env, st.time_s + frame_s);
    o = core::outputs(m, st, env);
    bool moved = false;
    for (double v : u.volts) moved = moved || std::fabs(v) > 0.05;
    scorer.update(o, moved);
    ++since_change;
  }
  bool finished() const { return scorer.score().finished; }
  void change(const Chord& c) {
    while (since_change < min_change_frames) frame();
    reaction = reaction * 1103515245u + 12345u;
    for (unsigned j = 0; j < (reaction >> 16) % 4; ++j) frame();
    now = c;
    since_change = 0;
  }
  // Holds the chord until `done` (at least the shortest press, at most max_s), then lets go.
  void hold(const Chord& c, const std::function<bool(const Screen&)>& done, double max_s) {
    change(c);
    for (int f = 0; f < static_cast<int>(max_s / frame_s) && !finished(); ++f) {
      if (since_change >= min_change_frames && done(o)) break;
      frame();
    }
    change({});
  }
  void rest(double s) {
    for (int f = 0; f < static_cast<int>(s / frame_s) && !finished(); ++f) frame();
  }
  const std::array<double, 3>& at(int load) const { return o.loads[static_cast<std::size_t>(load)].position_m; }
};

// The task's logs still floating, the farthest out first.
int next_log(const Attempt& a) {
  int best = -1;
  for (int k : a.sc.task.loads) {
    const auto& p = a.at(k);
    if (p[2] > 0.0 || p[2] < -4.0) continue;   // in the truck, or sunk
    if (best < 0 || radius(p) > radius(a.at(best))) best = k;
  }
  return best;
}

// Swings until the boom points at `bearing`: at full speed while far, at half speed near
// it (the swing runs on for about 13 deg after a full-speed key, 4 deg after a half-speed one).
void swing_to(Attempt& a, const std::function<double()>& bearing) {
  const auto error = [&](const Screen& o) { return wrap180(bearing() - o.joint_pos[0]); };
  for (int i = 0; i < 4 && std::fabs(error(a.o)) > 1.0 && !a.finished(); ++i) {
    const int d = error(a.o) > 0 ? +1 : -1;
    if (std::fabs(error(a.o)) > 20.0)
      a.hold(keys({{kSwing, d}}), [&](const Screen& o) { return d * error(o) < 14.0; }, 40);
    else
      a.hold(keys({{kSwing, d}}, true), [&](const Screen& o) { return d * error(o) < 3.5; }, 20);
    a.rest(1.5);
  }
}

// One pick and delivery, as the lesson teaches it; false when the grab came up empty.
bool clear_one(Attempt& a, int log) {
  const auto& truck = a.sc.task.truck;
  // over the log: swing, then the boom until the head hangs above it
  swing_to(a, [&] { return bearing_deg(a.at(log)); });
  const auto reach = [&](const Screen& o) { return radius(o.point_a) - radius(a.at(log)); };
  if (reach(a.o) < -0.1)
    a.hold(keys({{kBoom, -1}}), [&](const Screen& o) { return reach(o) > -0.1; }, 40);
  else if (reach(a.o) > 0.1)
    a.hold(keys({{kBoom, +1}}, true), [&](const Screen& o) { return reach(o) < 0.05; }, 40);
  a.rest(2.0);
  // the jaws open to the lesson's 60 deg: let go at 50, the winches carry them on
  if (a.o.display[4] < 50.0)
    a.hold(keys({{kCable1, +1}, {kCable2, -1}}, true), [](const Screen& o) { return o.display[4] > 50.0; }, 10);
  else if (a.o.display[4] > 75.0)
    a.hold(keys({{kCable2, +1}}, true), [](const Screen& o) { return o.display[4] < 70.0; }, 10);
  // down into the water beside the log: quickly to 2 m above it, then at half speed until
  // the hinge C is half a metre over its middle (the open lips reach below it)
  const auto over = [&](const Screen& o) { return o.point_c[2] - a.at(log)[2]; };
  a.hold(keys({{kCable1, -1}, {kCable2, -1}}),
         [&](const Screen& o) { return over(o) < 2.5 || o.clam_contact_force_N > 3000.0; }, 20);
  a.hold(keys({{kCable1, -1}, {kCable2, -1}}, true),
         [&](const Screen& o) { return over(o) < 0.5 || o.clam_contact_force_N > 3000.0; }, 20);
  a.rest(1.5);
  // close on cable 2, cable 1 held, until the HUD says the jaws are on a load and cable 2's
  // pull has risen past what the empty grab hangs on it (the closing rope squeezes the log),
  // then lift on both: cable 1 follows with its slack
  a.hold(keys({{kCable2, +1}}, true),
         [&](const Screen& o) { return (o.load == core::LoadStatus::WithLoad && o.tensions_N[1] > kClosedOnN) || o.display[4] < 3.0; }, 18);
  a.rest(1.0);
  a.hold(keys({{kCable1, +1}, {kCable2, +1}}, true), [](const Screen& o) { return o.display[3] < 3.0; }, 30);
  a.rest(1.0);
  const int held = a.o.held_load;
  if (held < 0) return false;
  // a little more slack on cable 1 before booming up: the closing rope carries the log and
  // keeps the jaws shut (booming up takes cable 1 in against cable 2)
  a.change(keys({{kCable1, -1}}, true));
  a.rest(0.6);
  a.change({});
  a.rest(1.0);
  // up and round to the truck, high over the deck, slowly near the end of the swing
  a.hold(keys({{kBoom, +1}}, true), [&](const Screen& o) { return o.joint_pos[1] > 49.5 || o.held_load < 0; }, 60);
  swing_to(a, [&] { return std::atan2(truck.center_m.y(), truck.center_m.x()) * 180.0 / M_PI; });
  a.rest(3.0);
  // down into the load space, at half speed for the last 2 m, and let go
  const double floor_z = truck.center_m.z() - truck.half_size_m.z();
  const auto load_z = [&] { return a.at(held)[2]; };
  a.hold(keys({{kCable1, -1}, {kCable2, -1}}), [&](const Screen&) { return load_z() < floor_z + 2.8; }, 20);
  a.hold(keys({{kCable1, -1}, {kCable2, -1}}, true), [&](const Screen&) { return load_z() < floor_z + 1.2; }, 20);
  a.rest(1.0);
  // open until the jaws are empty and clear of it (closer, hoisting would close them on it again)
  a.hold(keys({{kCable1, +1}, {kCable2, -1}}, true),
         [](const Screen& o) { return o.held_load < 0 && o.display[4] > 40.0; }, 20);
  a.rest(1.0);
  a.hold(keys({{kCable1, +1}, {kCable2, +1}}, true), [](const Screen& o) { return o.display[3] < 3.0; }, 20);
  a.rest(1.0);
  return true;
}

TaskScore attempt(unsigned seed) {
  Attempt a(seed);
  // set up: the grab down 1.6 m, so the telescope, drawing the ropes in as it runs out, keeps
  // the head clear of the anti-two-block switch; out to 14.1 m, from where the boom alone
  // reaches the logs (at 7-17 deg) and the truck (at 50 deg)
  a.hold(keys({{kCable1, -1}, {kCable2, -1}}, true), [](const Screen& o) { return o.display[3] > 3.6; }, 20);
  a.hold(keys({{kTelescope, +1}}), [](const Screen& o) { return o.joint_pos[2] > 14.05; }, 30);
  a.rest(1.0);
  for (int tries = 0; tries < 8 && !a.finished(); ++tries) {
    const int log = next_log(a);
    if (log < 0) break;
    clear_one(a, log);
  }
  a.rest(5.0);
  return a.scorer.score();
}

TEST(FirstAttempt, TheLessonsMovesFinishTheDamTaskWithAPositiveScore) {
  for (const unsigned seed : {1u, 2u, 3u}) {
    const TaskScore s = attempt(seed);
    std::printf("reactions %u: %s in %.1f s, %d of %d delivered; %.1f time points - %.1f penalty "
                "points = %.1f (rack/gate %d, structure %d, slack %d, overload %d, dropped %d, "
                "load moment %d/%d)\n",
                seed, s.completed ? "completed" : "not completed", s.elapsed_s, s.delivered, s.required,
                s.time_points, s.penalty_points, s.total, s.rack_gate_hits, s.structure_hits,
                s.slack_cables, s.overloads, s.dropped_loads, s.lmi_warnings, s.lmi_cutouts);
    EXPECT_TRUE(s.completed) << seed;
    EXPECT_EQ(s.delivered, s.required) << seed;
    EXPECT_GT(s.total, 0.0) << seed;
    // the faults a careful newcomer does not make: none of these are in the moves
    EXPECT_EQ(s.rack_gate_hits, 0) << seed;
    EXPECT_EQ(s.structure_hits, 0) << seed;
    EXPECT_EQ(s.overloads, 0) << seed;
    EXPECT_EQ(s.dropped_loads, 0) << seed;
    EXPECT_EQ(s.lmi_warnings, 0) << seed;
    RecordProperty("total_" + std::to_string(seed), std::to_string(s.total));
  }
}

}  // namespace
}  // namespace clamsim::training
