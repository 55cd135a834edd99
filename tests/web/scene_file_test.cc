#include "web/scene_file.h"

#include <gtest/gtest.h>

#include "model/json_fields.h"

namespace clamsim::web {
namespace {

const std::string kSource = CLAMSIM_SOURCE_DIR;

TEST(SceneFile, TheShippedSceneIsTheDamIntake) {
  const auto s = load_scene_file(kSource + "/config/scene.json");
  EXPECT_DOUBLE_EQ(s["water_level_m"].get<double>(), -2.5);
  const auto& rack = s["trash_rack"];
  // about 5 m wide and 20 m high (section 1.1), top near the deck, 9-14 m in front
  EXPECT_NEAR(rack["size_m"][1].get<double>(), 5.0, 0.5);
  EXPECT_NEAR(rack["size_m"][2].get<double>(), 20.0, 1.0);
  const double top = rack["center_m"][2].get<double>() + rack["size_m"][2].get<double>() / 2;
  EXPECT_NEAR(top, 0.0, 1.0);
  const double x = rack["center_m"][0].get<double>();
  EXPECT_GT(x, 9.0);
  EXPECT_LT(x, 14.0);
  // the gate about 15 m below the water
  EXPECT_NEAR(s["water_level_m"].get<double>() - s["gate"]["center_m"][2].get<double>(), 15.0,
              1.0);
  EXPECT_EQ(s["intake_walls"].size(), 2u);
  EXPECT_GT(s["truck_bed"]["center_m"][1].get<double>(), 5.0);
  EXPECT_TRUE(s["note"].is_string());
  // the deck's top is the crane's base, z = 0
  const auto& deck = s["deck"];
  EXPECT_NEAR(deck["center_m"][2].get<double>() + deck["size_m"][2].get<double>() / 2, 0.0, 1e-9);
}

TEST(SceneFile, ErrorsNameTheField) {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "schema": "clamsim-scene/1", "name": "x", "water_level_m": -2,
    "reservoir": {"center_m": [0,0,0], "size_m": [1,1,1]},
    "deck": {"center_m": [0,0,0], "size_m": [1,1,1]},
    "gate": {"center_m": [0,0,0], "size_m": [1,1,1]},
    "intake_floor": {"center_m": [0,0,0], "size_m": [1,1,1]},
    "truck_bed": {"center_m": [0,0,0], "size_m": [1,-1,1]},
    "trash_rack": {"center_m": [0,0,0], "size_m": [1,1,1], "bar_spacing_m": 0.1, "bar_width_m": 0.01},
    "intake_walls": [{"center_m": [0,0,0], "size_m": [1,1,1]}]
  })");
  try {
    parse_scene_json(doc, "scene.json");
    FAIL() << "a negative size passed";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("truck_bed.size_m"), std::string::npos) << e.what();
  }
  doc["truck_bed"]["size_m"] = {1, 1, 1};
  EXPECT_NO_THROW(parse_scene_json(doc, "scene.json"));
  doc["deck"]["colour"] = "grey";
  EXPECT_THROW(parse_scene_json(doc, "scene.json"), model::ModelError) << "unknown key";
}

}  // namespace
}  // namespace clamsim::web
