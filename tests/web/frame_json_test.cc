#include "web/frame_json.h"

#include <gtest/gtest.h>

#include <cmath>

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
  // models/t250.json: the swing cab is a uniform 4.0 x 2.4 x 1.4 m box
  const auto cab = crane["links"]["swing_cab"]["box_m"];
  EXPECT_NEAR(cab[0].get<double>(), 4.0, 0.01);
  EXPECT_EQ(crane["links"]["swing_cab"]["mass_kg"], 1621);
  EXPECT_EQ(crane["links"]["telescopic"]["com_m"].size(), 3u);
  const auto& clam = j["machine"]["clam"];
  EXPECT_DOUBLE_EQ(clam["mass_kg"].get<double>(), 2 * 25 + 2 * 350 + 25);
  EXPECT_DOUBLE_EQ(clam["theta2_open_deg"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["machine"]["cables"][0]["drum_radius_m"].get<double>(), 0.3);
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
                          "point_a_m", "point_b_m", "point_c_m", "cable_rate_m_s", "loads"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_LT(text.size(), 900u) << "rounded values keep a frame short";
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
