#include "web/frame_json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <cmath>
#include <fstream>

#include "model/machine_file.h"

namespace clamsim::web {
namespace {

const std::string kSource = CLAMSIM_SOURCE_DIR;

TEST(BoxFromInertia, RecoversTheBoxThatMadeTheInertias) {
  // uniform box 4 x 1.4 x 2.4 m of 1621 kg: I_x = m (y^2 + z^2) / 12, ...
  const double m = 1621, x = 4.0, y = 1.4, z = 2.4;
  const std::array<double, 3> I = {m * (y * y + z * z) / 12, m * (x * x + z * z) / 12,
                                   m * (x * x + y * y) / 12};
  const auto box = box_from_inertia(m, I);
  EXPECT_NEAR(box[0], x, 1e-9);
  EXPECT_NEAR(box[1], y, 1e-9);
  EXPECT_NEAR(box[2], z, 1e-9);
}

TEST(BoxFromInertia, ImpossibleInertiasGiveZeroNotNaN) {
  const auto box = box_from_inertia(10, {100, 1, 1});  // I_b + I_c < I_a
  EXPECT_EQ(box[0], 0.0);
  EXPECT_GT(box[1], 0.0);
  EXPECT_EQ(box_from_inertia(0, {1, 1, 1})[0], 0.0);
}

TEST(FrameJson, HelloCarriesTheShippedMachine) {
  const auto p = model::load_machine_file(kSource + "/models/t250.json");
  HelloInfo info;
  info.session = 17;
  info.server = "clamsim test";
  info.model = "t250";
  nlohmann::ordered_json scene = {{"water_level_m", -2.5}};
  const auto j = nlohmann::json::parse(hello_json(info, p, scene));
  EXPECT_EQ(j["type"], "hello");
  EXPECT_EQ(j["protocol"], kProtocolVersion);
  EXPECT_EQ(j["session"], 17);
  const auto& crane = j["machine"]["crane"];
  EXPECT_DOUBLE_EQ(crane["boom_max_deg"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(crane["telescope_min_m"].get<double>(), 9.7);
  // models/t250.json: the swing cab without its counterweight, the box of its inertias
  // (x^2 = 6 (I_y + I_z - I_x) / m: Table 2.6's 4.0 x 1.4 x 2.4 m), and the counterweight
  // where the dynamics put it
  const auto cab = crane["links"]["swing_cab"]["box_m"];
  EXPECT_NEAR(cab[0].get<double>(), 4.0, 0.001);
  EXPECT_NEAR(cab[1].get<double>(), 1.4, 0.001);
  EXPECT_NEAR(cab[2].get<double>(), 2.4, 0.001);
  EXPECT_EQ(crane["links"]["swing_cab"]["mass_kg"], 1621);
  EXPECT_EQ(crane["counterweight"]["mass_kg"], 4000);
  EXPECT_EQ(crane["counterweight"]["com_m"], nlohmann::json::parse("[-1.7, -1.2, 0.0]"));
  EXPECT_EQ(crane["counterweight"]["box_m"], nlohmann::json::parse("[0.8, 0.7, 2.4]"));
  EXPECT_DOUBLE_EQ(j["machine"]["carrier"]["outrigger_half_span_m"].get<double>(), 3.15);
  EXPECT_DOUBLE_EQ(j["machine"]["load_moment"]["warning_pct"].get<double>(), 90.0);
  EXPECT_DOUBLE_EQ(j["machine"]["load_moment"]["cutout_pct"].get<double>(), 100.0);
  EXPECT_EQ(crane["links"]["telescopic"]["com_m"].size(), 3u);
  const auto& clam = j["machine"]["clam"];
  EXPECT_DOUBLE_EQ(clam["mass_kg"].get<double>(), 2 * 25 + 2 * 350 + 25);
  EXPECT_DOUBLE_EQ(clam["theta2_open_deg"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["machine"]["cables"][0]["drum_radius_m"].get<double>(), 0.168);
  // the server's rules the browser shows, never its own copies: the slack event's loop, the
  // full stick, Table 4.1's names
  EXPECT_DOUBLE_EQ(j["machine"]["cables"][1]["slack_margin_m"].get<double>(),
                   p.hydraulics.winches[1].slack_margin_m);
  EXPECT_DOUBLE_EQ(j["limits"]["full_stick_V"].get<double>(), core::kFullStick_V);
  ASSERT_EQ(j["display_fields"].size(), core::kDisplayFields.size());
  EXPECT_EQ(j["display_fields"][3], "clam_to_tip_m");
  EXPECT_DOUBLE_EQ(clam["bucket_width_m"].get<double>(), 1.2);
  EXPECT_EQ(clam["closing_parts"].get<int>(), 4);
  // each rope reeved drum -> foot sheave -> tip sheave, as points in the parts that carry
  // them (core::rope_anchors; part_poses_test checks the points against the reeved path)
  for (const auto& cable : j["machine"]["cables"]) {
    const auto& reeving = cable["reeving"];
    ASSERT_EQ(reeving.size(), 3u);
    EXPECT_EQ(reeving[0]["part"], "superstructure");
    EXPECT_EQ(reeving[1]["part"], "boom_base");
    EXPECT_EQ(reeving[2]["part"], "fly");
    EXPECT_EQ(reeving[2]["at"], nlohmann::json::array({0, 0, 0}));
  }
  // every channel's relief setting from the model file (28 MPa), ControlSignal order
  EXPECT_EQ(j["machine"]["hydraulics"]["relief_MPa"], nlohmann::json::array({28, 28, 28, 28, 28}));
  EXPECT_EQ(j["scene"]["water_level_m"], -2.5);
}

TEST(FrameJson, DisplayHasTable41InOrderAndTheExtendedFields) {
  session::Frame f;
  f.seq = 42;
  f.outputs.time_s = 2.15;
  f.outputs.display = {12.5, 30.0, 12.0, 8.0, 50.0, 8.0, 10.03, 0.0};
  f.outputs.pressures_Pa[2] = 3.66e6;
  f.outputs.tensions_N = {2342.04, 5261.0};
  f.outputs.tip = {10.4, 0.0, 8.4};
  f.outputs.working = core::WorkingState::Distributed;
  f.outputs.jaw_gap_m = std::nan("");
  const std::string text = display_json(f);
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["type"], "display");
  EXPECT_EQ(j["seq"], 42);
  EXPECT_DOUBLE_EQ(j["t"].get<double>(), 2.15);
  ASSERT_EQ(j["display"].size(), 8u);
  EXPECT_DOUBLE_EQ(j["display"][6].get<double>(), 10.03);
  EXPECT_DOUBLE_EQ(j["pressure_MPa"][2].get<double>(), 3.66);
  EXPECT_DOUBLE_EQ(j["tension_N"][0].get<double>(), 2342.0);
  EXPECT_EQ(j["working"], "Distributed");
  EXPECT_EQ(j["geo"], "In-range");
  EXPECT_EQ(j["load"], "Without-load");
  EXPECT_TRUE(j["jaw_gap_m"].is_null()) << "non-finite values are null, never invalid JSON";
  EXPECT_EQ(j["tip_m"].size(), 3u);
  for (const char* key : {"joint_velocity", "theta1_deg", "theta2_deg", "squeeze_N",
                          "point_a_m", "point_b_m", "point_c_m", "cable_rate_m_s", "loads",
                          "clam_swing_deg", "clam_orientation", "clam_contact_force_N",
                          "clam_submerged", "held_load", "contacts", "events", "score",
                          "control_seq", "parts", "flags"})
    EXPECT_TRUE(j.contains(key)) << key;
  // an empty world, no task
  EXPECT_EQ(j["loads"], nlohmann::json::array());
  EXPECT_TRUE(j["held_load"].is_null());
  EXPECT_EQ(j["contacts"], nlohmann::json::array());
  EXPECT_EQ(j["clam_orientation"], nlohmann::json({1, 0, 0, 0}));
  EXPECT_EQ(j["score"], nlohmann::json({{"enabled", false}}));
  EXPECT_EQ(j["events"]["rack_gate_hits"], 0);
  EXPECT_LT(text.size(), 1600u) << "rounded values keep a frame short";
}

// A busy world: every load and contact slot filled, a task running.
session::Frame busy_frame() {
  session::Frame f;
  f.seq = 7;
  core::Outputs& o = f.outputs;
  o.time_s = 12.3456789;
  o.display = {12.5, 30.0, 12.0, 8.0, 50.0, 8.0, 10.03, 2350.0};
  o.clam_swing_deg = {2.123456, -0.5};
  o.clam_orientation = {0.99810338, 0.0435778713, 0.0, 0.0435778713};
  o.clam_contact_force_N = 12345.678;
  o.clam_submerged = 0.337;
  o.load_count = core::kMaxLoads;
  for (int i = 0; i < core::kMaxLoads; ++i) {
    auto& l = o.loads[static_cast<std::size_t>(i)];
    l.position_m = {11.23456789 + i, -1.987654321, -20.123456789};
    l.orientation = {0.70710678, 0.0, 0.0, -0.70710678};
    l.velocity_m_per_s = {0.1, 0.2, 0.3};
    l.in_contact = i % 2 == 0;
    l.submerged = 1.0;
  }
  o.loads[3].held = true;
  o.held_load = 3;
  o.contact_count = core::kMaxContactMarkers;
  for (int i = 0; i < core::kMaxContactMarkers; ++i) {
    auto& c = o.contacts[static_cast<std::size_t>(i)];
    c.position_m = {11.0, 0.5 * i, -10.0};
    c.force_N = 45678.9;
    c.pair = core::ContactPair::LoadWorld;
    c.solid = core::SolidKind::Floor;
    c.load = i;
  }
  o.contacts[0].pair = core::ContactPair::ClamWorld;
  o.contacts[0].solid = core::SolidKind::Rack;
  o.contacts[0].load = -1;
  o.contacts[1].pair = core::ContactPair::ClamLoad;
  o.contacts[1].load = 3;
  o.events.rack_gate_hits = 2;
  o.events.slack_cables = 1;
  o.events.grips = 4;
  // every part somewhere with a full-length quaternion, as a moving machine's are
  for (int i = 0; i < core::kParts; ++i)
    o.parts[static_cast<std::size_t>(i)] = {{-12.345678 + i, 7.654321, -3.210987},
                                            {0.6532815, -0.2705981, 0.2705981, -0.6532815}};
  o.rope_slack = {false, true};
  o.slack_m = {0.0, 0.61234};
  o.overloaded = true;
  f.control_seq = 123456;
  training::TaskScore& s = f.score;
  s.enabled = true;
  s.running = true;
  s.elapsed_s = 95.4321;
  s.optimum_s = 300;
  s.limit_s = 450;
  s.delivered = 1;
  s.required = 3;
  s.time_points = 100;
  s.penalty_points = 15;
  s.total = 85;
  s.rack_gate_hits = 2;
  s.slack_cables = 1;
  return f;
}

TEST(FrameJson, DisplayCarriesTheWorldTheContactsTheEventsAndTheScore) {
  const session::Frame f = busy_frame();
  nlohmann::ordered_json ids = nlohmann::ordered_json::array();
  for (int i = 0; i < 3; ++i) ids.push_back("log-" + std::to_string(i + 1));
  const std::string text = display_json(f, ids);
  const auto j = nlohmann::json::parse(text);

  EXPECT_EQ(j["clam_swing_deg"], nlohmann::json({2.123, -0.5}));
  EXPECT_EQ(j["clam_orientation"], nlohmann::json({0.9981, 0.0436, 0, 0.0436}));
  EXPECT_DOUBLE_EQ(j["clam_contact_force_N"].get<double>(), 12345.7);
  EXPECT_DOUBLE_EQ(j["clam_submerged"].get<double>(), 0.34);

  ASSERT_EQ(j["loads"].size(), static_cast<std::size_t>(core::kMaxLoads));
  EXPECT_EQ(j["loads"][0]["id"], "log-1") << "ids from the scene, in its order";
  EXPECT_EQ(j["loads"][2]["id"], "log-3");
  EXPECT_EQ(j["loads"][5]["id"], 5) << "a load the scene does not name: its index";
  const auto& l0 = j["loads"][0];
  EXPECT_EQ(l0["position_m"], nlohmann::json({11.235, -1.988, -20.123})) << "1 mm";
  EXPECT_EQ(l0["orientation"], nlohmann::json({0.7071, 0, 0, -0.7071}));
  EXPECT_EQ(l0["held"], false);
  EXPECT_EQ(l0["in_contact"], true);
  EXPECT_EQ(l0["submerged"], 1);
  EXPECT_FALSE(l0.contains("velocity_m_per_s")) << "the browser does not draw velocities";
  EXPECT_EQ(j["loads"][3]["held"], true);
  EXPECT_EQ(j["held_load"], 3);

  ASSERT_EQ(j["contacts"].size(), static_cast<std::size_t>(core::kMaxContactMarkers));
  const auto& c0 = j["contacts"][0];
  EXPECT_EQ(c0["position_m"], nlohmann::json({11, 0, -10}));
  EXPECT_EQ(c0["force_N"], 45679);
  EXPECT_EQ(c0["pair"], core::to_string(core::ContactPair::ClamWorld));
  EXPECT_EQ(c0["solid"], core::to_string(core::SolidKind::Rack));
  EXPECT_TRUE(c0["load"].is_null());
  EXPECT_TRUE(j["contacts"][1]["solid"].is_null()) << "clam on a load: no solid";
  EXPECT_EQ(j["contacts"][1]["load"], 3);
  EXPECT_EQ(j["contacts"][2]["solid"], core::to_string(core::SolidKind::Floor));

  ASSERT_EQ(j["parts"].size(), static_cast<std::size_t>(core::kParts));
  EXPECT_EQ(j["parts"][1], nlohmann::json({-11.3457, 7.6543, -3.211, 0.65328, -0.2706,
                                            0.2706, -0.65328}))
      << "x, y, z to 0.1 mm, then the quaternion w, x, y, z to 1e-5";
  EXPECT_EQ(j["flags"], nlohmann::json({{"slack", {false, true}}, {"slack_m", {0.0, 0.612}},
                                        {"overload", true}, {"two_block", false}}))
      << "each rope's loop to the millimetre";
  EXPECT_EQ(j["control_seq"], 123456);

  const auto& ev = j["events"];
  EXPECT_EQ(ev["rack_gate_hits"], 2);
  EXPECT_EQ(ev["slack_cables"], 1);
  EXPECT_EQ(ev["grips"], 4);
  for (const char* k : {"structure_hits", "load_impacts", "overloads", "releases"})
    EXPECT_EQ(ev[k], 0) << k;

  const auto& s = j["score"];
  EXPECT_EQ(s["enabled"], true);
  EXPECT_EQ(s["running"], true);
  EXPECT_EQ(s["finished"], false);
  EXPECT_EQ(s["completed"], false);
  EXPECT_DOUBLE_EQ(s["elapsed_s"].get<double>(), 95.43);
  EXPECT_EQ(s["optimum_s"], 300);
  EXPECT_EQ(s["limit_s"], 450);
  EXPECT_EQ(s["delivered"], 1);
  EXPECT_EQ(s["required"], 3);
  EXPECT_EQ(s["time_points"], 100);
  EXPECT_EQ(s["penalty_points"], 15);
  EXPECT_EQ(s["total"], 85);
  EXPECT_EQ(s["rack_gate_hits"], 2);
  EXPECT_EQ(s["structure_hits"], 0);
  EXPECT_EQ(s["slack_cables"], 1);
  EXPECT_EQ(s["overloads"], 0);
  EXPECT_EQ(s["dropped_loads"], 0);

  // 16 loads, 8 contacts and 11 parts at 20 Hz to hundreds of browsers: compact
  EXPECT_LT(text.size(), 5200u) << text.size();
  EXPECT_EQ(nlohmann::ordered_json::parse(text).dump(), text) << "no whitespace";
}

// The events and the score are their lists (core/world.h, training/task_score.h), key by key
// in the lists' order: a field added to a list reaches the browser without another edit.
TEST(FrameJson, EventsAndScoreAreTheirFieldLists) {
  session::Frame f = busy_frame();
  f.outputs.events.loads_restored = 5;
  const auto j = nlohmann::ordered_json::parse(display_json(f, nlohmann::ordered_json::array()));
  std::vector<std::string> keys;
  for (const auto& e : core::kWorldEventFields) keys.push_back(e.name);
  std::vector<std::string> sent;
  for (const auto& [k, v] : j["events"].items()) sent.push_back(k);
  EXPECT_EQ(sent, keys);
  EXPECT_EQ(j["events"]["loads_restored"], 5);

  keys.clear();
  core::for_each_field(training::kTaskScoreFields, [&](const auto& x) { keys.push_back(x.name); });
  sent.clear();
  for (const auto& [k, v] : j["score"].items()) sent.push_back(k);
  EXPECT_EQ(sent, keys);
  EXPECT_EQ(j["score"]["interrupted"], false);
}

TEST(FrameJson, CountsOutOfRangeAreClampedNeverRead) {
  session::Frame f = busy_frame();
  f.outputs.load_count = 1000;
  f.outputs.contact_count = -3;
  f.outputs.held_load = 99;
  const auto j = nlohmann::json::parse(display_json(f));
  EXPECT_EQ(j["loads"].size(), static_cast<std::size_t>(core::kMaxLoads));
  EXPECT_EQ(j["contacts"].size(), 0u);
  EXPECT_TRUE(j["held_load"].is_null());
}

TEST(FrameJson, SceneLoadIdsFollowTheScenesOrder) {
  const auto scene = nlohmann::ordered_json::parse(
      R"({"water_level_m": -2.5, "loads": [{"id": "log-a"}, {"name": "no id"}, {"id": 7}]})");
  EXPECT_EQ(scene_load_ids(scene), nlohmann::ordered_json::parse(R"(["log-a", 1, 7])"));
  EXPECT_EQ(scene_load_ids(nlohmann::ordered_json::object()), nlohmann::ordered_json::array());
  EXPECT_EQ(scene_load_ids(nlohmann::ordered_json::parse(R"({"loads": 3})")),
            nlohmann::ordered_json::array());
}

TEST(FrameJson, ReportOnlyWhenTheFrameCarriesOne) {
  session::Frame f = busy_frame();
  EXPECT_EQ(report_json(f), "");
  f.report = std::make_shared<const std::string>(
      R"({"outcome": "completed", "total": 85.5, "penalties": [{"kind": "rack_gate_hit", "count": 2}]})");
  const auto j = nlohmann::json::parse(report_json(f));
  EXPECT_EQ(j["type"], "report");
  EXPECT_EQ(j["v"], kReportVersion);
  EXPECT_EQ(j["seq"], 7);
  EXPECT_DOUBLE_EQ(j["t"].get<double>(), 12.3457);
  EXPECT_EQ(j["report"]["outcome"], "completed") << "embedded as JSON, not as a string";
  EXPECT_EQ(j["report"]["penalties"][0]["count"], 2);
  f.report = std::make_shared<const std::string>("not json {");
  EXPECT_EQ(nlohmann::json::parse(report_json(f))["report"], "not json {");
}

TEST(FrameJson, LessonProgressOnlyInALessonWorld) {
  session::Frame f = busy_frame();
  EXPECT_FALSE(nlohmann::json::parse(display_json(f)).contains("lesson"));
  f.lesson.enabled = true;
  f.lesson.step = 2;
  f.lesson.steps = 6;
  f.lesson.progress = 0.4567;
  f.lesson.elapsed_s = 31.25;
  f.lesson.setbacks = 1;
  const auto j = nlohmann::json::parse(display_json(f));
  ASSERT_TRUE(j.contains("lesson"));
  EXPECT_EQ(j["lesson"]["step"], 2);
  EXPECT_EQ(j["lesson"]["steps"], 6);
  EXPECT_EQ(j["lesson"]["finished"], false);
  EXPECT_DOUBLE_EQ(j["lesson"]["progress"].get<double>(), 0.46);
  EXPECT_DOUBLE_EQ(j["lesson"]["elapsed_s"].get<double>(), 31.25);
  EXPECT_EQ(j["lesson"]["setbacks"], 1);
}

TEST(FrameJson, Restarting) {
  auto j = nlohmann::json::parse(restarting_json(nullptr));
  EXPECT_EQ(j["type"], "restarting");
  EXPECT_TRUE(j["id"].is_null());
  EXPECT_EQ(nlohmann::json::parse(restarting_json("r1"))["id"], "r1");
}

TEST(FrameJson, ErrorAndPong) {
  auto e = nlohmann::json::parse(error_json("bad_json", "not JSON: \xff"));
  EXPECT_EQ(e["type"], "error");
  EXPECT_EQ(e["code"], "bad_json");
  auto p = nlohmann::json::parse(pong_json(7, 1234.5, 3.25));
  EXPECT_EQ(p["type"], "pong");
  EXPECT_EQ(p["id"], 7);
  EXPECT_EQ(p["t"], 1234.5);
  EXPECT_EQ(p["sim_t"], 3.25);
}

}  // namespace
}  // namespace clamsim::web

namespace clamsim::web {
namespace {

// The browser's unit tests read hand-written messages (web/test/fixtures/); they must have
// the shape the server sends, or those tests check a protocol nobody speaks. Every field the
// server writes is in the fixture, with the same kind of value, and the fixture invents none.
void same_shape(const nlohmann::json& server, const nlohmann::json& fixture, const std::string& path) {
  ASSERT_EQ(server.is_object(), fixture.is_object()) << path;
  if (!server.is_object()) return;
  for (const auto& [key, value] : server.items()) {
    ASSERT_TRUE(fixture.contains(key)) << "web/test/fixtures lacks " << path << "." << key;
    const auto& mine = fixture[key];
    const bool both_numbers = value.is_number() && mine.is_number();
    if (!value.is_null() && !mine.is_null() && !both_numbers) {
      EXPECT_EQ(value.type_name(), std::string(mine.type_name())) << path << "." << key;
    }
  }
  for (const auto& [key, value] : fixture.items()) {
    EXPECT_TRUE(server.contains(key))
        << "web/test/fixtures has " << path << "." << key << ", which the server never sends";
  }
}

nlohmann::json fixture(const std::string& name) {
  std::ifstream in(kSource + "/web/test/fixtures/" + name + ".json");
  return nlohmann::json::parse(in);
}

TEST(FrameJson, TheBrowsersFixturesHaveTheShapeTheServerSends) {
  const auto p = model::load_machine_file(kSource + "/models/t250.json");
  const auto hello = nlohmann::json::parse(hello_json(HelloInfo{}, p, nlohmann::ordered_json::object()));
  const auto mine = fixture("hello");
  same_shape(hello, mine, "hello");
  same_shape(hello["limits"], mine["limits"], "limits");
  same_shape(hello["machine"], mine["machine"], "machine");
  for (const char* part : {"crane", "clam", "carrier", "load_moment", "hydraulics"})
    same_shape(hello["machine"][part], mine["machine"][part], std::string("machine.") + part);
  same_shape(hello["machine"]["cables"][0], mine["machine"]["cables"][0], "machine.cables[0]");
  EXPECT_EQ(hello["display_fields"], mine["display_fields"]);

  const session::Frame f = busy_frame();
  const auto display = nlohmann::json::parse(display_json(f, nlohmann::ordered_json::array()));
  const auto frame = fixture("display");
  for (const char* key : {"flags", "events"}) same_shape(display[key], frame[key], key);
  // the score's penalty counts are taken as they come (one per kind of the hello's
  // task.penalties): the fixture needs the fixed fields and a count, not every kind
  nlohmann::json score = display["score"];
  for (const char* count : model::kPenaltyCountNames)
    if (!frame["score"].contains(count)) score.erase(count);
  same_shape(score, frame["score"], "score");
}

}  // namespace
}  // namespace clamsim::web
