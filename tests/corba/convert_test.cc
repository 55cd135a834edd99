// corba/convert.cc: IDL <-> core/session types.
#include "corba/convert.h"

#include <gtest/gtest.h>

#include "corba/idl_fields.h"

#include <cmath>
#include <limits>

namespace clamsim::corba {
namespace {

session::Frame sample_frame() {
  session::Frame fr;
  fr.seq = 41;
  core::Outputs& o = fr.outputs;
  for (std::size_t i = 0; i < 8; ++i) o.display[i] = 1.5 * static_cast<double>(i + 1);
  o.time_s = 2.1;
  o.joint_vel = {1.0, -2.0, 0.25};
  o.tensions_N = {12000.0, 8000.0};
  for (std::size_t i = 0; i < 10; ++i) o.pressures_Pa[i] = 1e6 * static_cast<double>(i);
  o.working = core::WorkingState::Distributed;
  o.geo = core::GeoStatus::Close;
  o.load = core::LoadStatus::WithLoad;
  o.theta2_clam_deg = 33.0;
  o.jaw_gap_m = 0.4;
  o.squeeze_N = 900.0;
  o.tip = {1.0, 2.0, 3.0};
  o.point_a = {4.0, 5.0, 6.0};
  o.point_b = {7.0, 8.0, 9.0};
  o.point_c = {10.0, 11.0, 12.0};
  return fr;
}

TEST(Convert, DisplayKeepsTable41OrderAndUnits) {
  const session::Frame fr = sample_frame();
  CLAM::DisplayData d;
  to_display(fr.outputs, d);
  for (int i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(d[i], 1.5f * static_cast<float>(i + 1)) << i;
}

TEST(Convert, FrameCarriesEveryField) {
  CLAMX::Frame f;
  to_frame(sample_frame(), f);
  EXPECT_EQ(f.seq, 41u);
  EXPECT_DOUBLE_EQ(f.sim_time_s, 2.1);
  EXPECT_FLOAT_EQ(f.display[7], 12.0f);
  EXPECT_FLOAT_EQ(f.joint_velocity[1], -2.0f);
  EXPECT_FLOAT_EQ(f.tension_N[0], 12000.0f);
  EXPECT_FLOAT_EQ(f.pressure_MPa[9], 9.0f);  // Pa -> MPa
  EXPECT_EQ(f.working, CLAMX::Distributed);
  EXPECT_EQ(f.geo, CLAMX::Close);
  EXPECT_EQ(f.load, CLAMX::WithLoad);
  EXPECT_FLOAT_EQ(f.theta2_deg, 33.0f);
  EXPECT_FLOAT_EQ(f.jaw_gap_m, 0.4f);
  EXPECT_FLOAT_EQ(f.squeeze_N, 900.0f);
  EXPECT_FLOAT_EQ(f.tip_m[2], 3.0f);
  EXPECT_FLOAT_EQ(f.point_a_m[0], 4.0f);
  EXPECT_FLOAT_EQ(f.point_b_m[1], 8.0f);
  EXPECT_FLOAT_EQ(f.point_c_m[2], 12.0f);
  EXPECT_EQ(f.loads.length(), 0u);
}

TEST(Convert, FrameCarriesTheWorldAndTheScore) {
  session::Frame fr = sample_frame();
  core::Outputs& o = fr.outputs;
  o.clam_swing_deg = {2.5, -1.0};
  o.clam_orientation = {0.5, 0.5, 0.5, 0.5};
  o.clam_contact_force_N = 1500.0;
  o.clam_submerged = 0.25;
  o.load_count = 2;
  o.loads[1].position_m = {12.3, 0.5, -2.5};
  o.loads[1].orientation = {0.0, 1.0, 0.0, 0.0};
  o.loads[1].held = true;
  o.held_load = 1;
  o.contact_count = 1;
  o.contacts[0].position_m = {11.2, 0.0, -3.0};
  o.contacts[0].force_N = 4000.0;
  o.contacts[0].pair = core::ContactPair::ClamWorld;
  o.contacts[0].solid = core::SolidKind::Rack;
  o.events.rack_gate_hits = 3;
  o.events.grips = 1;
  o.events.loads_restored = 2;
  fr.score.enabled = true;
  fr.score.running = true;
  fr.score.required = 3;
  fr.score.delivered = 1;
  fr.score.total = 85.0;
  fr.score.rack_gate_hits = 3;
  core::WorldParams world;
  world.loads.resize(2);
  world.loads[1].mass_kg = 471.0;

  CLAMX::Frame f;
  to_frame(fr, f, &world);
  EXPECT_FLOAT_EQ(f.clam_swing_deg[0], 2.5f);
  EXPECT_FLOAT_EQ(f.clam_swing_deg[1], -1.0f);
  EXPECT_FLOAT_EQ(f.clam_orientation[3], 0.5f);
  EXPECT_FLOAT_EQ(f.clam_contact_force_N, 1500.0f);
  EXPECT_FLOAT_EQ(f.clam_submerged, 0.25f);
  ASSERT_EQ(f.loads.length(), 2u);
  EXPECT_EQ(f.loads[1].id, 1u);
  EXPECT_FLOAT_EQ(f.loads[1].mass_kg, 471.0f);
  EXPECT_FLOAT_EQ(f.loads[1].position_m[0], 12.3f);
  EXPECT_FLOAT_EQ(f.loads[1].orientation[1], 1.0f);
  EXPECT_TRUE(f.loads[1].held);
  EXPECT_FALSE(f.loads[0].held);
  ASSERT_EQ(f.contacts.length(), 1u);
  EXPECT_EQ(f.contacts[0].pair, CLAMX::ClamWorld);
  EXPECT_EQ(f.contacts[0].solid, CLAMX::Rack);
  EXPECT_EQ(f.contacts[0].load, -1);
  EXPECT_FLOAT_EQ(f.contacts[0].force_N, 4000.0f);
  EXPECT_EQ(f.events.rack_gate_hits, 3u);
  EXPECT_EQ(f.events.grips, 1u);
  EXPECT_EQ(f.events.loads_restored, 2u);
  EXPECT_TRUE(f.score.enabled);
  EXPECT_EQ(f.score.required, 3u);
  EXPECT_EQ(f.score.delivered, 1u);
  EXPECT_DOUBLE_EQ(f.score.total, 85.0);
  EXPECT_EQ(f.score.rack_gate_hits, 3u);
  EXPECT_STREQ(f.task_report_json.in(), "");

  // the report rides on one frame only; the next frame reuses f and clears it
  fr.report = std::make_shared<const std::string>(R"({"schema": "clamsim-report/1"})");
  to_frame(fr, f, &world);
  EXPECT_STREQ(f.task_report_json.in(), R"({"schema": "clamsim-report/1"})");
  fr.report.reset();
  fr.outputs.load_count = 0;
  fr.outputs.contact_count = 0;
  to_frame(fr, f, nullptr);
  EXPECT_STREQ(f.task_report_json.in(), "");
  EXPECT_EQ(f.loads.length(), 0u);
  EXPECT_EQ(f.contacts.length(), 0u);
}

TEST(Convert, StatsAndStatus) {
  session::CounterSnapshot c;
  c.frames_sent = 10;
  c.send_failures = 2;
  c.controls_received = 5;
  c.controls_rejected = 1;
  c.controls_clamped = 3;
  c.late_frames = 4;
  const CLAMX::SessionStats s = to_stats(c);
  EXPECT_EQ(s.frames_sent, 10u);
  EXPECT_EQ(s.send_failures, 2u);
  EXPECT_EQ(s.controls_received, 5u);
  EXPECT_EQ(s.controls_rejected, 1u);
  EXPECT_EQ(s.controls_clamped, 3u);
  EXPECT_EQ(s.late_frames, 4u);

  ServerFigures f;
  f.sessions = 3;
  f.capacity = 7;
  f.version = "9.9";
  f.totals = c;
  f.sessions_reaped = 6;
  CLAMX::ServerStatus_var st = to_status(f);
  EXPECT_EQ(st->sessions, 3u);
  EXPECT_EQ(st->capacity, 7u);
  EXPECT_STREQ(st->version.in(), "9.9");
  EXPECT_EQ(st->frames_sent, 10u);
  EXPECT_EQ(st->controls_rejected, 1u);
  EXPECT_EQ(st->sessions_reaped, 6u);
}

TEST(Convert, SubscribeOptions) {
  CLAMX::SubscribeOptions o;
  o.model = CORBA::string_dup("t250");
  o.scenario = CORBA::string_dup("demo");
  o.frame_rate_hz = 0.0f;
  SubscribeRequest r;
  std::string error;
  ASSERT_TRUE(from_options(o, &r, &error));
  EXPECT_EQ(r.model, "t250");
  EXPECT_EQ(r.scenario, "demo");
  EXPECT_EQ(r.frame_period_s, 0.0);

  o.frame_rate_hz = 20.0f;
  ASSERT_TRUE(from_options(o, &r, &error));
  EXPECT_DOUBLE_EQ(r.frame_period_s, 0.05);

  for (float bad : {-1.0f, std::numeric_limits<float>::quiet_NaN(),
                    std::numeric_limits<float>::infinity()}) {
    o.frame_rate_hz = bad;
    EXPECT_FALSE(from_options(o, &r, &error)) << bad;
    EXPECT_NE(error.find("frame_rate_hz"), std::string::npos);
  }
}

TEST(Convert, DescribeNamesTheExceptionAndMinorCode) {
  const std::string text = describe(CORBA::NO_RESOURCES(0x434C0001, CORBA::COMPLETED_NO));
  EXPECT_NE(text.find("NO_RESOURCES"), std::string::npos) << text;
  EXPECT_NE(text.find("0x434c0001"), std::string::npos) << text;
  EXPECT_NE(text.find("COMPLETED_NO"), std::string::npos) << text;
}

// Every member of the fixed IDL structs is filled from its namesake in the value struct's
// list (corba/idl_fields.h): distinct values in, the same values out, field by field.
TEST(Convert, EveryIdlCounterComesFromItsNamesake) {
  session::CounterSnapshot c;
  std::uint64_t v = 11;
  for (const auto& f : session::kCounterFields) c.*f.member = v++;
  const CLAMX::SessionStats s = to_stats(c);
  for (const auto& wire : kIdlStatsFields) {
    const auto& f = session::kCounterFields[core::index_of(session::kCounterFields, wire.name)];
    EXPECT_EQ(s.*wire.member, c.*f.member) << wire.name;
  }
  EXPECT_EQ(s.skipped_frames, c.skipped_frames);
}

TEST(Convert, EveryIdlEventAndScoreFieldComesFromItsNamesake) {
  session::Frame frame;
  std::uint64_t v = 3;
  for (const auto& f : core::kWorldEventFields) frame.outputs.events.*f.member = v++;
  frame.score = {true, true, true, true, false, true, 1.5, 2.5, 3.5, 4, 5, 6.5, 7.5, 8.5, 9, 10,
                 11, 12, 13, 14, 15};
  CLAMX::Frame f;
  to_frame(frame, f, nullptr);
  for (const auto& wire : kIdlEventFields) {
    const auto& e = core::kWorldEventFields[core::index_of(core::kWorldEventFields, wire.name)];
    EXPECT_EQ(f.events.*wire.member, frame.outputs.events.*e.member) << wire.name;
  }
  EXPECT_EQ(f.events.loads_restored, frame.outputs.events.loads_restored);
  std::size_t checked = 0;
  core::for_each_field(kIdlScoreFields, [&](const auto& wire) {
    core::for_each_field(training::kTaskScoreFields, [&](const auto& own) {
      if (!core::same_name(wire.name, own.name)) return;
      EXPECT_EQ(static_cast<double>(f.score.*wire.member),
                static_cast<double>(frame.score.*own.member))
          << wire.name;
      ++checked;
    });
  });
  EXPECT_EQ(checked, std::tuple_size_v<decltype(kIdlScoreFields)>);
}

}  // namespace
}  // namespace clamsim::corba
