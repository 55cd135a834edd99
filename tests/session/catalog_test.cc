#include "session/catalog.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "model/json_fields.h"
#include "session/file_digest.h"

namespace clamsim::session {
namespace {

const std::string root = CLAMSIM_SOURCE_DIR;

TEST(Catalog, OffersTheShippedModelsAndScenarios) {
  const Catalog c(root + "/models", root + "/config/scenarios", "t250");
  MachineSetup m;
  std::string why;
  ASSERT_TRUE(c.resolve("", "", &m, &why)) << why;
  EXPECT_EQ(m.name, "t250");
  ASSERT_TRUE(c.resolve("t250", "exp_5_1_1_clam_steps", &m, &why)) << why;
  EXPECT_NEAR(m.initial.clam_theta2_rad, 25.0 * M_PI / 180.0, 1e-12);
  EXPECT_FALSE(c.resolve("nope", "", &m, &why));
  EXPECT_EQ(why, "unknown model \"nope\"; the models: t250");
  EXPECT_FALSE(c.resolve("", "nope", &m, &why));
  EXPECT_EQ(why, "unknown scenario \"nope\"; the scenarios: dam_intake, demo, exp_5_1_1_clam_steps, "
                 "exp_5_1_2_crane_steps, first_lesson");
  // a client's name goes into logs and close reasons: no control characters, 40 bytes at most
  EXPECT_FALSE(c.resolve("", "a\nweb: forged line" + std::string(60, 'x'), &m, &why));
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  EXPECT_NE(why.find("unknown scenario \"a\\x0aweb: forged line"), std::string::npos) << why;
  EXPECT_NE(why.find("xxx...\"; the scenarios: dam_intake"), std::string::npos) << why;
}

// Reports name the files a session was scored with by content hash (sha256sum's hex).
TEST(Catalog, NamesTheModelAndWorldFilesByTheirSha256) {
  const Catalog c(root + "/models", root + "/config/scenarios", "t250", "dam_intake");
  MachineSetup m;
  std::string why;
  ASSERT_TRUE(c.resolve("", "", &m, &why)) << why;
  EXPECT_EQ(m.model_sha256, file_sha256(root + "/models/t250.json"));
  EXPECT_EQ(m.world_name, "dam_intake");
  EXPECT_EQ(m.world_sha256, file_sha256(root + "/config/scenarios/dam_intake.json"));
  EXPECT_EQ(m.model_sha256.size(), 64u);
  EXPECT_NE(m.model_sha256, m.world_sha256);
  // a world that takes its site from another file is named by both: `cat a b | sha256sum`
  ASSERT_TRUE(c.resolve("", "first_lesson", &m, &why)) << why;
  EXPECT_EQ(m.world_sha256, files_sha256({root + "/config/scenarios/first_lesson.json",
                                          root + "/config/scenarios/dam_intake.json"}));
}

TEST(Catalog, MissingDefaultModelIsAClearError) {
  try {
    Catalog c(root + "/models", root + "/config/scenarios", "missing");
    FAIL() << "expected an error";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("default model \"missing\" not found"), std::string::npos);
  }
}

TEST(Catalog, WorldScenariosAndTheDefaultWorld) {
  const Catalog c(root + "/models", root + "/config/scenarios", "t250", "dam_intake");
  EXPECT_EQ(c.worlds(), (std::vector<std::string>{"dam_intake", "first_lesson"}));
  const auto all = c.scenarios();
  EXPECT_NE(std::find(all.begin(), all.end(), "dam_intake"), all.end());
  EXPECT_NE(std::find(all.begin(), all.end(), "exp_5_1_1_clam_steps"), all.end());
  ASSERT_TRUE(c.world());
  EXPECT_EQ(c.world(), c.world("dam_intake"));
  EXPECT_FALSE(c.world("nope"));

  MachineSetup m;
  std::string why;
  // no scenario: the default world at its own start pose
  ASSERT_TRUE(c.resolve("", "", &m, &why)) << why;
  ASSERT_TRUE(m.scenario);
  EXPECT_EQ(m.world_name, "dam_intake");
  EXPECT_NEAR(m.initial.boom_rad, 20.0 * M_PI / 180.0, 1e-12);
  // a control script's pose, in the default world
  ASSERT_TRUE(c.resolve("", "exp_5_1_1_clam_steps", &m, &why)) << why;
  EXPECT_NEAR(m.initial.clam_theta2_rad, 25.0 * M_PI / 180.0, 1e-12);
  EXPECT_EQ(m.scenario, c.world());
  // a world by name
  ASSERT_TRUE(c.resolve("t250", "dam_intake", &m, &why)) << why;
  EXPECT_EQ(m.scenario, c.world());
  EXPECT_NEAR(m.initial.boom_rad, 20.0 * M_PI / 180.0, 1e-12);
}

TEST(Catalog, WithoutADefaultWorldSessionsWorkInEmptySpace) {
  const Catalog c(root + "/models", root + "/config/scenarios", "t250");
  MachineSetup m;
  std::string why;
  ASSERT_TRUE(c.resolve("", "", &m, &why)) << why;
  EXPECT_FALSE(m.scenario);
  EXPECT_TRUE(m.world_name.empty());
  EXPECT_NEAR(m.initial.boom_rad, 30.0 * M_PI / 180.0, 1e-12) << "the model's own pose";
  ASSERT_TRUE(c.resolve("", "exp_5_1_1_clam_steps", &m, &why)) << why;
  EXPECT_FALSE(m.scenario);
  ASSERT_TRUE(c.resolve("", "dam_intake", &m, &why)) << why;
  EXPECT_TRUE(m.scenario) << "asked for by name";
}

TEST(Catalog, MissingDefaultWorldOrABrokenScenarioIsAClearError) {
  try {
    Catalog c(root + "/models", root + "/config/scenarios", "t250", "atlantis");
    FAIL() << "expected an error";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("default world \"atlantis\" not found"),
              std::string::npos) << e.what();
  }
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("clamsim-catalog-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "broken.json") << R"({"schema": "clamsim-scenario/1"})";
  try {
    Catalog c(root + "/models", dir.string(), "t250");
    FAIL() << "expected an error";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json: name: missing"), std::string::npos)
        << e.what();
  }
  fs::remove_all(dir);
}

// The dam task names the lesson to take before it; a name with no lesson behind it stops
// the server at start-up, naming the scenarios that have one.
TEST(Catalog, ATaskNamesALessonThatExists) {
  const Catalog c(root + "/models", root + "/config/scenarios", "t250", "dam_intake");
  ASSERT_TRUE(c.world("first_lesson"));
  EXPECT_TRUE(c.world("first_lesson")->lesson.enabled);
  EXPECT_EQ(c.world()->task.lesson, "first_lesson");
  MachineSetup m;
  std::string why;
  ASSERT_TRUE(c.resolve("", "first_lesson", &m, &why)) << why;
  EXPECT_EQ(m.world_name, "first_lesson");
  EXPECT_NEAR(m.initial.telescope_m, 9.7, 1e-12);   // the lesson's own start pose

  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("clamsim-lesson-" + std::to_string(getpid()));
  fs::create_directories(dir);
  nlohmann::json dam = model::read_json_file(root + "/config/scenarios/dam_intake.json");
  dam["task"]["lesson"] = "first_lesn";
  std::ofstream(dir / "dam_intake.json") << dam.dump();
  fs::copy_file(root + "/config/scenarios/first_lesson.json", dir / "first_lesson.json");
  try {
    Catalog bad(root + "/models", dir.string(), "t250", "dam_intake");
    FAIL() << "expected an error";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("dam_intake.json: task.lesson: no scenario \"first_lesn\" "
                                         "with a lesson (scenarios with a lesson: first_lesson)"),
              std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace clamsim::session
