#include "session/registry.h"

#include <gtest/gtest.h>

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

TEST(Registry, RefusesAFramePeriodThatDoesNotFitTheStep) {
  SteadyClock clock;
  SessionRegistry r(RegistryOptions{}, clock);
  std::string why;
  EXPECT_EQ(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0.0125, {}, &why),
            nullptr);
  EXPECT_NE(why.find("not a whole number"), std::string::npos) << why;
  EXPECT_NE(r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0.04, {}, &why),
            nullptr) << "25 Hz fits the 1 ms step";
}

TEST(Registry, ReapsASessionWhoseReceiverStoppedAnsweringAndKeepsTheOthers) {
  SteadyClock clock;
  RegistryOptions o;
  o.send_grace_s = 0.3;
  o.reap_interval_s = 0.05;
  SessionRegistry r(o, clock);
  std::atomic<int> reaped{0};
  std::string why;
  auto good = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(true), 0, {}, &why);
  auto dead = r.create(testing::shipped_setup(), std::make_shared<CountingSink>(false), 0,
                       [&](const std::shared_ptr<Session>&) { ++reaped; }, &why);
  for (int i = 0; i < 100 && reaped == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(reaped, 1);
  EXPECT_EQ(r.sessions_reaped(), 1u);
  EXPECT_EQ(r.size(), 1u);
  EXPECT_TRUE(good->running());
  EXPECT_FALSE(dead->running());
  EXPECT_GT(r.totals().send_failures, 0u) << "counters of ended sessions are kept";
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

}  // namespace
}  // namespace clamsim::session
