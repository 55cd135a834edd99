// The fault catalog: every entry injects with its defaults and clears again, bad names and
// parameters are refused with a message naming them (parameterised over the table itself),
// the physics gets what the parameters say, a sticking spool ends on the session's time, and
// the joystick axis faults act on the trainee's volts.
#include "session/fault_catalog.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "core/machine.h"
#include "model/machine_file.h"

namespace clamsim::session {
namespace {

using nlohmann::json;

bool no_physics_fault(const core::Faults& f) {
  for (const auto& h : f.hoses)
    if (h.active) return false;
  for (const auto& s : f.spools)
    if (s.active) return false;
  for (const auto& b : f.brakes)
    if (b.active) return false;
  return f.water_velocity_m_per_s[0] == 0.0 && f.water_velocity_m_per_s[1] == 0.0 &&
         f.turbidity == 0.0 && !f.anti_two_block_bypass && !f.lmi_bypass;
}

bool no_input_fault(const InputFaults& f) {
  for (std::size_t i = 0; i < 5; ++i)
    if (f.drift[i].active || f.dead[i].active) return false;
  return true;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

core::Control volts(double v0, double v1, double v2, double v3, double v4) {
  core::Control u;
  u.volts = {v0, v1, v2, v3, v4};
  return u;
}

// One test per catalog entry, named after it: the table drives the tests.
class EveryFault : public ::testing::TestWithParam<json> {};

std::vector<json> catalog_entries() {
  const json c = fault_catalog_json();
  return {c.begin(), c.end()};
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryFault, ::testing::ValuesIn(catalog_entries()),
                         [](const ::testing::TestParamInfo<json>& entry) {
                           return entry.param.at("name").get<std::string>();
                         });

TEST_P(EveryFault, InjectsWithItsDefaultsAndClears) {
  const json& spec = GetParam();
  const std::string name = spec.at("name");
  ActiveFaults f;
  ASSERT_EQ(inject_fault(f, name, json::object(), {2.0, volts(0, 1, 0, 0, 0)}), "");
  EXPECT_FALSE(no_physics_fault(f.physics) && no_input_fault(f.input)) << "it did something";
  const json active = active_faults_json(f);
  ASSERT_EQ(active.size(), 1u);
  EXPECT_EQ(active[0].at("name"), name);
  EXPECT_EQ(active[0].at("since_s"), 2.0);
  for (const json& p : spec.at("params"))   // every parameter shown, defaults filled in
    EXPECT_EQ(active[0].at("params").at(p.at("name").get<std::string>()), p.at("default"));

  json target = json::object();
  if (!spec.at("target").get<std::string>().empty()) {
    const std::string t = spec.at("target");
    target[t] = active[0].at("params").at(t);
  }
  EXPECT_EQ(clear_fault(f, name, target), "");
  EXPECT_TRUE(no_physics_fault(f.physics));
  EXPECT_TRUE(no_input_fault(f.input));
  EXPECT_TRUE(active_faults_json(f).empty());
}

TEST_P(EveryFault, RefusesAnUnknownParameterNamingTheValidOnes) {
  const json& spec = GetParam();
  ActiveFaults f;
  const std::string e = inject_fault(f, spec.at("name").get<std::string>(), {{"bogus", 1}}, {});
  EXPECT_TRUE(contains(e, "\"bogus\"")) << e;
  for (const json& p : spec.at("params")) EXPECT_TRUE(contains(e, p.at("name"))) << e;
  EXPECT_TRUE(f.list.empty());
}

TEST_P(EveryFault, RefusesWrongTypesAndValuesOutOfRangeNamingTheRange) {
  const json& spec = GetParam();
  const std::string name = spec.at("name");
  for (const json& p : spec.at("params")) {
    const std::string pn = p.at("name");
    ActiveFaults f;
    if (p.contains("choices")) {
      const std::string e = inject_fault(f, name, {{pn, "nowhere"}}, {});
      EXPECT_TRUE(contains(e, pn) && contains(e, "\"nowhere\"")) << e;
      for (const json& c : p.at("choices")) EXPECT_TRUE(contains(e, c)) << e;
      EXPECT_TRUE(contains(inject_fault(f, name, {{pn, 3}}, {}), "must be a string")) << pn;
    } else {
      const double max = p.at("max");
      const std::string e = inject_fault(f, name, {{pn, max + 1.0}}, {});
      EXPECT_TRUE(contains(e, pn) && contains(e, "out of range")) << e;
      std::ostringstream range;
      range << p.at("min").get<double>() << ".." << max;
      EXPECT_TRUE(contains(e, range.str())) << e << " / " << range.str();
      const std::string t = inject_fault(f, name, {{pn, "3"}}, {});
      EXPECT_TRUE(contains(t, pn) && contains(t, "must be a number")) << t;
      EXPECT_TRUE(contains(inject_fault(f, name, {{pn, true}}, {}), "must be a number")) << pn;
    }
    EXPECT_TRUE(f.list.empty()) << pn;
    EXPECT_TRUE(no_physics_fault(f.physics) && no_input_fault(f.input)) << pn;
  }
}

// A recording's faults are read back through this check (session/recording_read.cc): what
// injecting any fault at its range's ends makes passes; what no injection could make fails.
TEST_P(EveryFault, WhatItsRangeMakesPassesTheRecordingsCheck) {
  const json& entry = GetParam();
  for (const char* end : {"min", "max"}) {
    ActiveFaults f;
    json params = json::object();
    for (const json& p : entry.at("params"))
      if (p.contains("min")) params[p.at("name").get<std::string>()] = p.at(end);
    ASSERT_EQ(inject_fault(f, entry.at("name").get<std::string>(), params, {}), "") << params;
    EXPECT_EQ(check_physics_faults(f.physics), "") << entry.at("name") << " at its " << end;
  }
}

TEST(FaultCatalog, FaultsNoInjectionCouldMakeAreNamedWithTheirRange) {
  core::Faults f;
  EXPECT_EQ(check_physics_faults(f), "");
  f.hoses[2] = {true, core::HoseLine::B, 0.05};
  EXPECT_TRUE(contains(check_physics_faults(f), "hoses[2].diameter_m = 0.05 is out of range 0.0005..0.01"))
      << check_physics_faults(f);
  f = {};
  f.spools[0].volts = std::nan("");
  EXPECT_TRUE(contains(check_physics_faults(f), "spools[0].volts is not a finite number"));
  f = {};
  f.brakes[1] = {true, 1.0};
  EXPECT_TRUE(contains(check_physics_faults(f), "brakes[1].creep_m_per_s_per_N"));
  f = {};
  f.water_velocity_m_per_s = {3.0, 0.0};
  EXPECT_TRUE(contains(check_physics_faults(f), "water_velocity_m_per_s"));
  f = {};
  f.turbidity = 1.5;
  EXPECT_TRUE(contains(check_physics_faults(f), "turbidity = 1.5"));
}

TEST(FaultCatalog, RefusesAnUnknownFaultNamingTheFaults) {
  ActiveFaults f;
  const std::string e = inject_fault(f, "flat_tyre", json::object(), {});
  EXPECT_TRUE(contains(e, "\"flat_tyre\"")) << e;
  for (const json& spec : fault_catalog_json()) EXPECT_TRUE(contains(e, spec.at("name"))) << e;
  EXPECT_TRUE(contains(clear_fault(f, "flat_tyre", json::object()), "or all"));
}

TEST(FaultCatalog, ParametersMustBeAnObject) {
  ActiveFaults f;
  EXPECT_TRUE(contains(inject_fault(f, "burst_hose", json::array({1}), {}), "JSON object"));
  EXPECT_EQ(inject_fault(f, "burst_hose", json(), {}), "");   // null: the defaults
  EXPECT_TRUE(contains(clear_fault(f, "burst_hose", json("boom")), "JSON object"));
  EXPECT_TRUE(contains(clear_fault(f, "burst_hose", {{"line", "A"}}), "by its function alone"));
  EXPECT_TRUE(contains(clear_fault(f, "turbidity", {{"level", 1}}), "without parameters"));
  EXPECT_TRUE(contains(clear_fault(f, "all", {{"x", 1}}), "no parameters"));
  EXPECT_EQ(f.list.size(), 1u);   // none of those cleared it
}

TEST(FaultCatalog, ParametersReachThePhysics) {
  ActiveFaults f;
  ASSERT_EQ(inject_fault(f, "burst_hose", {{"function", "telescope"}, {"line", "B"}, {"diameter_mm", 2}}, {}), "");
  EXPECT_TRUE(f.physics.hoses[2].active);
  EXPECT_EQ(f.physics.hoses[2].line, core::HoseLine::B);
  EXPECT_DOUBLE_EQ(f.physics.hoses[2].diameter_m, 0.002);
  ASSERT_EQ(inject_fault(f, "brake_slip", {{"winch", "aux_hoist"}, {"creep_mm_per_s_per_t", 98.0665}}, {}), "");
  EXPECT_DOUBLE_EQ(f.physics.brakes[1].creep_m_per_s_per_N, 1e-5);   // 0.098 m/s per 9806.65 N
  ASSERT_EQ(inject_fault(f, "current", {{"speed_m_per_s", 0.5}}, {}), "");   // toward the rack
  EXPECT_DOUBLE_EQ(f.physics.water_velocity_m_per_s[0], -0.5);
  EXPECT_NEAR(f.physics.water_velocity_m_per_s[1], 0.0, 1e-12);
  ASSERT_EQ(inject_fault(f, "turbidity", {{"level", 1}}, {}), "");
  EXPECT_EQ(f.physics.turbidity, 1.0);
  ASSERT_EQ(inject_fault(f, "sticking_spool", {{"function", "swing"}}, {1.0, volts(-3, 0, 0, 0, 0)}), "");
  EXPECT_TRUE(f.physics.spools[0].active);
  EXPECT_EQ(f.physics.spools[0].volts, -3.0);   // what the stick said when it stuck
  ASSERT_EQ(inject_fault(f, "anti_two_block_override", json(), {}), "");
  EXPECT_TRUE(f.physics.anti_two_block_bypass);   // core::anti_two_block_cutout lets all through
  ASSERT_EQ(inject_fault(f, "lmi_override", json(), {}), "");
  EXPECT_TRUE(f.physics.lmi_bypass);   // core::load_moment_cutout lets all through
  EXPECT_EQ(f.list.size(), 7u);

  EXPECT_EQ(clear_fault(f, "all", json::object()), "");
  EXPECT_TRUE(no_physics_fault(f.physics));
  EXPECT_TRUE(f.list.empty());
}

// The same fault on the same target again replaces it; on another target it is another.
TEST(FaultCatalog, InjectingAgainReplaces) {
  ActiveFaults f;
  ASSERT_EQ(inject_fault(f, "burst_hose", {{"diameter_mm", 2}}, {1.0, {}}), "");
  ASSERT_EQ(inject_fault(f, "burst_hose", {{"diameter_mm", 5}}, {2.0, {}}), "");
  ASSERT_EQ(f.list.size(), 1u);
  EXPECT_EQ(f.list[0].params.at("diameter_mm"), 5);
  EXPECT_DOUBLE_EQ(f.physics.hoses[1].diameter_m, 0.005);
  ASSERT_EQ(inject_fault(f, "burst_hose", {{"function", "swing"}}, {3.0, {}}), "");
  EXPECT_EQ(f.list.size(), 2u);
  // without its target, clear takes it off every function
  EXPECT_EQ(clear_fault(f, "burst_hose", json::object()), "");
  EXPECT_TRUE(f.list.empty());
  EXPECT_FALSE(f.physics.hoses[0].active || f.physics.hoses[1].active);
  EXPECT_EQ(clear_fault(f, "burst_hose", {{"function", "boom"}}), "");   // not active: fine
}

// The spool sticks with the boom rising; the stick goes to neutral; the session expires the
// fault frame by frame on its own clock. The boom rises until then, and stops after.
TEST(FaultCatalog, StickingSpoolEndsOnTheSessionsTime) {
  const core::MachineParams m =
      model::load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
  core::InitialConditions ic;
  ic.boom_rad = 0.5;
  ic.telescope_m = 12.0;
  ic.clam_depth_m = 8.0;
  ic.clam_theta2_rad = 0.7;
  core::State st = core::initial_state(m, ic);
  core::Environment env;
  ActiveFaults f;
  const core::Control rising = volts(0, 2.5, 0, 0, 0), neutral = volts(0, 0, 0, 0, 0);
  const double session_offset = 100.0;   // the session's clock runs on across restarts
  core::advance_to(m, st, rising, env, 1.0);
  ASSERT_EQ(inject_fault(f, "sticking_spool", {{"duration_s", 2}},
                         {session_offset + st.time_s, rising}), "");
  EXPECT_EQ(f.list[0].until_s, session_offset + 3.0);
  double boom_at_expiry = 0.0, rate_at_expiry = 0.0;
  bool expired = false;
  while (st.time_s < 6.0 - 1e-9) {
    expire_faults(f, session_offset + st.time_s);
    if (!expired && f.list.empty()) {
      expired = true;
      boom_at_expiry = st.x(core::ix::q + 1);
      rate_at_expiry = st.x(core::ix::qd + 1);
      EXPECT_NEAR(st.time_s, 3.0, 1e-9);   // at the frame boundary it was due
    }
    env.faults = f.physics;
    core::advance_to(m, st, trainee_input(f.input, neutral, st.time_s), env,
                     st.time_s + m.integrator.frame_s);
    if (!expired) {
      EXPECT_GT(st.x(core::ix::qd + 1), 0.005) << st.time_s;   // still rising
    }
  }
  ASSERT_TRUE(expired);
  EXPECT_FALSE(f.physics.spools[1].active);
  // stopped where it was when the spool freed, plus what it ran on while the spool closed
  // behind the stick (spool_lag_s, a first-order lag: about the rate times the lag), within
  // a hundredth of a degree (it settles)
  const double lag = m.hydraulics.channels[1].valve.spool_lag_s;
  const double ran_on = st.x(core::ix::q + 1) - boom_at_expiry;
  EXPECT_GT(ran_on, 0.0);
  EXPECT_LT(ran_on, 1.5 * rate_at_expiry * lag + 2e-4 + 0.01 * M_PI / 180);
  EXPECT_NEAR(st.x(core::ix::qd + 1), 0.0, 1e-4);
}

TEST(FaultCatalog, DriftingAxisGrowsToItsLimit) {
  ActiveFaults f;
  ASSERT_EQ(inject_fault(f, "axis_drift", {{"axis", "boom"}, {"rate_V_per_s", -0.5}, {"limit_V", 1.0}},
                         {10.0, {}}), "");
  const core::Control stick = volts(0.3, 1.0, 0, 0, 0);
  EXPECT_EQ(trainee_input(f.input, stick, 10.0).volts, stick.volts);   // nothing yet
  EXPECT_DOUBLE_EQ(trainee_input(f.input, stick, 11.0).volts[1], 0.5);
  EXPECT_DOUBLE_EQ(trainee_input(f.input, stick, 30.0).volts[1], 0.0);   // limit: -1 V
  EXPECT_DOUBLE_EQ(trainee_input(f.input, stick, 30.0).volts[0], 0.3);   // other axes as given
  EXPECT_DOUBLE_EQ(trainee_input(f.input, volts(0, -4.5, 0, 0, 0), 30.0).volts[1], -5.0);  // clamped
}

TEST(FaultCatalog, DeadAxisReadsItsValue) {
  ActiveFaults f;
  ASSERT_EQ(inject_fault(f, "axis_dead", {{"axis", "main_hoist"}}, {}), "");
  EXPECT_EQ(trainee_input(f.input, volts(1, 2, 3, 4, 5), 0.0).volts,
            (std::array<double, 5>{1, 2, 3, 0, 5}));
  ASSERT_EQ(inject_fault(f, "axis_dead", {{"axis", "main_hoist"}, {"value_V", -2}}, {}), "");
  EXPECT_EQ(trainee_input(f.input, volts(1, 2, 3, 4, 5), 0.0).volts[3], -2.0);
}

TEST(FaultCatalog, CatalogJsonDescribesEveryParameter) {
  for (const json& spec : fault_catalog_json()) {
    EXPECT_FALSE(spec.at("summary").get<std::string>().empty());
    for (const json& p : spec.at("params")) {
      EXPECT_FALSE(p.at("help").get<std::string>().empty()) << p;
      if (p.contains("choices")) continue;
      EXPECT_LE(p.at("min").get<double>(), p.at("default").get<double>()) << p;
      EXPECT_GE(p.at("max").get<double>(), p.at("default").get<double>()) << p;
      EXPECT_TRUE(p.contains("unit")) << p;
    }
  }
}

}  // namespace
}  // namespace clamsim::session
