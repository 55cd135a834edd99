// Tests for server/model/scenario_file.{h,cc}: the shipped dam scenario, and errors that
// name the path for every kind of mistake.
#include "model/scenario_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "model/json_fields.h"
#include "model/machine_file.h"
#include "model/scenario_site.h"
#include "../support/expect_contains.h"

namespace clamsim::model {
namespace {

using nlohmann::json;

const std::string kRoot = CLAMSIM_SOURCE_DIR;
const std::string kShipped = kRoot + "/config/scenarios/dam_intake.json";
constexpr const char* kOrigin = "dam_intake.json";
constexpr double kDeg = 3.14159265358979323846 / 180.0;

const core::MachineParams& machine() {
  static const core::MachineParams m = load_machine_file(kRoot + "/models/t250.json");
  return m;
}

const json& shipped() {
  static const json doc = read_json_file(kShipped);
  return doc;
}

// The ModelError message for a document, or "" when it loads.
std::string error_of(const json& doc) {
  try {
    parse_scenario_json(doc, kOrigin, machine());
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

const core::SolidBox* solid(const Scenario& s, const std::string& name) {
  for (const auto& b : s.world.solids)
    if (b.name == name) return &b;
  return nullptr;
}

TEST(ScenarioFile, ShippedDamIntakeLoads) {
  const Scenario s = load_scenario_file(kShipped, machine());
  EXPECT_EQ(s.name, "Dam intake with trash rack");

  // the dam: deck, rack, gate, floor, two piers, the reservoir's bed, the truck (5 boxes)
  ASSERT_EQ(s.world.solids.size(), 12u);
  ASSERT_NE(solid(s, "trash_rack"), nullptr);
  EXPECT_EQ(solid(s, "trash_rack")->kind, core::SolidKind::Rack);
  EXPECT_NEAR(solid(s, "trash_rack")->half_size_m.y(), 2.5, 1e-12);
  EXPECT_EQ(solid(s, "gate")->kind, core::SolidKind::Gate);
  EXPECT_EQ(solid(s, "deck")->kind, core::SolidKind::Deck);
  EXPECT_EQ(solid(s, "intake_floor")->kind, core::SolidKind::Floor);
  ASSERT_NE(solid(s, "intake_walls[1]"), nullptr);
  EXPECT_EQ(solid(s, "intake_walls[1]")->kind, core::SolidKind::Wall);
  const core::SolidBox* bed = solid(s, "reservoir_bed");
  ASSERT_NE(bed, nullptr);
  EXPECT_EQ(bed->kind, core::SolidKind::Bed);
  EXPECT_NEAR(bed->center_m.z() + bed->half_size_m.z(), -25.0, 1e-9) << "top = reservoir bottom";
  EXPECT_NEAR(bed->half_size_m.x(), 35.0, 1e-12);

  // the truck: a chassis from the deck to the bed's floor, sides around the load space
  const core::SolidBox* chassis = solid(s, "truck_chassis");
  ASSERT_NE(chassis, nullptr);
  EXPECT_EQ(chassis->kind, core::SolidKind::Truck);
  EXPECT_NEAR(chassis->center_m.z() - chassis->half_size_m.z(), 0.0, 1e-9);
  EXPECT_NEAR(chassis->center_m.z() + chassis->half_size_m.z(), 1.2, 1e-9);
  const core::SolidBox* left = solid(s, "truck_side_left");
  ASSERT_NE(left, nullptr);
  EXPECT_NEAR(left->center_m.y() - left->half_size_m.y(), 8.0 + 1.25, 1e-9) << "outside the space";
  EXPECT_NEAR(left->center_m.z() + left->half_size_m.z(), 2.2, 1e-9) << "1 m sides";
  EXPECT_NEAR(s.task.truck.center_m.y(), 8.0, 1e-12);
  EXPECT_NEAR(s.task.truck.half_size_m.x(), 3.0, 1e-12);

  EXPECT_NEAR(s.world.water.level_m, -2.5, 1e-12);
  EXPECT_NEAR(s.world.water.density_kg_per_m3, 1000.0, 1e-12);
  EXPECT_NEAR(s.world.contact.natural_frequency_rad_per_s, 150.0, 1e-12);
  EXPECT_NEAR(s.start.boom_rad, 20.0 * kDeg, 1e-12);
  EXPECT_NEAR(s.start.clam_theta2_rad, machine().clam.theta2_open_rad, 1e-12);

  ASSERT_EQ(s.world.loads.size(), 5u);
  const core::LoadParams& log = s.world.loads[0];
  EXPECT_EQ(log.name, "log1");
  EXPECT_EQ(log.shape, core::LoadShape::Cylinder);
  EXPECT_NEAR(log.mass_kg, 471.0, 1e-12);
  // along the dam face at swing +30 deg, its axis across the boom there
  EXPECT_NEAR(log.yaw_rad, 120.0 * kDeg, 1e-12);
  EXPECT_NEAR(std::atan2(log.position_m.y(), log.position_m.x()), 30.0 * kDeg, 1e-3);
  EXPECT_NEAR(s.world.loads[2].yaw_rad, 90.0 * kDeg, 1e-12) << "log3 across the bay";
  EXPECT_LT(log.mass_kg, 1000.0 * core::load_volume_m3(log)) << "a log floats";
  const core::LoadParams& stump = s.world.loads[3];
  EXPECT_EQ(stump.shape, core::LoadShape::Sphere);
  EXPECT_GT(stump.mass_kg, 1000.0 * core::load_volume_m3(stump)) << "the stump sinks";
  EXPECT_EQ(s.world.loads[4].shape, core::LoadShape::Box);
  EXPECT_NEAR(s.world.loads[4].box_size_m.x(), 1.0, 1e-12);

  ASSERT_TRUE(s.task.enabled);
  EXPECT_EQ(s.task.loads, (std::vector<int>{0, 1, 2}));
  EXPECT_NEAR(s.task.optimum_s, 300.0, 1e-12);
  EXPECT_NEAR(s.task.penalties.of(PenaltyKind::RackGateHit), 10.0, 1e-12);
  EXPECT_NEAR(s.task.penalties.of(PenaltyKind::Overload), 15.0, 1e-12);
}

TEST(ScenarioFile, ClientSceneIsTheGeometryAsWrittenPlusLoadsAndTask) {
  const Scenario s = load_scenario_file(kShipped, machine());
  const auto& c = s.client_scene;
  EXPECT_EQ(c["schema"], "clamsim-scene/1");
  EXPECT_EQ(c["water_level_m"], -2.5);
  EXPECT_EQ(c["trash_rack"]["center_m"], nlohmann::ordered_json::array({11.1, 0.0, -10.75}));
  EXPECT_EQ(c["trash_rack"]["bar_spacing_m"], 0.15);
  EXPECT_EQ(c["truck_bed"]["yaw_deg"], 0.0);
  EXPECT_TRUE(c["deck"]["note"].is_string());
  ASSERT_EQ(c["intake_walls"].size(), 2u);
  EXPECT_EQ(c["intake_walls"][1]["center_m"][1], -3.0);
  EXPECT_EQ(c["water"]["density_kg_per_m3"], 1000.0) << "{value, source} reduced to the number";
  ASSERT_EQ(c["loads"].size(), 5u);
  EXPECT_EQ(c["loads"][2]["id"], 2);
  EXPECT_EQ(c["loads"][2]["name"], "log3");
  EXPECT_EQ(c["loads"][2]["shape"], "cylinder");
  EXPECT_EQ(c["loads"][2]["length_m"], 4.0);
  EXPECT_EQ(c["loads"][2]["position_m"], nlohmann::ordered_json::array({13.0, 0.0, -2.54})) << "where it starts";
  EXPECT_FALSE(c["loads"][3].contains("length_m")) << "a sphere has no length";
  EXPECT_EQ(c["loads"][4]["size_m"], nlohmann::ordered_json::array({1.0, 0.8, 0.6}));
  EXPECT_EQ(c["task"]["loads"], nlohmann::ordered_json::array({0, 1, 2}));
  EXPECT_EQ(c["task"]["limit_s"], 450.0);
  // the penalty kinds in the report's order, each with its points
  ASSERT_EQ(c["task"]["penalties"].size(), kPenaltyKinds);
  EXPECT_EQ(c["task"]["penalties"][4]["kind"], "dropped_load");
  EXPECT_EQ(c["task"]["penalties"][4]["points"], 10.0);
}

TEST(ScenarioFile, NotesAreAllowedEverywhereAndTheTaskIsOptional) {
  json doc = shipped();
  doc["water"]["note"] = "n";
  doc["start"]["note"] = "n";
  doc["loads"][0]["note"] = "n";
  doc["task"]["penalties"]["note"] = "n";
  doc.erase("task");
  Scenario s;
  ASSERT_NO_THROW(s = parse_scenario_json(doc, kOrigin, machine()));
  EXPECT_FALSE(s.task.enabled);
  EXPECT_FALSE(s.client_scene.contains("task"));
  EXPECT_NEAR(s.task.truck.center_m.x(), 1.0, 1e-12) << "the load space is still known";
}

TEST(ScenarioFile, ErrorsNameThePath) {
  struct Case {
    const char* what;
    void (*edit)(json&);
    const char* expected;
  };
  const Case cases[] = {
      {"unknown key", [](json& d) { d["water"]["densty_kg_per_m3"] = 1; },
       "dam_intake.json: water.densty_kg_per_m3: unknown key (did you mean "
       "\"density_kg_per_m3\"?)"},
      {"misspelt key",
       [](json& d) {
         d["water"]["densty_kg_per_m3"] = d["water"]["density_kg_per_m3"];
         d["water"].erase("density_kg_per_m3");
       },
       "dam_intake.json: water.densty_kg_per_m3: unknown key (did you mean "
       "\"density_kg_per_m3\"?)"},
      {"misspelt optional key", [](json& d) { d["loads"][0]["nite"] = "a log"; },
       "dam_intake.json: loads[0].nite: unknown key (did you mean \"note\"?)"},
      {"misspelt section",
       [](json& d) {
         d["contacts"] = d["contact"];
         d.erase("contact");
       },
       "dam_intake.json: contacts: unknown key (did you mean \"contact\"?)"},
      {"unknown key in a load", [](json& d) { d["loads"][3]["length_m"] = 1.0; },
       "dam_intake.json: loads[3].length_m: unknown key"},
      {"negative mass", [](json& d) { d["loads"][1]["mass_kg"] = -5; },
       "dam_intake.json: loads[1].mass_kg: expected a number in [0.1, 25000] kg, got -5"},
      {"too heavy", [](json& d) { d["loads"][1]["mass_kg"] = 30000; },
       "loads[1].mass_kg: expected a number in [0.1, 25000] kg, got 30000"},
      {"load inside a solid",
       [](json& d) { d["loads"][0]["position_m"] = json::array({11.1, 0.0, -6.0}); },
       "dam_intake.json: loads[0].position_m: load \"log1\" starts inside trash_rack"},
      {"load sunk into the floor",
       [](json& d) { d["loads"][3]["position_m"] = json::array({12.6, -1.2, -20.9}); },
       "loads[3].position_m: load \"stump\" starts inside intake_floor (0.3 m deep)"},
      {"unknown task load", [](json& d) { d["task"]["loads"][1] = "log9"; },
       "dam_intake.json: task.loads[1]: no load named \"log9\" in loads"},
      {"task load twice", [](json& d) { d["task"]["loads"][2] = "log1"; },
       "task.loads[2]: \"log1\" is named twice"},
      {"bad shape", [](json& d) { d["loads"][3]["shape"] = "cone"; },
       "dam_intake.json: loads[3].shape: expected \"cylinder\", \"sphere\" or \"box\", got "
       "\"cone\""},
      {"too many loads",
       [](json& d) {
         while (d["loads"].size() < 17) d["loads"].push_back(d["loads"][0]);
       },
       "dam_intake.json: loads: expected an array of at most 16 objects, got 17 elements"},
      {"duplicate name", [](json& d) { d["loads"][4]["name"] = "log2"; },
       "loads[4].name: \"log2\" is the name of an earlier load"},
      {"odd name", [](json& d) { d["loads"][4]["name"] = "a crate"; },
       "loads[4].name: expected 1 to 32 letters, digits, '_' or '-', got \"a crate\""},
      {"start out of the machine's range", [](json& d) { d["start"]["boom_deg"] = 60; },
       "dam_intake.json: start.boom_deg: expected a number in [0, 50] deg, got 60"},
      {"missing section", [](json& d) { d.erase("contact"); }, "dam_intake.json: contact: missing"},
      {"wall not an object", [](json& d) { d["intake_walls"][1] = 3; },
       "dam_intake.json: intake_walls[1]: expected an object, got 3"},
      {"truck in the deck",
       [](json& d) { d["truck_bed"]["center_m"] = json::array({1.0, 8.0, 0.3}); },
       "truck_bed.center_m: the load space's floor (z = -0.2 m) must be above the deck"},
      {"schema", [](json& d) { d["schema"] = "clamsim-scene/1"; },
       "dam_intake.json: schema: expected \"clamsim-scenario/1\", got \"clamsim-scene/1\""},
      {"yaw as text", [](json& d) { d["gate"]["yaw_deg"] = "0"; },
       "dam_intake.json: gate.yaw_deg: expected a number in [-360, 360] deg, got \"0\""},
  };
  for (const Case& c : cases) {
    json doc = shipped();
    c.edit(doc);
    SCOPED_TRACE(c.what);
    EXPECT_CONTAINS(error_of(doc), c.expected);
  }
}

// docs/scenario-file.md shows what the loader prints.
TEST(ScenarioFile, TheDocumentedMessagesAreTheOnesPrinted) {
  std::ifstream in(kRoot + "/docs/scenario-file.md");
  const std::string docs((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto shown = [&docs](const std::string& message) {
    return docs.find("config/scenarios/" + message + "\n") != std::string::npos;
  };
  json doc = shipped();
  doc["water"]["densty_kg_per_m3"] = doc["water"]["density_kg_per_m3"];
  doc["water"].erase("density_kg_per_m3");
  EXPECT_TRUE(shown(error_of(doc))) << error_of(doc);
  doc = shipped();
  doc["loads"][1]["mass_kg"] = -5;
  EXPECT_TRUE(shown(error_of(doc))) << error_of(doc);
  doc = shipped();
  doc["loads"][3]["shape"] = "cone";
  EXPECT_TRUE(shown(error_of(doc))) << error_of(doc);
}

TEST(ScenarioFile, FileErrorsNameTheFile) {
  try {
    load_scenario_file(kRoot + "/config/scenarios/no-such.json", machine());
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_CONTAINS(e.what(), "no-such.json: cannot open file");
  }
}

// ---- the first lesson ----

const std::string kLesson = kRoot + "/config/scenarios/first_lesson.json";

TEST(ScenarioFile, FirstLessonWorksAtTheDamSiteItNames) {
  // one description of the dam: the lesson's "site" takes it from dam_intake.json
  const Scenario dam = load_scenario_file(kShipped, machine());
  const Scenario lesson = load_scenario_file(kLesson, machine());
  EXPECT_EQ(lesson.site_file, kRoot + "/config/scenarios/dam_intake.json");
  EXPECT_TRUE(dam.site_file.empty());
  ASSERT_EQ(lesson.world.solids.size(), dam.world.solids.size());
  for (std::size_t i = 0; i < dam.world.solids.size(); ++i) {
    const core::SolidBox &a = dam.world.solids[i], &b = lesson.world.solids[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_TRUE(a.center_m.isApprox(b.center_m)) << a.name;
  }
  EXPECT_EQ(lesson.world.water.level_m, dam.world.water.level_m);
  EXPECT_EQ(lesson.client_scene["trash_rack"], dam.client_scene["trash_rack"]);  // drawn alike
  // the lesson's own: its start pose and its one log
  ASSERT_EQ(lesson.world.loads.size(), 1u);
  EXPECT_EQ(lesson.world.loads[0].name, "log");
  EXPECT_NE(lesson.start.telescope_m, dam.start.telescope_m);
  EXPECT_EQ(dam.task.lesson, "first_lesson");   // the dam task offers it
}

// A scenario folder written for the test: the dam, plus one file with a site.
class SiteFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("clamsim-site-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    json dam = shipped();
    dam["task"].erase("lesson");
    write("dam_intake", dam);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& name, const json& doc) {
    std::ofstream(dir_ / (name + ".json")) << doc.dump(2);
  }
  // The lesson as shipped, its site named `site`, edited by `edit`; the load's error or "".
  std::string error_with(const json& site, void (*edit)(json&) = [](json&) {}) {
    json lesson = read_json_file(kLesson);
    lesson["site"] = site;
    edit(lesson);
    write("lesson", lesson);
    try {
      load_scenario_file((dir_ / "lesson.json").string(), machine());
    } catch (const ModelError& e) {
      return e.what();
    }
    return "";
  }
  std::filesystem::path dir_;
};

TEST_F(SiteFolder, ASiteBesideTheFileLoads) { EXPECT_EQ(error_with("dam_intake"), ""); }

TEST_F(SiteFolder, ErrorsNameTheSiteAndTheChoices) {
  EXPECT_CONTAINS(error_with("dam"), "lesson.json: site: no scenario \"dam\" beside this file "
                                     "(scenarios there: dam_intake)");
  EXPECT_CONTAINS(error_with("../scenarios/dam_intake"),
                  "site: expected the name of a scenario beside this file (dam_intake), got "
                  "\"../scenarios/dam_intake\"");
  EXPECT_CONTAINS(error_with(3), "site: expected the name of a scenario beside this file");
  EXPECT_CONTAINS(error_with("lesson"), "site: no scenario \"lesson\" beside this file");
  // a key the site gives, written again: two descriptions of the dam are what "site" avoids
  EXPECT_CONTAINS(error_with("dam_intake", [](json& d) { d["water_level_m"] = -2.0; }),
                  "lesson.json: water_level_m: given by the site \"dam_intake\"; remove it "
                  "here, or drop \"site\"");
  // sites do not chain
  json chained = read_json_file(kLesson);
  write("other", chained);
  EXPECT_CONTAINS(error_with("other"), "site: \"other\" takes its own site from elsewhere");
}

TEST(ScenarioFile, LessonStepsReachTheBrowserAsData) {
  const Scenario s = load_scenario_file(kLesson, machine());
  ASSERT_TRUE(s.lesson.enabled);
  EXPECT_FALSE(s.task.enabled);
  const auto& l = s.client_scene["lesson"];
  ASSERT_EQ(l["steps"].size(), 6u);
  // close the jaws on the log: cable 2 in with cable 1 held (the closing rope's parts draw the
  // block up to the head, docs/model.md Decisions)
  EXPECT_EQ(l["steps"][2]["controls"][1]["does"], "close");
  EXPECT_EQ(l["steps"][2]["controls"][1]["signals"], nlohmann::ordered_json::parse("[[4, 1]]"));
  EXPECT_EQ(l["steps"][0]["check"]["kind"], "clam_lowered");
  EXPECT_EQ(l["steps"][0]["check"]["by_m"], 1.5);
  // a move let go of short of a stop is taught at half speed, and the open step's bar fills
  // with the opening, full before the stop (docs/training-task.md, "The first lesson")
  EXPECT_EQ(l["steps"][1]["controls"][0]["half_speed"], true);
  EXPECT_FALSE(l["steps"][0]["controls"][0].contains("half_speed"));
  EXPECT_EQ(l["steps"][1]["check"]["kind"], "jaws_opened");
  EXPECT_EQ(l["steps"][1]["check"]["by_deg"], 60.0);
  EXPECT_TRUE(s.lesson.steps[1].controls[0].half_speed);
  // the list of steps names each in a few words; the goal is the whole instruction
  EXPECT_EQ(l["steps"][2]["label"], "Close the jaws on the log");
  for (const auto& step : l["steps"]) EXPECT_LE(step["label"].get<std::string>().size(), 40u);
  // the rule behind the rack/gate badge goes with the dam's task
  const Scenario dam = load_scenario_file(kShipped, machine());
  EXPECT_EQ(dam.client_scene["task"]["hit_speed_m_per_s"], core::kHitSpeed_m_per_s);
  EXPECT_EQ(dam.client_scene["task"]["lesson"], "first_lesson");
}

TEST(ScenarioFile, LessonErrorsNameThePathAndTheChoices) {
  static const json lesson_doc = with_site(read_json_file(kLesson), kLesson).doc;
  const auto error_with = [](void (*edit)(json&)) {
    json d = lesson_doc;
    edit(d);
    try {
      parse_scenario_json(d, "first_lesson.json", machine());
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][0]["check"]["kind"] = "juggle"; }),
                  "first_lesson.json: lesson.steps[0].check.kind: expected one of \"clam_lowered\", "
                  "\"jaws_opened\", \"load_gripped\", \"load_lifted\", \"load_swung\", "
                  "\"load_set_down\", got \"juggle\"");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][1]["check"]["by_m"] = 1; }),
                  "first_lesson.json: lesson.steps[1].check.by_m: unknown key");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][0]["check"]["by_m"] = 0; }),
                  "lesson.steps[0].check.by_m: expected a number in (0, 50] m, got 0");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][0]["controls"][0]["signals"][0] = json::array({7, 1}); }),
                  "lesson.steps[0].controls[0].signals[0]: signal 7 is not 0 (swing), 1 (boom), "
                  "2 (telescope), 3 (cable 1) or 4 (cable 2)");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][0]["controls"][0]["signals"][1] = json::array({4, 2}); }),
                  "lesson.steps[0].controls[0].signals[1]: direction 2 is not 1 or -1");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"] = json::array(); }),
                  "lesson.steps: expected an array of 1 to 16 objects, got 0 elements");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][0].erase("goal"); }),
                  "lesson.steps[0].goal: missing");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][1]["controls"][0]["half_speed"] = "yes"; }),
                  "lesson.steps[1].controls[0].half_speed");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][1]["check"]["by_deg"] = 0; }),
                  "lesson.steps[1].check.by_deg: expected a number in (0, 180] deg, got 0");
  EXPECT_CONTAINS(error_with([](json& d) { d["lesson"]["steps"][2]["label"] = ""; }),
                  "lesson.steps[2].label: expected a few words (1 to 40 characters), got \"\"");
}

}  // namespace
}  // namespace clamsim::model

namespace clamsim::model {
namespace {

// docs/training-task.md's table of penalties is checked against the one list: a row per
// kind, in its order, with the shipped scenario's points, and no row for a kind the server
// does not score.
TEST(ScenarioFile, TheDocsPenaltyTableIsTheOneListWithTheShippedPoints) {
  std::ifstream in(kRoot + "/docs/training-task.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Scenario s = load_scenario_file(kShipped, machine());
  std::size_t at = 0;
  for (std::size_t k = 0; k < kPenaltyKinds; ++k) {
    const std::string row = std::string("| `") + kPenaltyNames[k] + "` |";
    const std::size_t found = doc.find(row, at);
    ASSERT_NE(found, std::string::npos) << "docs/training-task.md has no row " << row << " after the last";
    const std::size_t end = doc.find('\n', found);
    const std::string line = doc.substr(found, end - found);
    const std::string points = line.substr(line.rfind('|', line.size() - 2) + 1);
    EXPECT_DOUBLE_EQ(std::stod(points), s.task.penalties.points[k]) << line;
    at = end;
  }
  const std::size_t table = doc.find("| kind | event | shipped points |");
  ASSERT_NE(table, std::string::npos);
  const std::size_t table_end = doc.find("\n\n", table);
  std::size_t rows = 0;
  for (std::size_t p = doc.find("\n| `", table); p < table_end; p = doc.find("\n| `", p + 1)) ++rows;
  EXPECT_EQ(rows, kPenaltyKinds) << "a row for a kind the server does not score";
}

}  // namespace
}  // namespace clamsim::model
