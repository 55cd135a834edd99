#include "session/registry.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "test_setup.h"

namespace clamsim::session {
namespace {

class CountingSink : public FrameSink {
 public:
  explicit CountingSink(bool ok) : ok_(ok) {}
  bool deliver(const Frame&) override {
    ++count;
    return ok_;
  }
  std::atomic<int> count{0};

 private:
  bool ok_;
};

TEST(Registry, RefusesPastTheLimitWithAReason) {
  SteadyClock clock;
  RegistryOptions o;
  o.max_sessions = 2;
  SessionRegistry r(o, clock);
  std::string why;
  auto a = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why);
  auto b = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why);
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->id(), b->id());
  auto c = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why);
  EXPECT_EQ(c, nullptr);
  EXPECT_EQ(why, "server full: 2 of 2 sessions in use");
  EXPECT_TRUE(r.remove(a->id()));
  EXPECT_FALSE(r.remove(a->id()));
  EXPECT_FALSE(a->running()) << "removal stops the thread";
  EXPECT_NE(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why),
            nullptr);
}

// A sink whose connection comes from `address` (FrameSink::client_address).
class AddressedSink : public CountingSink {
 public:
  explicit AddressedSink(std::string address) : CountingSink(true), address_(std::move(address)) {}
  std::string client_address() const override { return address_; }

 private:
  std::string address_;
};

TEST(Registry, CapsSessionsPerClientAddressAndCountsEveryRefusalByReason) {
  SteadyClock clock;
  RegistryOptions o;
  o.max_sessions = 5;
  o.max_sessions_per_client = 2;
  SessionRegistry r(o, clock);
  std::string why;
  const auto start = [&](const std::string& address) {
    return r.create(testing::shipped_setup(), std::make_shared<AddressedSink>(address), 0, {},
                    &why);
  };
  auto a1 = start("10.0.0.1");
  auto a2 = start("10.0.0.1");
  ASSERT_TRUE(a1 && a2);
  EXPECT_EQ(start("10.0.0.1"), nullptr);
  EXPECT_EQ(why, "too many sessions from 10.0.0.1: 2 of 2 allowed per client address are running");
  EXPECT_NE(start("10.0.0.2"), nullptr) << "another address";
  // sinks that name no address (CORBA receivers) are not counted per client
  EXPECT_NE(start(""), nullptr);
  EXPECT_NE(start(""), nullptr);
  EXPECT_EQ(start("10.0.0.3"), nullptr);
  EXPECT_EQ(why, "server full: 5 of 5 sessions in use") << "the total is checked first";
  EXPECT_TRUE(r.remove(a1->id()));
  EXPECT_NE(start("10.0.0.1"), nullptr) << "a freed slot is taken again";
  EXPECT_EQ(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0.0333, {},
                     &why),
            nullptr);
  EXPECT_EQ(r.sessions_refused(Refusal::PerClient), 1u);
  EXPECT_EQ(r.sessions_refused(Refusal::Full), 1u);
  EXPECT_EQ(r.sessions_refused(Refusal::Period), 1u);
  EXPECT_EQ(r.sessions_refused(Refusal::Draining), 0u);
}

TEST(Registry, RefusesAFramePeriodThatDoesNotFitTheStep) {
  SteadyClock clock;
  SessionRegistry r(RegistryOptions{}, clock);
  std::string why;
  EXPECT_EQ(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0.0135, {}, &why),
            nullptr);   // 5.4 steps of 2.5 ms
  EXPECT_NE(why.find("not a whole number"), std::string::npos) << why;
  EXPECT_NE(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0.04, {}, &why),
            nullptr) << "25 Hz fits the 2.5 ms step (16 steps)";
}

// On the manual clock the sessions run their schedule as fast as they can, so the grace
// period passes in clock time without the test waiting for it; the reap is an event (the
// handler), and the clock time it came at shows the grace period was kept.
TEST(Registry, ReapsASessionWhoseReceiverStoppedAnsweringAndKeepsTheOthers) {
  ManualClock clock;
  const Instant start = clock.now();
  RegistryOptions o;
  o.send_grace_s = 0.3;
  o.reap_interval_s = 0.05;
  SessionRegistry r(o, clock);
  std::mutex mutex;
  std::condition_variable cv;
  int reaped = 0;
  Instant reaped_at{};
  std::string why;
  auto good = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why);
  auto dead = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(false), 0,
                       [&](const std::shared_ptr<Session>&) {
                         std::lock_guard<std::mutex> lock(mutex);
                         ++reaped;
                         reaped_at = clock.now();
                         cv.notify_all();
                       },
                       &why);
  {
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return reaped > 0; }))
        << "the dead session was never reaped";
    // its first send failed at the first frame, 50 ms in: the grace period runs from there
    EXPECT_GT(reaped_at - start, std::chrono::milliseconds(50 + 300))
        << "reaped before its sends had failed for the grace period";
  }
  EXPECT_EQ(r.sessions_reaped(), 1u);
  EXPECT_EQ(r.size(), 1u);
  EXPECT_TRUE(good->running());
  EXPECT_FALSE(dead->running());
  EXPECT_GT(r.totals().send_failures, 0u) << "counters of ended sessions are kept";
  std::lock_guard<std::mutex> lock(mutex);
  EXPECT_EQ(reaped, 1) << "reaped once";
}

TEST(Registry, CloseStopsEverySessionAndRefusesNewOnes) {
  SteadyClock clock;
  SessionRegistry r(RegistryOptions{}, clock);
  std::string why;
  std::vector<std::shared_ptr<Session>> all;
  for (int i = 0; i < 10; ++i)
    all.push_back(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why));
  r.close();
  EXPECT_EQ(r.size(), 0u);
  for (const auto& s : all) EXPECT_FALSE(s->running());
  EXPECT_EQ(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why),
            nullptr);
  EXPECT_EQ(why, "server is shutting down");
}


// A sink that blocks in deliver() until released: a session thread stuck in its transport.
class BlockingSink : public FrameSink {
 public:
  bool deliver(const Frame&) override {
    std::unique_lock<std::mutex> lock(mutex_);
    entered_ = true;
    cv_.notify_all();
    cv_.wait(lock, [this] { return released_; });
    return true;
  }
  void wait_entered() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return entered_; });
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool entered_ = false;
  bool released_ = false;
};

TEST(Registry, ReadinessSaysFullDrainingAndStopping) {
  SteadyClock clock;
  RegistryOptions o;
  o.max_sessions = 1;
  SessionRegistry r(o, clock);
  EXPECT_TRUE(r.readiness().ready);
  EXPECT_EQ(r.readiness().status, "ready");
  std::string why;
  auto a = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why);
  ASSERT_NE(a, nullptr);
  EXPECT_FALSE(r.readiness().ready);
  EXPECT_EQ(r.readiness().status, "full");
  EXPECT_NE(r.readiness().reason.find("1 sessions"), std::string::npos) << r.readiness().reason;
  r.remove(a->id());
  EXPECT_TRUE(r.readiness().ready);

  r.begin_drain(30.0);
  EXPECT_TRUE(r.draining());
  EXPECT_EQ(r.readiness().status, "draining");
  EXPECT_EQ(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why),
            nullptr);
  EXPECT_NE(why.find("draining"), std::string::npos) << why;
  r.close();
  EXPECT_EQ(r.readiness().status, "stopping");
}

TEST(Registry, DrainDeadlineReachesEveryFrame) {
  ManualClock clock;
  SessionRegistry r(RegistryOptions{}, clock);
  const ServerWide& wide = r.wide();
  EXPECT_LT(wide.drain_seconds_left(clock.now()), 0.0) << "not draining";
  r.begin_drain(30.0);
  EXPECT_NEAR(wide.drain_seconds_left(clock.now()), 30.0, 1e-9);
  clock.advance(std::chrono::seconds(12));
  EXPECT_NEAR(wide.drain_seconds_left(clock.now()), 18.0, 1e-9);
  clock.advance(std::chrono::seconds(40));
  EXPECT_EQ(wide.drain_seconds_left(clock.now()), 0.0) << "over, never negative";
  EXPECT_EQ(drain_whole_seconds(17.2), 18) << "rounded up: never promises less than is left";
  EXPECT_EQ(drain_whole_seconds(-1.0), -1);
}

// On the manual clock, with the stuck session's thread blocked in its sink, clock time
// moves only when the test (or another session's schedule) moves it: "stuck for longer than
// the limit" is set up exactly instead of slept for.
TEST(Registry, StalledSessionsAreTheOnesStuckInTheirSink) {
  ManualClock clock;
  SessionRegistry r(RegistryOptions{}, clock);
  std::string why;
  auto sink = std::make_shared<BlockingSink>();
  auto stuck = r.create(testing::shipped_setup(), sink, 0, {}, &why);
  ASSERT_NE(stuck, nullptr);
  sink->wait_entered();
  const auto limit = std::chrono::milliseconds(300);
  EXPECT_TRUE(r.stalled_sessions(limit).empty()) << "not yet: it only just blocked";
  clock.advance(std::chrono::milliseconds(250));
  EXPECT_TRUE(r.stalled_sessions(limit).empty()) << "250 ms is within the limit";
  clock.advance(std::chrono::milliseconds(100));
  EXPECT_EQ(r.stalled_sessions(limit), std::vector<std::uint64_t>{stuck->id()});

  // a session that keeps sending is never listed, however far its schedule moves the clock
  auto counting = std::make_shared<CountingSink>(true);
  auto healthy = r.create(testing::shipped_setup(), counting, 0, {}, &why);
  ASSERT_NE(healthy, nullptr);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (counting->count < 20 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  ASSERT_GE(counting->count, 20) << "the healthy session never sent 20 frames";
  EXPECT_EQ(r.stalled_sessions(limit), std::vector<std::uint64_t>{stuck->id()});
  r.remove(healthy->id());  // from here only the released session's schedule moves the clock

  sink->release();
  bool moving = false;
  while (!moving && std::chrono::steady_clock::now() < deadline)
    moving = r.stalled_sessions(limit).empty();
  EXPECT_TRUE(moving) << "still listed after its sink let it go";
  EXPECT_TRUE(stuck->running());
}

// A removed session leaves size() at once but is not stopped until its thread has finished
// (and with it its recording): all_stopped() waits for that.
TEST(Registry, AllStoppedOnlyOnceTheRemovedSessionsThreadHasFinished) {
  SteadyClock clock;
  SessionRegistry r(RegistryOptions{}, clock);
  EXPECT_TRUE(r.all_stopped()) << "nothing ever ran";
  std::string why;
  auto sink = std::make_shared<BlockingSink>();
  auto stuck = r.create(testing::shipped_setup(), sink, 0, {}, &why);
  ASSERT_NE(stuck, nullptr);
  sink->wait_entered();
  EXPECT_FALSE(r.all_stopped());
  std::thread remover([&] { r.remove(stuck->id()); });   // joins the thread stuck in its sink
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (r.size() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(r.size(), 0u) << "no longer live";
  EXPECT_FALSE(r.all_stopped()) << "its thread is still in deliver()";
  sink->release();
  remover.join();
  EXPECT_TRUE(r.all_stopped());
  EXPECT_FALSE(stuck->running());
}

TEST(Registry, SessionsByTransportAndTheLogOfTheirLives) {
  SteadyClock clock;
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  {
    const base::EventLog log(base::LogFormat::Text, out);
    RegistryOptions o;
    o.log = &log;
    SessionRegistry r(o, clock);
    std::string why;
    auto a = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why);
    EXPECT_EQ(r.sessions_by_transport(), (std::map<std::string, std::size_t>{{"other", 1}}));
    r.remove(a->id());
    EXPECT_TRUE(r.sessions_by_transport().empty());
  }
  std::fclose(out);
  const std::string lines(text, size);
  std::free(text);
  EXPECT_NE(lines.find(" session_start id=1 transport=other peer=\"\" model=t250"),
            std::string::npos) << lines;
  EXPECT_NE(lines.find(" session_end id=1 transport=other"), std::string::npos) << lines;
  EXPECT_NE(lines.find("outcome=client_left"), std::string::npos) << lines;
  EXPECT_NE(lines.find("duration_s="), std::string::npos) << lines;
}

}  // namespace
}  // namespace clamsim::session
