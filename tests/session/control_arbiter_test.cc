// Who drives (docs/instructor.md, "Taking the controls"): the arbitration between a trainee and the
// instructors watching, after the observe / exclusive / collaborative model of Amoretti et
// al.: one holder at a time, a line of waiting instructors, hand-over on release
// and on disconnect, and the axis-by-axis merge of dual control.
#include <gtest/gtest.h>

#include "session/control_arbiter.h"

namespace clamsim::session {
namespace {

using Kind = ControlAnswer::Kind;

core::Control volts(double s, double b, double t, double w1, double w2) {
  core::Control u;
  u.volts = {s, b, t, w1, w2};
  return u;
}

const core::Control kTrainee = volts(1.0, -2.0, 0.5, 3.0, -3.0);

TEST(ControlArbiter, OnlyObservingTheTraineeDrives) {
  ControlArbiter a;
  const MergedControl m = a.merge(kTrainee);
  EXPECT_EQ(m.control.volts, kTrainee.volts);
  EXPECT_EQ(m.driver, Driver::Trainee);
  EXPECT_EQ(a.state().mode, ControlMode::Trainee);
  EXPECT_EQ(a.state().holder, 0u);
  EXPECT_FALSE(a.set_instructor_control(7, volts(5, 5, 5, 5, 5))) << "not holding: ignored";
  EXPECT_EQ(a.merge(kTrainee).control.volts, kTrainee.volts);
}

TEST(ControlArbiter, ExclusiveControlIgnoresTheTraineeStartingAtNeutral) {
  ControlArbiter a;
  const ControlAnswer granted = a.request(7, "ann", ControlMode::Exclusive, false);
  EXPECT_EQ(granted.kind, Kind::Granted);
  EXPECT_EQ(a.state().mode, ControlMode::Exclusive);
  EXPECT_EQ(a.state().holder, 7u);
  EXPECT_EQ(a.state().holder_name, "ann");
  // a new holder's stick is at neutral until it moves: the machine stops, it does not lurch
  MergedControl m = a.merge(kTrainee);
  EXPECT_EQ(m.control.volts, core::Control{}.volts);
  EXPECT_EQ(m.driver, Driver::Instructor);
  EXPECT_EQ(m.instructor, "ann");
  ASSERT_TRUE(a.set_instructor_control(7, volts(0, 4.0, 0, 0, 0)));
  m = a.merge(kTrainee);
  EXPECT_EQ(m.control.volts, volts(0, 4.0, 0, 0, 0).volts) << "every trainee axis ignored";
}

TEST(ControlArbiter, SharedControlOverridesOnlyTheInstructorsMovedAxes) {
  ControlArbiter a;
  ASSERT_EQ(a.request(7, "ann", ControlMode::Shared, false).kind, Kind::Granted);
  // instructor's stick centred (within the neutral band): the trainee drives alone
  ASSERT_TRUE(a.set_instructor_control(7, volts(0.1, -0.1, 0, 0, 0)));
  MergedControl m = a.merge(kTrainee);
  EXPECT_EQ(m.control.volts, kTrainee.volts);
  EXPECT_EQ(m.driver, Driver::Trainee);
  // the instructor moves boom and main hoist: those two are the instructor's, axis by axis
  ASSERT_TRUE(a.set_instructor_control(7, volts(0, 3.0, 0, -1.0, 0)));
  m = a.merge(kTrainee);
  EXPECT_EQ(m.control.volts, volts(1.0, 3.0, 0.5, -1.0, -3.0).volts);
  EXPECT_EQ(m.driver, Driver::Both);
  EXPECT_EQ(m.instructor, "ann");
  // the trainee lets go of everything the instructor does not move: the instructor drives
  m = a.merge(volts(0, -2.0, 0, 3.0, 0));
  EXPECT_EQ(m.driver, Driver::Instructor);
}

TEST(ControlArbiter, ASecondInstructorIsRefusedWithTheReasonOrWaitsInLine) {
  ControlArbiter a;
  ASSERT_EQ(a.request(7, "ann", ControlMode::Exclusive, false).kind, Kind::Granted);
  const ControlAnswer refused = a.request(8, "bob", ControlMode::Exclusive, false);
  EXPECT_EQ(refused.kind, Kind::Refused);
  EXPECT_NE(refused.message.find("ann has exclusive control"), std::string::npos)
      << refused.message;
  EXPECT_EQ(a.state().holder, 7u) << "the holder keeps it";
  EXPECT_FALSE(a.set_instructor_control(8, volts(5, 5, 5, 5, 5)));

  const ControlAnswer waiting = a.request(8, "bob", ControlMode::Shared, true);
  EXPECT_EQ(waiting.kind, Kind::Waiting);
  EXPECT_NE(waiting.message.find("number 1 in line"), std::string::npos) << waiting.message;
  EXPECT_EQ(a.state().waiting, 1u);
  EXPECT_NE(a.request(9, "cy", ControlMode::Exclusive, true).message.find("number 2 in line"),
            std::string::npos);
  const ControlAnswer again = a.request(9, "cy", ControlMode::Exclusive, true);
  EXPECT_NE(again.message.find("number 2 in line"), std::string::npos)
      << "asking again keeps the place: " << again.message;
  EXPECT_EQ(a.state().waiting, 2u);

  // ann hands back: bob is next, in the mode bob asked for, at neutral
  EXPECT_EQ(a.release(7).kind, Kind::Released);
  EXPECT_EQ(a.state().holder, 8u);
  EXPECT_EQ(a.state().mode, ControlMode::Shared);
  EXPECT_EQ(a.state().holder_name, "bob");
  EXPECT_EQ(a.state().waiting, 1u);
  EXPECT_EQ(a.merge(kTrainee).control.volts, kTrainee.volts);
  EXPECT_EQ(a.release(7).kind, Kind::NotHeld) << "ann holds nothing any more";
}

TEST(ControlArbiter, DisconnectingHandsBackOrLeavesTheLine) {
  ControlArbiter a;
  ASSERT_EQ(a.request(7, "ann", ControlMode::Exclusive, false).kind, Kind::Granted);
  ASSERT_EQ(a.request(8, "bob", ControlMode::Exclusive, true).kind, Kind::Waiting);
  a.leave(8);   // bob closes the page while waiting
  EXPECT_EQ(a.state().waiting, 0u);
  a.leave(7);   // ann's connection drops
  EXPECT_EQ(a.state().mode, ControlMode::Trainee);
  EXPECT_EQ(a.state().holder, 0u);
  EXPECT_EQ(a.merge(kTrainee).control.volts, kTrainee.volts) << "the trainee drives again";
  a.leave(9);   // a stranger leaving changes nothing
  EXPECT_EQ(a.state().mode, ControlMode::Trainee);
}

TEST(ControlArbiter, TheHolderSwitchesModesKeepingTheStick) {
  ControlArbiter a;
  ASSERT_EQ(a.request(7, "ann", ControlMode::Exclusive, false).kind, Kind::Granted);
  ASSERT_TRUE(a.set_instructor_control(7, volts(0, 2.0, 0, 0, 0)));
  const std::uint64_t before = a.state().version;
  EXPECT_EQ(a.request(7, "ann", ControlMode::Shared, false).kind, Kind::Granted);
  EXPECT_EQ(a.state().mode, ControlMode::Shared);
  EXPECT_GT(a.state().version, before);
  EXPECT_EQ(a.merge(kTrainee).control.volts[1], 2.0);
  // asking for what one has already changes nothing
  const std::uint64_t v = a.state().version;
  EXPECT_EQ(a.request(7, "ann", ControlMode::Shared, false).kind, Kind::Granted);
  EXPECT_EQ(a.state().version, v);
}

TEST(ControlArbiter, EveryChangeCountsAVersionAndTheTraineeIsToldInWords) {
  ControlArbiter a;
  const std::uint64_t v0 = a.state().version;
  a.request(7, "", ControlMode::Exclusive, false);
  EXPECT_EQ(a.state().holder_name, "instructor") << "no login name: a role, never empty";
  EXPECT_EQ(control_notice_text(a.state()), "The instructor is driving: your stick is ignored");
  a.release(7);
  EXPECT_EQ(control_notice_text(a.state()), "You are driving");
  EXPECT_EQ(a.state().version, v0 + 2);
  EXPECT_EQ(a.request(7, "ann", ControlMode::Trainee, false).kind, Kind::Refused);
}

}  // namespace
}  // namespace clamsim::session
