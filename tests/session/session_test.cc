// The session loop against a recording sink, on a manual clock (no waiting) and on the
// real clock (pacing).
#include "session/session.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <vector>

#include "test_setup.h"

namespace clamsim::session {
namespace {

class RecordingSink : public FrameSink {
 public:
  explicit RecordingSink(bool ok = true) : ok_(ok) {}
  bool deliver(const Frame& f) override {
    std::lock_guard<std::mutex> lock(mutex_);
    frames_.push_back(f);
    cv_.notify_all();
    return ok_;
  }
  // Waits (bounded) until n frames have arrived; returns a copy.
  std::vector<Frame> wait_for(std::size_t n, std::chrono::seconds limit = std::chrono::seconds(20)) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_for(lock, limit, [&] { return frames_.size() >= n; });
    return frames_;
  }

 private:
  bool ok_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<Frame> frames_;
};

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

TEST(Session, FailingSinkIsCountedAndFlaggedAfterTheGracePeriod) {
  ManualClock clock;
  auto sink = std::make_shared<RecordingSink>(false);
  SessionOptions o;
  o.send_grace_s = 1.0;
  Session s(1, testing::shipped_setup(), sink, o, clock);
  s.start();
  sink->wait_for(30);  // 1.5 s of schedule on the manual clock
  EXPECT_TRUE(s.delivery_failed_too_long());
  s.stop();
  EXPECT_GE(s.counters().send_failures, 30u);
  EXPECT_EQ(s.counters().frames_sent, 0u);
}

TEST(Session, RealClockKeepsAnAbsoluteFiftyMillisecondSchedule) {
  SteadyClock clock;
  auto sink = std::make_shared<RecordingSink>();
  Session s(1, testing::shipped_setup(), sink, SessionOptions{}, clock);
  const auto t0 = std::chrono::steady_clock::now();
  s.start();
  const auto frames = sink->wait_for(20, std::chrono::seconds(10));
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  s.stop();
  ASSERT_GE(frames.size(), 20u);
  // 20 frames are due at 50 ms .. 1000 ms: never sooner than the schedule allows.
  EXPECT_GE(elapsed, std::chrono::milliseconds(999));
}

TEST(Session, StopIsPromptAndIdempotent) {
  SteadyClock clock;
  auto sink = std::make_shared<RecordingSink>();
  SessionOptions o;
  o.frame_period_s = 1.0;  // long sleeps: stop must cut them short
  Session s(1, testing::shipped_setup(), sink, o, clock);
  s.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  s.stop();
  s.stop();
  EXPECT_FALSE(s.running());
}

}  // namespace
}  // namespace clamsim::session
