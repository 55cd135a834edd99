// Record a real session (ManualClock, the server's catalog) in which a scripted trainee
// grips a log and carries it towards the truck, an instructor takes the controls, injects a
// fault and sends a message, the trainee lets the log go and restarts; then clamsim-sim
// --replay --verify re-simulates it bit for bit, names an altered frame, reads a truncated
// file, and refuses another model file and garbage; the debrief shows any frame of it,
// finds its events, and a session taken over from it goes on exactly as it did.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

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
#include "session/recording_json.h"
#include "session/recording_read.h"
#include "session/replay_run.h"
#include "session/session.h"
#include "tool_run.h"
#include "tools/pick_place_pilot.h"
#include "../session/recording_sink.h"
#include "../support/crafted_recordings.h"

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
      // after the instructor hands back, the trainee opens the jaws over the water: the log
      // carried so far is let go (a release), then restarts
      const bool letting_go = done_at > 0 && f.seq > done_at + kHandBackAt;
      if (restarted_at == 0) {
        const core::Control u = letting_go ? core::Control{{0, 0, 0, 1.5, -3.0}}
                                : pilot_over ? core::Control{}
                                             : pilot.next(f.outputs, 0.05);
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

  // A copy of the recording, edited (tests/support/crafted_recordings.h).
  std::string rewritten(const std::string& name, const testing::MessageEdit& edit,
                        const testing::MetaEdit& edit_meta = {}) {
    const std::string path = scratch_->path(name);
    testing::rewrite_recording(recording_, path, edit, edit_meta);
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
  EXPECT_GE(releases, 1U) << "and let go";
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

// --plot titles the figure by the session: its world, the trainee, when it started and
// which recording, not by the thesis figure it resembles.
TEST_F(Replay, ItsPlotIsTitledByTheSession) {
  bool gnuplot = false;
  for (const char* dir : {"/usr/bin/", "/usr/local/bin/"})
    gnuplot = gnuplot || access((std::string(dir) + "gnuplot").c_str(), X_OK) == 0;
  if (!gnuplot) GTEST_SKIP() << "gnuplot is not installed";
  const std::string svg = scratch_->path("replay.svg");
  const auto r = replay({"--replay", recording_, "--csv", scratch_->path("plotted.csv"), "--plot", svg});
  ASSERT_EQ(r.exit_code, cli::kExitOk) << r.err;
  const std::string figure = slurp(svg);
  const std::string file = std::filesystem::path(recording_).filename().string();
  EXPECT_NE(figure.find("dam_intake, trainee Ann Example, 20"), std::string::npos);
  EXPECT_NE(figure.find(" UTC (" + file + ")"), std::string::npos) << file;
  EXPECT_NE(figure.find("cf. thesis Figures 5.12-5.18"), std::string::npos);
}

const session::Catalog& catalog();

// ---- crafted recordings (docs/recording.md, "What a replay refuses"): refused whole, with a named reason, in bounded time ----

// Each crafted file is refused by clamsim-sim with exit 3 and its reason, long before the
// tool's time-out (a FIFO seed or a far last frame used to hang it).
TEST_F(Replay, EveryCraftedRecordingIsRefusedWithItsReason) {
  const std::string fifo = "crafted.fifo";
  ASSERT_EQ(::mkfifo(scratch_->path(fifo).c_str(), 0600), 0);
  for (const testing::Crafted& c : testing::crafted_recordings(fifo, "crafted-seed-self-far.mcap")) {
    const std::string path = rewritten("crafted-" + c.name + ".mcap", c.edit, c.meta);
    const auto r = run_tool(CLAMSIM_SIM_BINARY,
                            {"--models-dir", kSource + "/models", "--scenarios-dir",
                             kSource + "/config/scenarios", "--replay", path, "--verify"},
                            *scratch_, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, cli::kExitBadModel) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.reason), std::string::npos) << c.name << ": " << r.err;
    EXPECT_EQ(r.out.find("verified"), std::string::npos) << c.name;
  }
  // and in-process, as the server reads them: every one throws a named reason
  for (const testing::Crafted& c : testing::crafted_recordings(fifo, "crafted-seed-self-far.mcap")) {
    const std::string path = scratch_->path("crafted-" + c.name + ".mcap");
    try {
      session::RecordedSession rec = session::read_recording(path);
      session::MachineSetup setup;
      const std::string why = session::recorded_setup(rec, catalog(), &setup);
      if (why.empty()) session::replay_start(rec, setup, catalog());
      EXPECT_NE(why.find(c.reason), std::string::npos) << c.name << ": " << why;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(c.reason), std::string::npos) << c.name << ": " << e.what();
    }
  }
}

// ---- the debrief: session/replay_run.h and a session taken over from it ----

const session::Catalog& catalog() {
  static const session::Catalog c(kSource + "/models", kSource + "/config/scenarios", "t250",
                                  "dam_intake");
  return c;
}

std::unique_ptr<session::ReplayRun> prepared(const std::string& path) {
  session::RecordedSession rec = session::read_recording(path);
  session::MachineSetup setup;
  EXPECT_EQ(session::recorded_setup(rec, catalog(), &setup), "");
  session::ReplayStart start = session::replay_start(rec, setup, catalog());
  auto run = std::make_unique<session::ReplayRun>(std::move(rec), setup, std::move(start));
  std::uint64_t last_done = 0;
  EXPECT_TRUE(run->prepare([&](std::uint64_t done, std::uint64_t of) {
    EXPECT_GT(done, last_done);
    EXPECT_LE(done, of);
    last_done = done;
    return true;
  }));
  EXPECT_EQ(last_done, run->frames()) << "progress reaches the end";
  return run;
}

// A frame as the recording writes it, without its numbering (k, seq).
json unnumbered(json j) {
  j.erase("k");
  j.erase("seq");
  return j;
}

TEST_F(Replay, TheDebriefShowsAnyFrameBitForBitInAnyOrder) {
  auto run = prepared(recording_);
  const session::RecordedSession rec = session::read_recording(recording_);
  ASSERT_EQ(run->frames(), rec.last_k);
  // forwards, backwards, across and onto checkpoints (every 200 frames), the ends
  const std::uint64_t n = run->frames();
  for (const std::uint64_t k : {std::uint64_t{1}, n, std::uint64_t{777}, std::uint64_t{201},
                                std::uint64_t{200}, std::uint64_t{199}, n / 2, n / 2 + 1,
                                std::uint64_t{2}, n - 1}) {
    const session::Frame f = run->frame(k);
    EXPECT_EQ(f.seq, k - 1);
    const json again = session::frame_record(k, k - 1, f.outputs, run->stepper().state());
    ASSERT_TRUE(rec.frames.count(k)) << k;
    const auto d = session::first_difference(rec.frames.at(k), again);
    EXPECT_FALSE(d) << "frame " << k << ": " << d.value_or("");
  }
  EXPECT_THROW(run->frame(0), std::out_of_range);
  EXPECT_THROW(run->frame(n + 1), std::out_of_range);
}

TEST_F(Replay, TheDebriefTimelineHoldsTheRunsEventsAndItsPlotsTheRopes) {
  auto run = prepared(recording_);
  std::map<std::string, std::vector<std::uint64_t>> at;
  for (const session::ReplayEvent& e : run->events()) at[e.kind].push_back(e.k);
  EXPECT_GE(at["grip"].size(), 1U);
  EXPECT_GE(at["release"].size(), 1U);
  EXPECT_EQ(at["restart"].size(), 1U);
  EXPECT_EQ(at["instructor_message"].size(), 1U);
  EXPECT_GE(at["control"].size(), 2U) << "taken and handed back";
  EXPECT_GE(at["faults"].size(), 1U) << "the current";
  // in the order they happened, the instructor's actions after the grip
  ASSERT_FALSE(at["grip"].empty());
  ASSERT_FALSE(at["control"].empty());
  EXPECT_LT(at["grip"].front(), at["control"].front());
  EXPECT_LT(at["control"].front(), at["restart"].front());
  for (const session::ReplayEvent& e : run->events())
    if (e.kind == "instructor_message") {
      EXPECT_NE(e.text.find("Your turn"), std::string::npos);
    }

  const session::ReplaySeries& s = run->series();
  ASSERT_FALSE(s.k.empty());
  EXPECT_LE(s.k.size(), session::ReplayRun::kSeriesPoints + 2);
  EXPECT_EQ(s.k.back(), run->frames());
  const session::RecordedSession rec = session::read_recording(recording_);
  for (std::size_t i = 0; i < s.k.size(); i += 97) {
    const json& f = rec.frames.at(s.k[i]);
    EXPECT_EQ(s.tension_N[0][i], f["tensions_N"][0].get<double>()) << s.k[i];
    EXPECT_EQ(s.joint_velocity[1][i], f["joint_vel"][1].get<double>()) << s.k[i];
  }
}

// "Take over from here": a live session seeded with the replay's state at frame kSeed,
// driven by the recording's own inputs, computes the recording's frames exactly; its own
// recording re-simulates (from its source) bit for bit.
TEST_F(Replay, ATakenOverSessionGoesOnExactlyAsTheRecording) {
  constexpr std::uint64_t kSeed = 150, kFollow = 120;   // the scripted trainee drives here
  auto run = prepared(recording_);
  run->frame(kSeed);
  const session::RecordedSession rec = session::read_recording(recording_);
  session::MachineSetup setup;
  ASSERT_EQ(session::recorded_setup(rec, catalog(), &setup), "");
  setup.seed = std::make_shared<session::SessionSeed>(session::SessionSeed{
      run->stepper(), fs::path(recording_).filename().string(), kSeed});
  // the volts in force at each frame of the recording
  std::map<std::uint64_t, core::Control> volts;
  session::StepInputs in;
  for (std::uint64_t k = 1; k <= kSeed + kFollow + 2; ++k) {
    bool restart = false;
    session::apply_recorded_inputs(session::recorded_inputs(rec, k), in, &restart);
    ASSERT_FALSE(restart);
    volts[k] = in.control;
  }
  session::ManualClock clock;
  auto sink = std::make_shared<testing::RecordingSink>();
  session::SessionOptions o;
  o.report_dir = "";
  o.recording.enabled = true;
  o.recording.dir = fs::path(recording_).parent_path().string();   // beside its source
  o.recording.frame_every = 1;
  session::Session s(8, setup, sink, o, clock);
  // the control for frame j is in the mailbox before it starts: frame 1's now, frame j + 1's
  // as frame j is delivered
  s.submit_control(volts[kSeed + 1].volts.data(), 5);
  sink->act = [&](const session::Frame& f) {
    const core::Control& u = volts[kSeed + f.seq + 2];
    s.submit_control(u.volts.data(), u.volts.size());
  };
  s.start();
  const auto frames = sink->wait_for(kFollow, std::chrono::seconds(120));
  s.stop();
  ASSERT_GE(frames.size(), kFollow);
  const std::string mine = s.recording_name();
  ASSERT_FALSE(mine.empty());
  auto taken = prepared((fs::path(recording_).parent_path() / mine).string());
  ASSERT_GE(taken->frames(), kFollow);
  for (std::uint64_t j = 1; j <= kFollow; ++j) {
    // what the live session sent equals the source's frame, numbering aside
    const session::Frame& live = frames[j - 1];
    EXPECT_EQ(live.outputs.time_s, rec.frames.at(kSeed + j)["time_s"].get<double>()) << j;
    taken->frame(j);
    const json again = unnumbered(session::frame_record(j, j - 1, taken->stepper().outputs(),
                                                        taken->stepper().state()));
    const auto d = session::first_difference(unnumbered(rec.frames.at(kSeed + j)), again);
    ASSERT_FALSE(d) << "frame " << j << " after the take-over: " << d.value_or("");
  }
  // and clamsim-sim verifies the taken-over recording, re-simulating its source first
  const auto r = replay({"--replay", (fs::path(recording_).parent_path() / mine).string(), "--verify"});
  EXPECT_EQ(r.exit_code, cli::kExitOk) << r.err;
  EXPECT_NE(r.out.find("verified "), std::string::npos) << r.out << r.err;
}

}  // namespace
}  // namespace clamsim
