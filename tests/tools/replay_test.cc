// Record a real session (ManualClock, the server's catalog) in which a scripted trainee
// grips a log and puts it in the truck, an instructor takes the controls, injects a fault
// and sends a message, and the trainee restarts; then clamsim-sim --replay --verify
// re-simulates it bit for bit, names an altered frame, reads a truncated file, and refuses
// another model file and garbage.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "record/mcap_reader.h"
#include "record/mcap_writer.h"
#include "session/catalog.h"
#include "session/session.h"
#include "tool_run.h"
#include "tools/pick_place_pilot.h"
#include "../session/recording_sink.h"

namespace clamsim {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::run_tool;
using testing::ScratchDir;
using testing::slurp;

const std::string kSource = CLAMSIM_SOURCE_DIR;
constexpr std::uint64_t kTakeAt = 60, kHandBackAt = 90, kFrames = 2400;

// One recorded session for every test of the suite (recording it takes a while).
class Replay : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = new ScratchDir("clamsim-replay");
    session::Catalog catalog(kSource + "/models", kSource + "/config/scenarios", "t250",
                             "dam_intake");
    session::MachineSetup setup;
    std::string error;
    ASSERT_TRUE(catalog.resolve("t250", "", &setup, &error)) << error;
    const model::Scenario& sc = *setup.scenario;
    // log3, the log the scored run's operator takes (tests/session/scored_run_test.cc)
    std::size_t log3 = 0;
    while (log3 + 1 < sc.world.loads.size() && sc.world.loads[log3].name != "log3") ++log3;
    const auto& log = sc.world.loads.at(log3).position_m;
    const model::LoadSpace& truck = sc.task.truck;
    tools::PickPlacePilot pilot(
        *setup.params, {log.x(), log.y(), log.z()},
        {truck.center_m.x(), truck.center_m.y(), truck.center_m.z() - truck.half_size_m.z() + 0.25},
        truck.center_m.z() + truck.half_size_m.z() + 1.0);

    session::ManualClock clock;
    auto sink = std::make_shared<testing::RecordingSink>();
    session::SessionOptions o;
    o.report_dir = "";
    o.recording.enabled = true;
    o.recording.dir = scratch_->path("recordings");
    o.recording.frame_every = 1;   // every frame checked
    session::Session s(7, setup, sink, o, clock);
    std::uint64_t restarted_at = 0, done_at = 0;
    // the trainee (the scripted operator) takes a log to the truck; then an instructor takes
    // the controls, injects a current and hands back with a message; then a restart
    sink->act = [&](const session::Frame& f) {
      session::ControlArbiter& c = s.desk().control();
      const bool pilot_over = pilot.phase() == tools::PickPlacePilot::Phase::Done ||
                              pilot.phase() == tools::PickPlacePilot::Phase::Failed;
      if (restarted_at == 0) {
        const core::Control u = pilot_over ? core::Control{} : pilot.next(f.outputs, 0.05);
        s.submit_control(u.volts.data(), u.volts.size());
      }
      if (f.seq == 5) s.set_trainee("Ann Example");
      if (done_at == 0 && (pilot_over || f.seq == kFrames - 300)) done_at = f.seq;
      if (done_at == 0) return;
      if (f.seq == done_at + kTakeAt) {
        c.request(42, "bob", session::ControlMode::Exclusive, false);
        c.set_instructor_control(42, core::Control{{0.5, 0, 0, 1.0, 1.0}});
        EXPECT_EQ(s.desk().inject_fault("bob", "current", {{"speed_m_per_s", 0.3}}), "");
      }
      if (f.seq == done_at + kHandBackAt) {
        c.release(42);
        EXPECT_EQ(s.desk().post_message("bob", "Your turn"), "");
      }
      if (f.seq == done_at + kHandBackAt + 40) {
        restarted_at = f.seq;
        s.submit_control(core::Control{{0, 0, 0, -2.0, -2.0}}.volts.data(), 5);
        s.request_restart();
      }
    };
    s.start();
    const auto frames = sink->wait_until(
        [&](const std::vector<session::Frame>& got) {
          return got.size() >= kFrames || (restarted_at > 0 && got.size() > restarted_at + 100);
        },
        std::chrono::seconds(300));
    s.stop();
    frames_ = frames.size();
    for (const auto& e : fs::directory_iterator(scratch_->path("recordings")))
      recording_ = e.path().string();
  }
  static void TearDownTestSuite() {
    delete scratch_;
    scratch_ = nullptr;
  }

  testing::ToolResult replay(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"--models-dir", kSource + "/models", "--scenarios-dir",
                                    kSource + "/config/scenarios"};
    all.insert(all.end(), args.begin(), args.end());
    return run_tool(CLAMSIM_SIM_BINARY, all, *scratch_, std::chrono::seconds(300));
  }

  // A copy of the recording whose messages pass through `edit` (its CRCs recomputed).
  std::string rewritten(const std::string& name,
                        const std::function<void(const std::string& topic, json&)>& edit) {
    const record::McapFile f = record::read_mcap_file(recording_);
    const std::string path = scratch_->path(name);
    record::McapWriter w(path, {});
    std::map<std::uint16_t, std::uint16_t> channel;
    for (const auto& [id, c] : f.channels) {
      const record::McapSchema& sc = f.schemas.at(c.schema_id);
      channel[id] = w.add_channel(w.add_schema(sc.name, sc.encoding, sc.data), c.topic,
                                  c.message_encoding);
    }
    for (const record::McapMetadata& m : f.metadata) w.write_metadata(m.name, m.values);
    for (const record::McapMessage& m : f.messages) {
      json j = json::parse(m.data);
      edit(f.channels.at(m.channel_id).topic, j);
      w.write_message(channel[m.channel_id], m.log_time_ns, m.publish_time_ns, j.dump());
    }
    EXPECT_TRUE(w.close());
    return path;
  }

  static ScratchDir* scratch_;
  static std::string recording_;
  static std::size_t frames_;
};

ScratchDir* Replay::scratch_ = nullptr;
std::string Replay::recording_;
std::size_t Replay::frames_ = 0;

TEST_F(Replay, TheRecordingHoldsEveryKindOfInput) {
  ASSERT_FALSE(recording_.empty()) << "no recording was written";
  const record::McapFile f = record::read_mcap_file(recording_);
  EXPECT_TRUE(f.complete);
  std::map<std::string, int> kinds;
  std::uint64_t grips = 0, releases = 0, frames = 0;
  for (const record::McapMessage& m : f.messages) {
    const std::string topic = f.channels.at(m.channel_id).topic;
    const json j = json::parse(m.data);
    if (topic == "/inputs") ++kinds[j.at("kind").get<std::string>() +
                                    (j.contains("note") ? ":" + j["note"].get<std::string>() : "")];
    if (topic == "/frames") ++frames;
    if (topic == "/events") {
      grips = std::max<std::uint64_t>(grips, j["events"]["grips"]);
      releases = std::max<std::uint64_t>(releases, j["events"]["releases"]);
    }
  }
  EXPECT_GE(frames, frames_) << "every frame sent, recorded";
  EXPECT_GT(kinds["control"], 100);
  EXPECT_EQ(kinds["restart"], 1);
  EXPECT_EQ(kinds["trainee"], 1);
  EXPECT_EQ(kinds["message"], 1);
  EXPECT_GE(kinds["note:control"], 2) << "taken and handed back";
  EXPECT_EQ(kinds["note:fault"], 1);
  EXPECT_GE(kinds["faults"], 2) << "none at the start, then the current";
  EXPECT_GE(kinds["driver"], 3) << "trainee, instructor, trainee";
  EXPECT_GE(grips, 1U) << "the log was gripped";
  // (the release into the truck is not reached within the run yet: see the report)
  std::map<std::string, std::string> meta;
  for (const auto& m : f.metadata) meta.insert(m.values.begin(), m.values.end());
  EXPECT_EQ(meta["model"], "t250");
  EXPECT_EQ(meta["world"], "dam_intake");
  EXPECT_EQ(meta["trainee"], "Ann Example");
  EXPECT_EQ(meta["model_sha256"].size(), 64U);
}

TEST_F(Replay, VerifiesEveryFrameBitForBit) {
  const auto r = replay({"--replay", recording_, "--verify"});
  EXPECT_EQ(r.exit_code, cli::kExitOk) << r.err;
  EXPECT_NE(r.out.find("verified "), std::string::npos) << r.out << r.err;
  const double n = testing::number_after(r.out, "verified (\\d+) frames");
  EXPECT_GE(n, static_cast<double>(frames_));
  EXPECT_NE(r.err.find("x real time"), std::string::npos) << r.err;
}

TEST_F(Replay, AnAlteredFrameIsNamedWithItsField) {
  const std::string path = rewritten("altered.mcap", [](const std::string& topic, json& j) {
    if (topic == "/frames" && j["k"] == 300) j["tensions_N"][1] = j["tensions_N"][1].get<double>() + 1e-9;
  });
  const auto r = replay({"--replay", path, "--verify"});
  EXPECT_EQ(r.exit_code, cli::kExitFailure);
  EXPECT_NE(r.err.find("frame 300 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tensions_N[1]: recorded"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("verified"), std::string::npos);
}

TEST_F(Replay, ATruncatedRecordingVerifiesUpToWhereItEnds) {
  const std::string bytes = slurp(recording_);
  const std::string path = scratch_->path("truncated.mcap");
  std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() * 3 / 5);
  const auto r = replay({"--replay", path, "--verify"});
  EXPECT_EQ(r.exit_code, cli::kExitOk) << r.err;
  EXPECT_NE(r.err.find("is incomplete"), std::string::npos) << r.err;
  const double n = testing::number_after(r.out, "verified (\\d+) frames");
  EXPECT_GT(n, 100.0);
  EXPECT_LT(n, static_cast<double>(frames_));
}

TEST_F(Replay, AnotherModelFileIsRefused) {
  const std::string models = scratch_->path("models");
  fs::create_directories(models);
  std::ofstream(models + "/t250.json") << slurp(kSource + "/models/t250.json") << "\n";
  const auto r = run_tool(CLAMSIM_SIM_BINARY,
                          {"--replay", recording_, "--verify", "--models-dir", models,
                           "--scenarios-dir", kSource + "/config/scenarios"},
                          *scratch_, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, cli::kExitFailure);
  EXPECT_NE(r.err.find("recorded with another model file"), std::string::npos) << r.err;
}

TEST_F(Replay, GarbageAndMissingFilesAreNamed) {
  const std::string junk = scratch_->path("junk.mcap");
  std::ofstream(junk) << "this is not a recording";
  auto r = replay({"--replay", junk, "--verify"});
  EXPECT_EQ(r.exit_code, cli::kExitBadModel);
  EXPECT_NE(r.err.find("not an MCAP file"), std::string::npos) << r.err;
  r = replay({"--replay", scratch_->path("nowhere.mcap"), "--verify"});
  EXPECT_EQ(r.exit_code, cli::kExitBadModel);
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
  r = replay({"--replay", junk});
  EXPECT_EQ(r.exit_code, cli::kExitUsage);
  EXPECT_NE(r.err.find("--replay needs --verify or --csv"), std::string::npos) << r.err;
}

TEST_F(Replay, WritesTheRunsTable) {
  const std::string csv = scratch_->path("replay.csv");
  const auto r = replay({"--replay", recording_, "--csv", csv});
  EXPECT_EQ(r.exit_code, cli::kExitOk) << r.err;
  const std::string table = slurp(csv);
  EXPECT_EQ(table.rfind("time_s,", 0), 0U);
  EXPECT_GE(static_cast<std::size_t>(std::count(table.begin(), table.end(), '\n')), frames_);
}

}  // namespace
}  // namespace clamsim
