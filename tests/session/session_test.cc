// The session loop against a recording sink, on a manual clock (no waiting) and on the
// real clock (pacing).
#include "session/session.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <vector>

#include <unistd.h>

#include "recording_sink.h"
#include "test_setup.h"
#include "watched_clock.h"

namespace clamsim::session {
namespace {

using testing::RecordingSink;

TEST(Session, FramesCarryConsecutiveSequenceNumbersAndSimulatedTime) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  Session s(1, testing::shipped_setup(), sink, SessionOptions{}, clock);
  s.start();
  const auto frames = sink->wait_for(40);
  s.stop();
  ASSERT_GE(frames.size(), 40u);
  for (std::size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(frames[i].seq, i);
    EXPECT_NEAR(frames[i].outputs.time_s, 0.05 * static_cast<double>(i + 1), 1e-9);
  }
  EXPECT_GE(s.counters().frames_sent, 40u);
  EXPECT_EQ(s.counters().late_frames, 0u) << "a manual clock is never late";
}

TEST(Session, LatestControlDrivesTheMachine) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  Session s(1, testing::shipped_setup(), sink, SessionOptions{}, clock);
  const double swing[5] = {4, 0, 0, 0, 0};
  EXPECT_EQ(s.submit_control(swing, 5).kind, ControlVerdict::Kind::Accepted);
  s.start();
  const auto frames = sink->wait_for(60);
  s.stop();
  EXPECT_GT(frames[59].outputs.display[0], 5.0) << "swung more than 5 deg in 3 s";
}

TEST(Session, RejectedControlNeverReachesTheModelAndIsCounted) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  Session s(1, testing::shipped_setup(), sink, SessionOptions{}, clock);
  const float bad[5] = {std::numeric_limits<float>::quiet_NaN(), 0, 0, 0, 0};
  const float loud[5] = {0, 0, 0, 0, 9};
  const float three[3] = {1, 1, 1};
  EXPECT_EQ(s.submit_control(bad, 5).kind, ControlVerdict::Kind::Rejected);
  EXPECT_EQ(s.submit_control(three, 3).kind, ControlVerdict::Kind::Rejected);
  EXPECT_EQ(s.submit_control(loud, 5).kind, ControlVerdict::Kind::Clamped);
  s.start();
  const auto frames = sink->wait_for(20);
  s.stop();
  for (const Frame& f : frames)
    for (double d : f.outputs.display) ASSERT_TRUE(std::isfinite(d));
  const CounterSnapshot c = s.counters();
  EXPECT_EQ(c.controls_received, 3u);
  EXPECT_EQ(c.controls_rejected, 2u);
  EXPECT_EQ(c.controls_clamped, 1u);
}

// The grace period to the nanosecond on the manual clock: the first failed send is frame 1
// at 50 ms; the session thread is held inside frame 6's send (300 ms) while the test moves
// the clock across the one-second boundary.
TEST(Session, FailingSinkIsCountedAndFlaggedAfterTheGracePeriod) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>(false);
  std::mutex mutex;
  std::condition_variable cv;
  bool held = false, released = false;
  sink->act = [&](const Frame& f) {
    if (f.seq != 5) return;
    std::unique_lock<std::mutex> lock(mutex);
    held = true;
    cv.notify_all();
    cv.wait(lock, [&] { return released; });
  };
  SessionOptions o;
  o.send_grace_s = 1.0;
  Session s(1, testing::shipped_setup(), sink, o, clock);
  const Instant t0 = clock.now();
  s.start();
  {
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return held; }))
        << "frame 6 never came";
  }
  EXPECT_EQ(clock.now() - t0, std::chrono::milliseconds(300));
  EXPECT_FALSE(s.delivery_failed_too_long()) << "failing for 250 ms of 1 s";
  clock.advance(std::chrono::milliseconds(750));  // failing for exactly 1 s: not longer
  EXPECT_FALSE(s.delivery_failed_too_long());
  clock.advance(std::chrono::milliseconds(1));
  EXPECT_TRUE(s.delivery_failed_too_long());
  {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
    cv.notify_all();
  }
  sink->wait_for(30);
  EXPECT_TRUE(s.delivery_failed_too_long());
  s.stop();
  EXPECT_GE(s.counters().send_failures, 30u);
  EXPECT_EQ(s.counters().frames_sent, 0u);
}

// The session sleeps until t0 + k * 50 ms, never "now + 50 ms": on the real clock every
// frame's computing takes time, so a relative schedule would show as deadlines drifting
// off the 50 ms grid. The deadlines are read, not timed (a frame already due when the
// session gets to it needs no sleep, so k may jump, but never off the grid).
TEST(Session, RealClockKeepsAnAbsoluteFiftyMillisecondSchedule) {
  SteadyClock steady;
  testing::WatchedClock clock(steady);
  auto sink = std::make_shared<RecordingSink>();
  Session s(1, testing::shipped_setup(), sink, SessionOptions{}, clock);
  s.start();
  const auto deadlines = clock.wait_for_deadlines(20, std::chrono::seconds(30));
  s.stop();
  ASSERT_GE(deadlines.size(), 20u) << "the session never slept 20 times";
  const Duration period = std::chrono::milliseconds(50);
  for (std::size_t k = 1; k < 20; ++k) {
    EXPECT_GT(deadlines[k], deadlines[k - 1]);
    EXPECT_EQ((deadlines[k] - deadlines[0]) % period, Duration::zero())
        << "deadline " << k << " is off the absolute schedule";
  }
  EXPECT_GE(sink->wait_for(19).size(), 19u) << "a frame for every deadline passed";
}

// A manual clock whose sleeps wait for the test: the session thread stops in each sleep
// (its last frame sent, the next not yet computed) until the test lets that sleep end, so
// the test acts at exactly that moment, whatever the machine's load.
class HeldClock final : public Clock {
 public:
  Instant now() const override { return inner_.now(); }
  void sleep_until(Instant t, const Alarm& alarm) override {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const int mine = ++asleep_;
      cv_.notify_all();
      cv_.wait(lock, [&] { return free_ || ended_ >= mine; });
    }
    inner_.sleep_until(t, alarm);
  }
  // Lets the first n sleeps end, then waits (the bound only says "never") until the
  // session is in sleep n + 1.
  bool end_sleeps_until_asleep_in(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    ended_ = n;
    cv_.notify_all();
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] { return asleep_ > n; });
  }
  void run_free() {
    std::lock_guard<std::mutex> lock(mutex_);
    free_ = true;
    cv_.notify_all();
  }

 private:
  ManualClock inner_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int asleep_ = 0, ended_ = 0;
  bool free_ = false;
};

// A frame is computed at its due time from the controls in force then, so a
// control that arrives just after a frame goes out is in the very next frame (computing
// ahead, as the session once did, put it in the one after). Each frame says how many
// controls it reflects (control_seq). Ten tries, each control sent from this thread while
// the session sleeps between two frames.
TEST(Session, AControlSentBetweenFramesIsInTheNextFrame) {
  HeldClock clock;
  auto sink = std::make_shared<RecordingSink>();
  Session s(1, testing::shipped_setup(), sink, SessionOptions{}, clock);
  s.start();
  // sleep i comes before frame i (seq i - 1): in sleep n, frames up to seq n - 2 are out
  for (int sent = 1; sent <= 10; ++sent) {
    const int n = 3 * sent;
    ASSERT_TRUE(clock.end_sleeps_until_asleep_in(n - 1)) << "the session never reached sleep " << n;
    const double volts[5] = {static_cast<double>(sent % 2), 0, 0, 0, 0};
    s.submit_control(volts, 5);
  }
  clock.run_free();
  const auto frames = sink->wait_for(31);
  s.stop();
  ASSERT_GE(frames.size(), 31u);
  for (std::uint64_t sent = 1; sent <= 10; ++sent) {
    const std::size_t n = 3 * sent;
    EXPECT_EQ(frames[n - 2].control_seq, sent - 1) << "the frame before it was sent";
    EXPECT_EQ(frames[n - 1].control_seq, sent) << "control " << sent << " in the next frame";
  }
}

// Stop wakes the session's own sleep: with a frame due an hour from now, stop() returns
// only because it cut that sleep short (a stop that waited for the deadline would leave the
// test waiting; the bound below only turns that into a failure instead of a hang).
TEST(Session, StopCutsTheSleepShortAndIsIdempotent) {
  SteadyClock steady;
  testing::WatchedClock clock(steady);
  auto sink = std::make_shared<RecordingSink>();
  SessionOptions o;
  o.frame_period_s = 3600.0;  // 1 440 000 model steps of 2.5 ms: a valid period
  Session s(1, testing::shipped_setup(), sink, o, clock);
  s.start();
  const auto deadlines = clock.wait_for_deadlines(1);
  ASSERT_EQ(deadlines.size(), 1u) << "the session thread never went to sleep";
  EXPECT_GT(deadlines[0] - steady.now(), std::chrono::minutes(59)) << "it sleeps for the hour";
  auto stopped = std::async(std::launch::async, [&] { s.stop(); });
  ASSERT_EQ(stopped.wait_for(std::chrono::seconds(60)), std::future_status::ready)
      << "stop() did not wake the session's sleep";
  stopped.get();
  s.stop();  // again: a no-op
  EXPECT_FALSE(s.running());
  EXPECT_EQ(sink->wait_for(0).size(), 0u) << "no frame was due";
  EXPECT_EQ(clock.wait_for_deadlines(1).size(), 1u) << "it did not go back to sleep";
}

// ---- the working world and its task ----------------------------------------------------

namespace fs = std::filesystem;

// A fresh directory for reports, removed at the end.
struct TempDir {
  fs::path path = fs::temp_directory_path() /
                  ("clamsim-session-" + std::to_string(getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

// A telescope a little out: a moved control that touches nothing (the task's clock starts
// at the first such frame).
constexpr double kNudge[5] = {0, 0, 0.5, 0, 0};

TEST(SessionWorld, TheTaskClockWaitsForTheFirstMovedControl) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  SessionOptions o;
  o.report_dir = "";
  Session s(1, testing::world_setup(), sink, o, clock);
  s.start();
  const std::size_t idle = sink->wait_for(20).size();
  s.submit_control(kNudge, 5);
  const auto frames = sink->wait_for(idle + 20);
  s.stop();
  for (std::size_t i = 0; i < idle; ++i) {
    EXPECT_FALSE(frames[i].score.running) << "frame " << i << ": nobody has moved a control";
    EXPECT_DOUBLE_EQ(frames[i].score.elapsed_s, 0.0);
  }
  EXPECT_TRUE(frames.back().score.running);
  EXPECT_GT(frames.back().score.elapsed_s, 0.5);
  EXPECT_LT(frames.back().score.elapsed_s, frames.back().outputs.time_s - 0.9) << "not since the session began";
}

TEST(SessionWorld, APracticeAttemptHasNoTimeLimit) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  SessionOptions o;
  o.report_dir = "";
  // a 0.5 s optimum: a timed attempt would end at 0.75 s
  Session s(1, testing::world_setup([](model::Scenario& sc) { sc.task.optimum_s = 0.5; }), sink,
            o, clock);
  s.request_restart(true);
  s.submit_control(kNudge, 5);
  s.start();
  const auto frames = sink->wait_for(40);
  s.stop();
  const Frame& f = frames.back();
  EXPECT_TRUE(f.score.practice);
  EXPECT_DOUBLE_EQ(f.score.limit_s, 0.0);
  EXPECT_TRUE(f.score.running);
  EXPECT_FALSE(f.score.finished) << "1.9 s, past 1.5 x the optimum: practice does not time out";
  EXPECT_GT(f.score.elapsed_s, 1.5);
  for (const Frame& g : frames) EXPECT_FALSE(g.report);
}

TEST(SessionWorld, FramesCarryTheLoadsAndTheLiveScore) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  SessionOptions o;
  o.report_dir = "";
  Session s(1, testing::world_setup(), sink, o, clock);
  s.submit_control(kNudge, 5);   // the task's clock starts with the first frame
  s.start();
  const auto frames = sink->wait_for(40);
  s.stop();
  ASSERT_GE(frames.size(), 40u);
  const Frame& f = frames[39];
  ASSERT_EQ(f.outputs.load_count, 5);
  EXPECT_EQ(f.outputs.held_load, -1);
  // the logs float where the file put them (the physics settles them by centimetres)
  EXPECT_NEAR(f.outputs.loads[0].position_m[0], 10.83, 0.3);
  EXPECT_NEAR(f.outputs.loads[0].position_m[2], -2.54, 0.3);
  EXPECT_LT(f.outputs.loads[3].position_m[2], -20.0) << "the stump lies on the bay floor";
  EXPECT_TRUE(f.score.enabled);
  EXPECT_TRUE(f.score.running);
  EXPECT_EQ(f.score.required, 3);
  EXPECT_NEAR(f.score.elapsed_s, 39 * 0.05, 1e-9);
  EXPECT_DOUBLE_EQ(f.score.total, 100.0) << "the start pose touches nothing";
  for (const Frame& g : frames) EXPECT_FALSE(g.report);
}

TEST(SessionWorld, RestartStartsANewAttempt) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  SessionOptions o;
  o.report_dir = "";
  Session s(1, testing::world_setup(), sink, o, clock);
  const double swing[5] = {5, 0, 0, 0, 0};
  s.submit_control(swing, 5);
  s.start();
  const std::size_t before = sink->wait_for(40).size();
  s.request_restart();
  const auto frames = sink->wait_for(before + 40);
  s.stop();
  EXPECT_GT(frames[before - 1].outputs.display[0], 3.0) << "swung before the restart";
  // the first frame of the new attempt: sim time and the task clock start over
  std::size_t first = 0;
  for (std::size_t i = before; i < frames.size() && first == 0; ++i)
    if (frames[i].outputs.time_s < frames[i - 1].outputs.time_s) first = i;
  ASSERT_NE(first, 0u) << "no restart seen";
  const Frame& f = frames[first];
  EXPECT_EQ(f.seq, frames[first - 1].seq + 1) << "sequence numbers go on";
  EXPECT_NEAR(f.outputs.time_s, 0.05, 1e-9);
  EXPECT_DOUBLE_EQ(f.score.elapsed_s, 0.0);
  EXPECT_LT(f.outputs.display[0], frames[first - 1].outputs.display[0]) << "back at the start";
  EXPECT_NEAR(f.outputs.loads[0].position_m[0], 10.83, 0.3);
  EXPECT_EQ(s.counters().restarts, 1u);
}

TEST(SessionWorld, AFinishedTaskSendsItsReportOnceAndSavesIt) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  TempDir dir;
  SessionOptions o;
  o.report_dir = (dir.path / "reports").string();  // created on demand
  // a 0.5 s optimum: the attempt times out at 0.75 s
  Session s(4, testing::world_setup([](model::Scenario& sc) { sc.task.optimum_s = 0.5; }), sink,
            o, clock);
  s.submit_control(kNudge, 5);
  s.start();
  const auto frames = sink->wait_for(40);
  s.stop();
  std::vector<const Frame*> with_report;
  for (const Frame& f : frames)
    if (f.report) with_report.push_back(&f);
  ASSERT_EQ(with_report.size(), 1u);
  const Frame& end = *with_report[0];
  EXPECT_TRUE(end.score.finished);
  EXPECT_FALSE(end.score.completed);
  EXPECT_NEAR(end.outputs.time_s, 0.05 + 0.75, 1e-9) << "15 periods after the first frame";
  const auto report = nlohmann::json::parse(*end.report);
  EXPECT_EQ(report["schema"], "clamsim-report/1");
  EXPECT_EQ(report["session"], "session 4 (t250, dam_intake)");
  EXPECT_EQ(report["outcome"], "timed out");
  // as the scorer wrote it: the head first, the penalties in the report's order
  const auto ordered = nlohmann::ordered_json::parse(*end.report);
  EXPECT_EQ(ordered.begin().key(), "schema");
  std::vector<std::string> kinds;
  for (const auto& [kind, p] : ordered["penalties"].items()) kinds.push_back(kind);
  EXPECT_EQ(kinds, std::vector<std::string>(model::kPenaltyNames.begin(), model::kPenaltyNames.end()));
  EXPECT_TRUE(frames.back().score.finished) << "the score stays final";

  EXPECT_EQ(s.counters().reports_written, 1u);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir.path / "reports")) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].filename().string().rfind("report-4-", 0), 0u) << files[0];
  std::ifstream in(files[0]);
  EXPECT_EQ(nlohmann::ordered_json::parse(in), ordered) << "the file in the same order";
}

TEST(SessionWorld, AReportThatCannotBeSavedIsCountedNotFatal) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>();
  TempDir dir;
  fs::create_directories(dir.path);
  std::ofstream(dir.path / "a-file") << "x";
  SessionOptions o;
  o.report_dir = (dir.path / "a-file" / "reports").string();  // under a file: cannot exist
  Session s(1, testing::world_setup([](model::Scenario& sc) { sc.task.optimum_s = 0.5; }), sink,
            o, clock);
  s.submit_control(kNudge, 5);
  s.start();
  const auto frames = sink->wait_for(40);
  const bool still_running = s.running();
  s.stop();
  EXPECT_TRUE(still_running);
  EXPECT_EQ(s.counters().report_failures, 1u);
  EXPECT_EQ(s.counters().reports_written, 0u);
  std::size_t reports = 0;
  for (const Frame& f : frames) reports += f.report ? 1 : 0;
  EXPECT_EQ(reports, 1u) << "the trainee still gets it";
}

}  // namespace
}  // namespace clamsim::session
