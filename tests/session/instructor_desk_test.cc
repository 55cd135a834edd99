// What instructors do to a session: the desk's messages and notes, then a real
// session on a manual clock in which an instructor takes the controls at a known frame,
// drives the clam onto the trash rack while the trainee's stick says otherwise, hands back
// and sends a message. The frames say who drove and what changed, and the task's report
// timeline lists the hand-overs and says whose inputs caused the penalty.
#include "session/instructor_desk.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include <nlohmann/json.hpp>

#include "session/session.h"
#include "recording_sink.h"
#include "test_setup.h"

namespace clamsim::session {
namespace {

TEST(InstructorDesk, AMessageRidesOnTheNextFrameAndIsNoted) {
  InstructorDesk desk;
  EXPECT_EQ(desk.post_message("ann", "  Lower the boom slowly  "), "");
  const FrameInputs in = desk.begin_frame(core::Control{}, 0.0);
  ASSERT_TRUE(in.notices);
  ASSERT_EQ(in.notices->messages.size(), 1u);
  EXPECT_EQ(in.notices->messages[0].from, "ann");
  EXPECT_EQ(in.notices->messages[0].text, "Lower the boom slowly") << "trimmed";
  EXPECT_FALSE(in.notices->control_changed);
  ASSERT_EQ(in.notes.size(), 1u);
  EXPECT_EQ(in.notes[0].kind, "message");
  EXPECT_EQ(in.notes[0].by, "ann");
  EXPECT_FALSE(desk.begin_frame(core::Control{}, 0.0).notices) << "once only";
}

TEST(InstructorDesk, ABadMessageIsRefusedNamingWhy) {
  InstructorDesk desk;
  EXPECT_EQ(desk.post_message("ann", "   "), "the message is empty");
  EXPECT_NE(desk.post_message("ann", "two\nlines").find("control character"), std::string::npos);
  const std::string long_text(kMaxMessageChars + 1, 'x');
  EXPECT_NE(desk.post_message("ann", long_text).find("longer than 200"), std::string::npos);
  // the rule of trainees' names (training/trainee_name.h): nothing reversed, blank or broken
  EXPECT_NE(desk.post_message("ann", "go \u202Eleft").find("bidirectional"), std::string::npos);
  EXPECT_NE(desk.post_message("ann", "\u200B\u200B").find("no visible character"), std::string::npos);
  EXPECT_NE(desk.post_message("ann", "\u2028").find("line break"), std::string::npos);
  EXPECT_NE(desk.post_message("ann", "up\u2029down").find("line break"), std::string::npos);
  // 200 characters of two bytes each fit: characters are counted, not bytes
  std::string umlauts;
  for (std::size_t i = 0; i < kMaxMessageChars; ++i) umlauts += "\xc3\xa4";
  EXPECT_EQ(desk.post_message("ann", umlauts), "");
  EXPECT_EQ(desk.post_message("", "hi"), "");
  const FrameInputs in = desk.begin_frame(core::Control{}, 0.0);
  ASSERT_TRUE(in.notices);
  ASSERT_EQ(in.notices->messages.size(), 2u) << "only the good ones";
  EXPECT_EQ(in.notices->messages[1].from, "instructor");
}

TEST(InstructorDesk, AHandOverIsNotedOnceWaitingIsShownNotNoted) {
  InstructorDesk desk;
  desk.control().request(7, "ann", ControlMode::Exclusive, false);
  FrameInputs in = desk.begin_frame(core::Control{}, 0.0);
  ASSERT_TRUE(in.notices && in.notices->control_changed);
  EXPECT_EQ(in.notices->control.holder_name, "ann");
  ASSERT_EQ(in.notes.size(), 1u);
  EXPECT_EQ(in.notes[0].kind, "control");
  EXPECT_EQ(in.notes[0].detail, "exclusive");
  EXPECT_EQ(in.control.driver, Driver::Instructor);
  desk.control().request(8, "bob", ControlMode::Exclusive, true);
  in = desk.begin_frame(core::Control{}, 0.0);
  ASSERT_TRUE(in.notices && in.notices->control_changed);
  EXPECT_EQ(in.notices->control.waiting, 1u);
  EXPECT_TRUE(in.notes.empty()) << "bob waiting is not a hand-over";
  desk.control().leave(8);
  desk.control().release(7);
  in = desk.begin_frame(core::Control{}, 0.0);
  ASSERT_EQ(in.notes.size(), 1u);
  EXPECT_EQ(in.notes[0].detail, "trainee");
  EXPECT_EQ(in.notes[0].by, "ann") << "who handed back";
}

TEST(InstructorDesk, AFaultIsCheckedAtOnceAppliedAtTheNextFrameAndNoted) {
  InstructorDesk desk;
  EXPECT_NE(desk.inject_fault("ann", "burst_pipe", nlohmann::json::object()).find("unknown fault"),
            std::string::npos);
  EXPECT_NE(desk.inject_fault("ann", "burst_hose", {{"function", "jib"}}).find("not one of"),
            std::string::npos);
  ASSERT_EQ(desk.inject_fault("ann", "burst_hose", {{"function", "boom"}}), "");
  EXPECT_EQ(desk.active_faults().size(), 1u) << "shown at once";
  const FrameInputs in = desk.begin_frame(core::Control{}, 3.0);
  EXPECT_TRUE(in.faults.hoses[1].active) << "in force from this frame: the boom's hose";
  ASSERT_TRUE(in.notices && in.notices->faults_changed);
  EXPECT_EQ(in.notices->faults.at(0).at("name"), "burst_hose");
  ASSERT_EQ(in.notes.size(), 1u);
  EXPECT_EQ(in.notes[0].kind, "fault");
  EXPECT_EQ(in.notes[0].by, "ann");
  EXPECT_EQ(in.notes[0].detail, "burst hose: function boom, line A, diameter 3 mm");
  EXPECT_TRUE(desk.begin_frame(core::Control{}, 3.05).faults.hoses[1].active) << "and stays";

  ASSERT_EQ(desk.clear_fault("bob", "all", nlohmann::json::object()), "");
  const FrameInputs cleared = desk.begin_frame(core::Control{}, 3.1);
  EXPECT_FALSE(cleared.faults.hoses[1].active);
  ASSERT_EQ(cleared.notes.size(), 1u);
  EXPECT_EQ(cleared.notes[0].kind, "fault_cleared");
  EXPECT_EQ(cleared.notes[0].by, "bob");
  EXPECT_TRUE(desk.active_faults().empty());
}

TEST(InstructorDesk, AStuckSpoolHoldsTheVoltsInForceAndEndsByItselfNoted) {
  InstructorDesk desk;
  desk.begin_frame(core::Control{{0, 2.5, 0, 0, 0}}, 1.0);   // the trainee's boom up
  ASSERT_EQ(desk.inject_fault("ann", "sticking_spool", {{"function", "boom"}, {"duration_s", 2}}), "");
  FrameInputs in = desk.begin_frame(core::Control{}, 1.05);
  EXPECT_TRUE(in.faults.spools[1].active);
  EXPECT_EQ(in.faults.spools[1].volts, 2.5) << "the opening it had when it stuck";
  in = desk.begin_frame(core::Control{}, 3.04);
  EXPECT_TRUE(in.faults.spools[1].active);
  in = desk.begin_frame(core::Control{}, 3.06);
  EXPECT_FALSE(in.faults.spools[1].active) << "2 s after it stuck";
  ASSERT_EQ(in.notes.size(), 1u);
  EXPECT_EQ(in.notes[0].kind, "fault_cleared");
  EXPECT_EQ(in.notes[0].by, "") << "nobody: its time was up";
  ASSERT_TRUE(in.notices && in.notices->faults_changed);
}

TEST(InstructorDesk, ADeadAxisActsOnTheTraineesStickNotTheInstructors) {
  InstructorDesk desk;
  ASSERT_EQ(desk.inject_fault("ann", "axis_dead", {{"axis", "swing"}}), "");
  FrameInputs in = desk.begin_frame(core::Control{{4, 1, 0, 0, 0}}, 0.0);
  EXPECT_EQ(in.control.control.volts[0], 0.0) << "the dead swing axis reads 0 V";
  EXPECT_EQ(in.control.control.volts[1], 1.0);
  desk.control().request(7, "ann", ControlMode::Exclusive, false);
  desk.control().set_instructor_control(7, core::Control{{3, 0, 0, 0, 0}});
  in = desk.begin_frame(core::Control{{4, 1, 0, 0, 0}}, 0.05);
  EXPECT_EQ(in.control.control.volts[0], 3.0) << "the instructor's own stick is not faulty";
}

TEST(InstructorAtWork, TakesTheControlsHitsTheRackHandsBackAndTheReportSaysWhoDrove) {
  ManualClock clock;
  auto sink = std::make_shared<testing::RecordingSink>();
  SessionOptions o;
  o.report_dir = "";   // the frame carries the report
  // a 60 s optimum: the task times out at 90 s (1800 frames), after the instructor is done
  Session s(5, testing::world_setup([](model::Scenario& sc) { sc.task.optimum_s = 60.0; }), sink,
            o, clock);
  // the trainee holds the boom down and the hoists up the whole time
  const double trainee[5] = {0, -2.0, 0, 2.0, 2.0};
  ASSERT_EQ(s.submit_control(trainee, 5).kind, ControlVerdict::Kind::Accepted);
  enum class Phase { Watch, Out, Down, Up, Back } phase = Phase::Watch;
  std::uint64_t hit_at = 0, handed_back_at = 0;
  sink->act = [&](const Frame& f) {
    ControlArbiter& c = s.desk().control();
    const double rack_x = 11.1;   // the trash rack's top, as in scored_run_test.cc
    switch (phase) {
      case Phase::Watch:
        if (f.seq == 9) {
          ASSERT_EQ(c.request(42, "ann", ControlMode::Exclusive, false).kind,
                    ControlAnswer::Kind::Granted);
          // telescoping out draws the ropes in along the boom (reeving): pay out as fast
          // (~0.1 m/s), or the clam climbs to the anti-two-block switch and it cuts out
          c.set_instructor_control(42, core::Control{{0, 0, 4.0, -1.5, -1.5}});
          phase = Phase::Out;
        }
        break;
      case Phase::Out:
        // let go a moment early, as an operator does: the valve's spool takes about a tenth
        // of a second to close, and the telescope runs on meanwhile
        if (f.outputs.tip[0] + 0.15 * f.outputs.joint_vel[2] >= rack_x) {
          c.set_instructor_control(42, core::Control{{0, 0, 0, -4.0, -4.0}});
          phase = Phase::Down;
        }
        break;
      case Phase::Down:
        if (f.outputs.events.rack_gate_hits > 0) {
          hit_at = f.seq;
          c.set_instructor_control(42, core::Control{{0, 0, 0, 4.0, 4.0}});
          phase = Phase::Up;
        }
        break;
      case Phase::Up:
        if (f.seq == hit_at + 40) {   // 2 s of hoisting clear of the rack
          c.release(42);
          EXPECT_EQ(s.desk().post_message("ann", "Your turn"), "");
          handed_back_at = f.seq;
          phase = Phase::Back;
        }
        break;
      case Phase::Back: break;
    }
  };
  s.start();
  // any frame: more may have arrived behind the one with the report before this thread
  // looked (a busy machine); the frames after it are not this test's
  const auto has_report = [](const Frame& f) { return static_cast<bool>(f.report); };
  std::vector<Frame> frames = sink->wait_until(
      [&](const std::vector<Frame>& f) { return std::any_of(f.begin(), f.end(), has_report); },
      std::chrono::seconds(120));
  s.stop();
  frames.erase(std::find_if(frames.begin(), frames.end(), has_report) + (frames.empty() ? 0 : 1),
               frames.end());
  ASSERT_FALSE(frames.empty());
  ASSERT_TRUE(frames.back().report) << "the task timed out with its report";
  ASSERT_EQ(phase, Phase::Back) << "the instructor's script ran to its end";

  // the hand-overs ride on the frames right after the instructor acted
  ASSERT_GT(frames.size(), handed_back_at + 1);
  ASSERT_TRUE(frames[10].notices && frames[10].notices->control_changed);
  EXPECT_EQ(frames[10].notices->control.mode, ControlMode::Exclusive);
  EXPECT_EQ(frames[10].notices->control.holder_name, "ann");
  const Frame& back = frames[handed_back_at + 1];
  ASSERT_TRUE(back.notices && back.notices->control_changed);
  EXPECT_EQ(back.notices->control.mode, ControlMode::Trainee);
  ASSERT_EQ(back.notices->messages.size(), 1u);
  EXPECT_EQ(back.notices->messages[0].text, "Your turn");

  // while the instructor drove, the trainee's stick (boom down) was ignored: the boom
  // angle did not fall; once handed back, it falls
  const double boom_at_take = frames[10].outputs.joint_pos[1];
  const double boom_at_back = frames[handed_back_at].outputs.joint_pos[1];
  EXPECT_NEAR(boom_at_back, boom_at_take, 0.2) << "the instructor never moved the boom";
  EXPECT_LT(frames[handed_back_at + 40].outputs.joint_pos[1], boom_at_back - 0.5)
      << "the trainee's boom down acts again";

  // the report's timeline: ann took exclusive control, the rack hit was ann's, ann handed
  // back, ann's message
  const auto report = nlohmann::json::parse(*frames.back().report);
  const auto& timeline = report.at("timeline");
  std::vector<std::string> kinds;
  for (const auto& e : timeline) kinds.push_back(e.at("kind").get<std::string>());
  ASSERT_GE(timeline.size(), 4u) << report.dump(2);
  EXPECT_EQ(timeline[0].at("kind"), "control");
  EXPECT_EQ(timeline[0].at("detail"), "exclusive");
  EXPECT_EQ(timeline[0].at("by"), "ann");
  bool hit_by_ann = false;
  for (const auto& e : timeline)
    if (e.at("kind") == "rack_gate_hit")
      hit_by_ann = e.at("driver") == "instructor" && e.at("instructor") == "ann";
  EXPECT_TRUE(hit_by_ann) << report.dump(2);
  const auto back_note = std::find_if(timeline.begin(), timeline.end(), [](const auto& e) {
    return e.at("kind") == "control" && e.at("detail") == "trainee";
  });
  ASSERT_NE(back_note, timeline.end());
  EXPECT_EQ(back_note->at("by"), "ann");
  const auto msg = std::find_if(timeline.begin(), timeline.end(),
                                [](const auto& e) { return e.at("kind") == "message"; });
  ASSERT_NE(msg, timeline.end());
  EXPECT_EQ(msg->at("detail"), "Your turn");
}

}  // namespace
}  // namespace clamsim::session
