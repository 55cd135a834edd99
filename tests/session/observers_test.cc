// Observers of a session: the fan-out to N observers, each with its own
// bounded queue that keeps the newest frames; a stalled observer stops nobody; the end of
// the session reaches every observer. Real sessions on a manual clock (no waiting).
#include "session/observers.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "session/session.h"
#include "test_setup.h"

namespace clamsim::session {
namespace {

// Counts the trainee's frames.
class CountingSink : public FrameSink {
 public:
  bool deliver(const Frame& f) override {
    std::lock_guard<std::mutex> lock(mutex_);
    seqs_.push_back(f.seq);
    cv_.notify_all();
    return true;
  }
  std::vector<std::uint64_t> wait_for(std::size_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_for(lock, std::chrono::seconds(20), [&] { return seqs_.size() >= n; });
    return seqs_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::uint64_t> seqs_;
};

// An observer that reads everything as soon as it is woken (on the session thread).
struct ReadingObserver {
  std::mutex mutex;
  std::vector<std::shared_ptr<const ObservedFrame>> frames;
  std::vector<std::shared_ptr<const ObservedFrame>> event_frames;
  std::string ended;
  std::shared_ptr<ObserverQueue> queue = std::make_shared<ObserverQueue>([this] { read(); });

  void read() {
    ObserverQueue::Batch b = queue->take();
    std::lock_guard<std::mutex> lock(mutex);
    frames.insert(frames.end(), b.frames.begin(), b.frames.end());
    event_frames.insert(event_frames.end(), b.event_frames.begin(), b.event_frames.end());
    if (b.ended) ended = b.end_reason;
  }
  std::size_t count() {
    std::lock_guard<std::mutex> lock(mutex);
    return frames.size();
  }
};

// Waits (bounded) until pred() holds.
template <typename Pred>
bool eventually(Pred pred) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

TEST(Observers, EveryObserverGetsTheTraineesFramesWithTheSameSeqAndTheInputs) {
  ManualClock clock;
  auto sink = std::make_shared<CountingSink>();
  Session s(1, testing::shipped_setup(), sink, SessionOptions{}, clock);
  std::vector<std::unique_ptr<ReadingObserver>> observers;
  for (int i = 0; i < 5; ++i) {
    observers.push_back(std::make_unique<ReadingObserver>());
    ASSERT_TRUE(s.attach_observer(observers.back()->queue));
  }
  EXPECT_EQ(s.observer_count(), 5u);
  const double volts[5] = {1.5, -2, 0, 0.5, 0};
  s.submit_control(volts, 5);
  s.start();
  for (auto& o : observers) ASSERT_TRUE(eventually([&] { return o->count() >= 50; }));
  s.stop();
  const std::vector<std::uint64_t> trainee = sink->wait_for(50);
  for (auto& o : observers) {
    std::lock_guard<std::mutex> lock(o->mutex);
    ASSERT_GE(o->frames.size(), 50u);
    ASSERT_GE(trainee.size(), o->frames.size());
    for (std::size_t i = 0; i < o->frames.size(); ++i) {
      EXPECT_EQ(o->frames[i]->frame.seq, trainee[i]) << "frame " << i;
      EXPECT_DOUBLE_EQ(o->frames[i]->volts[0], 1.5);
      EXPECT_DOUBLE_EQ(o->frames[i]->volts[1], -2.0);
      EXPECT_DOUBLE_EQ(o->frames[i]->volts[3], 0.5);
    }
  }
}

TEST(Observers, AFullQueueDropsTheStalestFrameButKeepsEveryEvent) {
  ObserverQueue q(nullptr);
  for (std::uint64_t seq = 0; seq < 10; ++seq) {
    auto f = std::make_shared<ObservedFrame>();
    f->frame.seq = seq;
    if (seq == 2 || seq == 5) f->events[f->event_count++] = {ObserverEventKind::Grip, 1};
    q.push(f);
  }
  EXPECT_EQ(q.pushed(), 10u);
  EXPECT_EQ(q.dropped(), 10u - ObserverQueue::kFrames);
  const ObserverQueue::Batch b = q.take();
  ASSERT_EQ(b.frames.size(), ObserverQueue::kFrames);
  for (std::size_t i = 0; i < b.frames.size(); ++i)
    EXPECT_EQ(b.frames[i]->frame.seq, 10 - ObserverQueue::kFrames + i) << "the newest, in order";
  ASSERT_EQ(b.event_frames.size(), 2u) << "events of dropped frames are still delivered";
  EXPECT_EQ(b.event_frames[0]->frame.seq, 2u);
  EXPECT_EQ(b.event_frames[1]->frame.seq, 5u);
  EXPECT_FALSE(b.ended);
  EXPECT_TRUE(q.take().frames.empty());
}

TEST(Observers, TheQueueWakesOncePerDrainAndOnTheEnd) {
  int wakes = 0;
  ObserverQueue q([&] { ++wakes; });
  auto f = std::make_shared<ObservedFrame>();
  q.push(f);
  q.push(f);
  q.push(f);
  EXPECT_EQ(wakes, 1) << "one post while the observer has not read";
  q.take();
  q.push(f);
  EXPECT_EQ(wakes, 2);
  q.end("session 1 ended");
  EXPECT_EQ(wakes, 3);
  q.push(f);
  const ObserverQueue::Batch b = q.take();
  EXPECT_TRUE(b.ended);
  EXPECT_EQ(b.end_reason, "session 1 ended");
  EXPECT_EQ(b.frames.size(), 1u) << "nothing is pushed after the end";
}

TEST(Observers, AStalledObserverStopsNeitherTheTraineeNorAnotherObserver) {
  ManualClock clock;
  auto sink = std::make_shared<CountingSink>();
  Session s(1, testing::shipped_setup(), sink, SessionOptions{}, clock);
  auto stalled = std::make_shared<ObserverQueue>(nullptr);   // never read
  ReadingObserver reader;
  ASSERT_TRUE(s.attach_observer(stalled));
  ASSERT_TRUE(s.attach_observer(reader.queue));
  s.start();
  ASSERT_TRUE(eventually([&] { return reader.count() >= 400; }));
  const std::size_t trainee = sink->wait_for(400).size();
  s.stop();
  EXPECT_GE(trainee, 400u);
  EXPECT_GE(stalled->pushed(), 400u);
  EXPECT_EQ(stalled->pushed() - stalled->dropped(), ObserverQueue::kFrames)
      << "the stalled queue holds only its newest frames";
  EXPECT_EQ(s.counters().send_failures, 0u);
}

TEST(Observers, TheEndOfTheSessionReachesEveryObserverAndNoneAttachesAfter) {
  ManualClock clock;
  Session s(7, testing::shipped_setup(), std::make_shared<CountingSink>(), SessionOptions{},
            clock);
  ReadingObserver a, b;
  ASSERT_TRUE(s.attach_observer(a.queue));
  ASSERT_TRUE(s.attach_observer(b.queue));
  s.start();
  ASSERT_TRUE(eventually([&] { return a.count() >= 3; }));
  s.stop();
  for (ReadingObserver* o : {&a, &b}) {
    std::lock_guard<std::mutex> lock(o->mutex);
    EXPECT_EQ(o->ended, "session 7 (t250) ended");
  }
  ReadingObserver late;
  EXPECT_FALSE(s.attach_observer(late.queue));
  EXPECT_EQ(s.observer_count(), 0u);
}

TEST(Observers, ADetachedObserverGetsNothingMore) {
  ManualClock clock;
  Session s(1, testing::shipped_setup(), std::make_shared<CountingSink>(), SessionOptions{},
            clock);
  ReadingObserver a, b;
  ASSERT_TRUE(s.attach_observer(a.queue));
  ASSERT_TRUE(s.attach_observer(b.queue));
  s.start();
  ASSERT_TRUE(eventually([&] { return a.count() >= 3; }));
  s.detach_observer(a.queue.get());
  s.detach_observer(a.queue.get());   // idempotent
  const std::uint64_t pushed = a.queue->pushed();
  const std::size_t b_then = b.count();
  ASSERT_TRUE(eventually([&] { return b.count() >= b_then + 20; }));
  s.stop();
  EXPECT_EQ(a.queue->pushed(), pushed);
  std::lock_guard<std::mutex> lock(a.mutex);
  EXPECT_TRUE(a.ended.empty()) << "a detached observer is not told the end either";
}

// The events between frames: counters that rose, the jaws, the task, a restart.
TEST(Observers, EventsComeFromTheDifferenceBetweenFrames) {
  EventWatch watch;
  Frame f;
  ObservedFrame out;
  watch.update(f, false, &out);
  EXPECT_EQ(out.event_count, 0u) << "the first frame is the baseline";
  f.outputs.events.rack_gate_hits = 2;
  f.outputs.held_load = 3;
  f.score.delivered = 1;
  watch.update(f, false, &out);
  ASSERT_EQ(out.event_count, 3u);
  EXPECT_EQ(out.events[0].kind, ObserverEventKind::RackGateHit);
  EXPECT_EQ(out.events[0].value, 2);
  EXPECT_EQ(out.events[1].kind, ObserverEventKind::Grip);
  EXPECT_EQ(out.events[1].value, 3);
  EXPECT_EQ(out.events[2].kind, ObserverEventKind::Delivered);
  f.outputs.held_load = -1;
  f.score.finished = true;
  f.score.completed = true;
  watch.update(f, false, &out);
  ASSERT_EQ(out.event_count, 2u);
  EXPECT_EQ(out.events[0].kind, ObserverEventKind::Release);
  EXPECT_EQ(out.events[0].value, 3);
  EXPECT_EQ(out.events[1].kind, ObserverEventKind::TaskFinished);
  f.outputs.events.rack_gate_hits = 0;   // a new attempt starts its counters again
  watch.update(f, true, &out);
  ASSERT_EQ(out.event_count, 1u);
  EXPECT_EQ(out.events[0].kind, ObserverEventKind::Restart);
  watch.update(f, false, nullptr);   // nobody watching: the baseline still moves
  f.outputs.events.slack_cables = 1;
  watch.update(f, false, &out);
  ASSERT_EQ(out.event_count, 1u);
  EXPECT_STREQ(to_string(out.events[0].kind), "slack_cable");
}

}  // namespace
}  // namespace clamsim::session
