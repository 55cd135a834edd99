#include "model/control_script.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "model/json_fields.h"
#include "model/machine_file.h"

namespace clamsim::model {
namespace {

constexpr double kPi = 3.14159265358979323846;

void expect_volts(const ControlScript& s, double t, std::array<double, 5> want) {
  const core::Control c = s.at(t);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_DOUBLE_EQ(c.volts[i], want[i]) << "channel " << i << " at t=" << t;
  }
}

// Parses text expected to fail; checks the message names the line and the problem.
void expect_error(const std::string& text, int line, const std::string& problem) {
  try {
    parse_control_script(text, "t.ctl");
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("t.ctl:" + std::to_string(line) + ":"), std::string::npos) << msg;
    EXPECT_NE(msg.find(problem), std::string::npos) << msg;
  }
}

TEST(ControlScript, EmptyScriptIsZeroForever) {
  const ControlScript s = parse_control_script("# nothing\n\n", "t.ctl");
  EXPECT_TRUE(s.breakpoints().empty());
  EXPECT_FALSE(s.initial().has_value());
  EXPECT_FALSE(s.duration_s().has_value());
  expect_volts(s, 0.0, {0, 0, 0, 0, 0});
  expect_volts(s, 100.0, {0, 0, 0, 0, 0});
}

TEST(ControlScript, StepJumpsAtItsTimeAndHolds) {
  const ControlScript s = parse_control_script(
      "step 1  0 0 0 -3 3\n"
      "step 4  0 0 0 3 -3\n",
      "t.ctl");
  ASSERT_EQ(s.breakpoints().size(), 2u);
  EXPECT_EQ(s.breakpoints()[1].line, 2);
  expect_volts(s, 0.0, {0, 0, 0, 0, 0});       // before the first step: zero
  expect_volts(s, 0.999, {0, 0, 0, 0, 0});
  expect_volts(s, 1.0, {0, 0, 0, -3, 3});      // right-continuous
  expect_volts(s, 3.999, {0, 0, 0, -3, 3});
  expect_volts(s, 4.0, {0, 0, 0, 3, -3});
  expect_volts(s, 1e6, {0, 0, 0, 3, -3});      // holds after the last
  expect_volts(s, -1.0, {0, 0, 0, 0, 0});
}

TEST(ControlScript, RampIsLinearFromThePreviousBreakpoint) {
  const ControlScript s = parse_control_script(
      "step 0  1 2 -4 0 0\n"
      "ramp 2  3 -2 4 5 -5\n"
      "ramp 3  3 -2 4 5 -5\n"   // a ramp to the same values is a hold
      "ramp 7  -1 2 0 -5 5\n",
      "t.ctl");
  expect_volts(s, 0.0, {1, 2, -4, 0, 0});
  expect_volts(s, 1.0, {2, 0, 0, 2.5, -2.5});   // midpoint
  expect_volts(s, 0.5, {1.5, 1, -2, 1.25, -1.25});
  expect_volts(s, 2.0, {3, -2, 4, 5, -5});
  expect_volts(s, 2.5, {3, -2, 4, 5, -5});
  expect_volts(s, 5.0, {1, 0, 2, 0, 0});        // midpoint of 3..7
  expect_volts(s, 7.0, {-1, 2, 0, -5, 5});
  expect_volts(s, 8.0, {-1, 2, 0, -5, 5});
}

TEST(ControlScript, FirstRampStartsFromZeroAtTimeZero) {
  const ControlScript s = parse_control_script("ramp 4  4 0 0 0 -2\n", "t.ctl");
  expect_volts(s, 0.0, {0, 0, 0, 0, 0});
  expect_volts(s, 1.0, {1, 0, 0, 0, -0.5});
  expect_volts(s, 4.0, {4, 0, 0, 0, -2});
}

TEST(ControlScript, RampAfterStepThenStep) {
  const ControlScript s = parse_control_script(
      "step 1  0 4 0 0 0\n"
      "ramp 3  0 0 0 0 0\n"
      "step 5  0 -1 0 0 0\n",
      "t.ctl");
  expect_volts(s, 0.5, {0, 0, 0, 0, 0});
  expect_volts(s, 2.0, {0, 2, 0, 0, 0});
  expect_volts(s, 4.0, {0, 0, 0, 0, 0});
  expect_volts(s, 5.0, {0, -1, 0, 0, 0});
}

TEST(ControlScript, CommentsBlankLinesCrLfAndSigns) {
  const ControlScript s = parse_control_script(
      "# a whole-line comment\r\n"
      "\r\n"
      "   \t  \n"
      "step 0   +1.5 -2.5e0 .5 0 +5  # trailing comment\r\n"
      "#step 1 5 5 5 5 5\n",
      "t.ctl");
  ASSERT_EQ(s.breakpoints().size(), 1u);
  EXPECT_EQ(s.breakpoints()[0].line, 4);
  expect_volts(s, 10.0, {1.5, -2.5, 0.5, 0, 5});
}

TEST(ControlScript, InitialPoseInRadiansAndDuration) {
  const ControlScript s = parse_control_script(
      "initial swing_deg=90 boom_deg=30 telescope_m=12 clam_depth_m=8 clam_theta2_deg=-45\n"
      "duration 12.5\n"
      "step 0 0 0 0 0 0\n",
      "t.ctl");
  ASSERT_TRUE(s.initial().has_value());
  EXPECT_DOUBLE_EQ(s.initial()->swing_rad, kPi / 2);
  EXPECT_DOUBLE_EQ(s.initial()->boom_rad, kPi / 6);
  EXPECT_DOUBLE_EQ(s.initial()->telescope_m, 12.0);
  EXPECT_DOUBLE_EQ(s.initial()->clam_depth_m, 8.0);
  EXPECT_DOUBLE_EQ(s.initial()->clam_theta2_rad, -kPi / 4);
  ASSERT_TRUE(s.duration_s().has_value());
  EXPECT_DOUBLE_EQ(*s.duration_s(), 12.5);
}

TEST(ControlScript, InitialKeysInAnyOrder) {
  const ControlScript s = parse_control_script(
      "initial clam_theta2_deg=0 clam_depth_m=3 telescope_m=10 boom_deg=0 swing_deg=180\n",
      "t.ctl");
  ASSERT_TRUE(s.initial().has_value());
  EXPECT_DOUBLE_EQ(s.initial()->swing_rad, kPi);
  EXPECT_DOUBLE_EQ(s.initial()->clam_depth_m, 3.0);
}

core::MachineParams small_machine() {
  core::MachineParams m;
  m.crane.boom_min_rad = 0.0;
  m.crane.boom_max_rad = 50.0 * kPi / 180.0;
  m.crane.telescope_min_m = 9.7;
  m.crane.telescope_max_m = 24.4;
  for (auto& w : m.hydraulics.winches) {
    w.min_length_m = 1.0;
    w.max_length_m = 30.0;
  }
  m.clam.theta2_open_rad = 60.0 * kPi / 180.0;   // open..closed may run either way
  m.clam.theta2_closed_rad = 5.0 * kPi / 180.0;
  return m;
}

TEST(ControlScript, InitialPoseCheckedAgainstTheMachine) {
  const std::string tail = " telescope_m=12 clam_depth_m=8 clam_theta2_deg=40\n";
  const core::MachineParams m = small_machine();
  // the range ends themselves are inside, despite the degree conversion
  EXPECT_NO_THROW(parse_control_script("initial swing_deg=0 boom_deg=50" + tail, "t.ctl")
                      .check_initial(m));
  EXPECT_NO_THROW(parse_control_script("step 0 0 0 0 0 0\n", "t.ctl").check_initial(m));
  const ControlScript bad =
      parse_control_script("# pose\ninitial swing_deg=0 boom_deg=60" + tail, "t.ctl");
  EXPECT_EQ(bad.initial_line(), 2);
  try {
    bad.check_initial(m);
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), "t.ctl:2: initial boom_deg=60 is outside the machine's range 0..50");
  }
  EXPECT_THROW(parse_control_script("initial swing_deg=0 boom_deg=10 telescope_m=30 "
                                    "clam_depth_m=8 clam_theta2_deg=40\n", "t.ctl")
                   .check_initial(m),
               ModelError);
  EXPECT_THROW(parse_control_script("initial swing_deg=0 boom_deg=10 telescope_m=10 "
                                    "clam_depth_m=8 clam_theta2_deg=70\n", "t.ctl")
                   .check_initial(m),
               ModelError);
}

TEST(ControlScript, InitialPoseMustFitTheClosingRopeOnItsDrum) {
  // the shipped machine: 40 m of rope on each drum, four closing parts in the grab. At 35 m
  // and theta2 40 deg the closing rope needs 35 + 4 s(40 deg) = 43.1 m
  const core::MachineParams m =
      load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
  const std::string pose = "initial swing_deg=0 boom_deg=30 telescope_m=20 clam_theta2_deg=40 ";
  EXPECT_NO_THROW(parse_control_script(pose + "clam_depth_m=31.8\n", "t.ctl").check_initial(m));
  try {
    parse_control_script(pose + "clam_depth_m=35\n", "t.ctl").check_initial(m);
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("t.ctl:1: initial clam_depth_m=35 with clam_theta2_deg=40 needs 43.1"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("hydraulics.winches.aux_hoist.max_length_m 40 m"), std::string::npos) << what;
    EXPECT_NE(what.find("clam_depth_m must be at most 31.8"), std::string::npos) << what;
  }
}

TEST(ControlScriptErrors, TimeMustIncrease) {
  expect_error("step 2 0 0 0 0 0\n# c\nstep 1 0 0 0 0 0\n", 3, "not after the previous");
  expect_error("step 2 0 0 0 0 0\nramp 2 0 0 0 0 0\n", 2, "not after the previous");
  expect_error("step -1 0 0 0 0 0\n", 1, "negative");
}

TEST(ControlScriptErrors, WrongCountOfValues) {
  expect_error("step 0 0 0 0 0 0\nstep 1 0 0 0 0\n", 2, "got 5 values");
  expect_error("\nramp 1 0 0 0 0 0 0\n", 2, "got 7 values");
  expect_error("step\n", 1, "got 0 values");
}

TEST(ControlScriptErrors, NonNumeric) {
  expect_error("step 0 0 0 x 0 0\n", 1, "voltage 2 (telescope): 'x' is not a number");
  expect_error("step abc 0 0 0 0 0\n", 1, "time: 'abc' is not a number");
  expect_error("step 0 0 0 0 3V 0\n", 1, "'3V' is not a number");
  expect_error("step 0 0 0 0 nan 0\n", 1, "'nan' is not a number");
  expect_error("step 0 0 0 0 +-1 0\n", 1, "'+-1' is not a number");
  expect_error("duration soon\n", 1, "duration: 'soon' is not a number");
}

TEST(ControlScriptErrors, VoltsOutOfRange) {
  expect_error("step 0 0 0 0 0 0\n\nstep 1 0 0 0 0 5.01\n", 3, "outside -5..+5 V");
  expect_error("ramp 1 -6 0 0 0 0\n", 1, "voltage 0 (swing) = -6 V is outside");
}

TEST(ControlScriptErrors, UnknownKeyword) {
  expect_error("step 0 0 0 0 0 0\nhold 2\n", 2, "unknown keyword 'hold'");
  expect_error("Step 0 0 0 0 0 0\n", 1, "unknown keyword 'Step'");
}

TEST(ControlScriptErrors, BadHeaders) {
  const std::string ok = "initial swing_deg=0 boom_deg=30 telescope_m=12 clam_depth_m=8 "
                         "clam_theta2_deg=40\n";
  expect_error("initial swing_deg=0 boom_deg=30 telescope_m=12 clam_depth_m=8\n", 1,
               "'clam_theta2_deg' is missing");
  expect_error("initial swing=0\n", 1, "unknown key 'swing'");
  expect_error("initial swing_deg 0\n", 1, "'swing_deg' is not key=value");
  expect_error("initial swing_deg=0 swing_deg=1\n", 1, "'swing_deg' given twice");
  expect_error("initial swing_deg=a\n", 1, "'a' is not a number");
  expect_error(ok + ok, 2, "'initial' given twice (first on line 1)");
  expect_error("duration 3\nduration 4\n", 2, "'duration' given twice");
  expect_error("duration 0\n", 1, "must be positive");
  expect_error("duration 1 2\n", 1, "exactly one value");
}

TEST(ControlScriptFile, MissingFileNamesThePath) {
  try {
    load_control_script("/nonexistent/dir/x.ctl");
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.ctl"), std::string::npos);
  }
}

// The shipped scenarios must parse; their duration line is what the simulator defaults to.
TEST(ControlScriptFile, ShippedScenariosParse) {
  for (const char* name : {"exp_5_1_1_clam_steps.ctl", "exp_5_1_2_crane_steps.ctl", "demo.ctl"}) {
    const std::string path = std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/" + name;
    const ControlScript s = load_control_script(path);
    EXPECT_FALSE(s.breakpoints().empty()) << name;
    EXPECT_TRUE(s.duration_s().has_value()) << name;
    EXPECT_TRUE(s.initial().has_value()) << name;
    EXPECT_EQ(s.origin(), path);
  }
}

TEST(ControlScriptFile, CraneStepExperimentShape) {
  const ControlScript s = load_control_script(std::string(CLAMSIM_SOURCE_DIR) +
                                              "/config/scenarios/exp_5_1_2_crane_steps.ctl");
  expect_volts(s, 0.5, {0, 0, 0, 0, 0});
  expect_volts(s, 1.0, {3, 3, 3, 0, 0});
  expect_volts(s, 5.9, {3, 3, 3, 0, 0});
  expect_volts(s, 6.0, {0, 0, 0, 0, 0});
  EXPECT_DOUBLE_EQ(*s.duration_s(), 12.0);
}

}  // namespace
}  // namespace clamsim::model
