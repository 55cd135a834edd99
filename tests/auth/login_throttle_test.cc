#include "auth/login_throttle.h"

#include <gtest/gtest.h>

#include "fake_time.h"

#include <cstdio>
#include <string>

namespace clamsim::auth {
namespace {

using namespace std::chrono_literals;

using testing::FakeTime;

ThrottlePolicy policy() {
  ThrottlePolicy p;
  p.slow_after = 2;
  p.slow_delay_s = 1.0;
  p.lockout_after = 5;
  p.lockout_s = 60.0;
  return p;
}

TEST(LoginThrottle, SlowsDownThenLocksOutOneAddressOnly) {
  FakeTime t;
  LoginThrottle th(policy(), nullptr, t.fn());
  EXPECT_EQ(th.failed("10.0.0.1", "login").delay_s, 0.0);
  EXPECT_EQ(th.failed("10.0.0.1", "login").delay_s, 0.0);
  EXPECT_EQ(th.failed("10.0.0.1", "login").delay_s, 1.0);  // the third: slowed
  EXPECT_EQ(th.failed("10.0.0.1", "login").delay_s, 1.0);
  const ThrottleVerdict locked = th.failed("10.0.0.1", "login");
  EXPECT_TRUE(locked.locked);
  EXPECT_EQ(locked.retry_after_s, 60.0);
  EXPECT_TRUE(th.check("10.0.0.1").locked);
  EXPECT_FALSE(th.check("10.0.0.2").locked) << "another address is not affected";
  t.now += 59s;
  EXPECT_EQ(th.check("10.0.0.1").retry_after_s, 1.0);
  t.now += 1s;
  EXPECT_FALSE(th.check("10.0.0.1").locked);
  // after the lockout the count starts afresh
  EXPECT_EQ(th.failed("10.0.0.1", "login").delay_s, 0.0);
}

TEST(LoginThrottle, SuccessAndTimeForgetFailures) {
  FakeTime t;
  LoginThrottle th(policy(), nullptr, t.fn());
  for (int i = 0; i < 4; ++i) th.failed("a", "login");
  th.succeeded("a");
  EXPECT_EQ(th.failed("a", "login").delay_s, 0.0);
  for (int i = 0; i < 3; ++i) th.failed("b", "login");
  t.now += 61s;
  EXPECT_EQ(th.failed("b", "login").delay_s, 0.0) << "failures older than lockout_s are forgotten";
}

TEST(LoginThrottle, LockoutIsLoggedThroughTheEventLog) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    const base::EventLog log(base::LogFormat::Json, out);
    FakeTime t;
    LoginThrottle th(policy(), &log, t.fn());
    for (int i = 0; i < 5; ++i) th.failed("10.0.0.9", "class code");
  }
  std::rewind(out);
  std::string text;
  char buf[512];
  while (std::fgets(buf, sizeof buf, out)) text += buf;
  std::fclose(out);
  EXPECT_NE(text.find("\"event\":\"login_lockout\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"client\":\"10.0.0.9\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"what\":\"class code\""), std::string::npos) << text;
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line per lockout: " << text;
}

TEST(LoginThrottle, BoundedMemoryUnderAnAddressFlood) {
  FakeTime t;
  ThrottlePolicy p = policy();
  p.max_clients = 100;
  LoginThrottle th(p, nullptr, t.fn());
  for (int i = 0; i < 1000; ++i) {
    th.failed("10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250), "login");
    t.now += 1ms;
  }
  // the newest address is still tracked
  for (int i = 0; i < 3; ++i) th.failed("10.1.3.249", "login");
  EXPECT_TRUE(th.failed("10.1.3.249", "login").locked);
}

// Attempts under way count against the lockout, so however many
// arrive at once, no more than lockout_after guesses are ever checked per window.
TEST(LoginThrottle, AttemptsUnderWayCountAgainstTheLockout) {
  FakeTime t;
  ThrottlePolicy p = policy();   // lockout after 5
  p.max_in_flight = 3;
  LoginThrottle th(p, nullptr, t.fn());
  ThrottleVerdict refused;
  for (int i = 0; i < 3; ++i) {
    auto a = th.reserve("a", &refused);
    ASSERT_TRUE(a) << i;
    a->failed("login");
  }
  // three failures counted; two more guesses may be checked, not three
  auto x = th.reserve("a", &refused), y = th.reserve("a", &refused);
  ASSERT_TRUE(x && y);
  EXPECT_FALSE(th.reserve("a", &refused)) << "3 failed + 2 under way = the 5 allowed";
  EXPECT_TRUE(refused.busy);
  EXPECT_GE(refused.retry_after_s, 1.0);
  EXPECT_FALSE(x->failed("login").locked);
  EXPECT_TRUE(y->failed("login").locked);
  x.reset();
  y.reset();
  EXPECT_FALSE(th.reserve("a", &refused));
  EXPECT_TRUE(refused.locked);
  EXPECT_NE(th.reserve("b", &refused), nullptr) << "another address is not affected";
}

TEST(LoginThrottle, AtMostMaxInFlightAttemptsPerAddressAndAnUncheckedOneIsNotCounted) {
  FakeTime t;
  LoginThrottle th(policy(), nullptr, t.fn());   // max_in_flight 2
  ThrottleVerdict refused;
  auto a = th.reserve("a", &refused), b = th.reserve("a", &refused);
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(th.reserve("a", &refused));
  EXPECT_TRUE(refused.busy);
  EXPECT_FALSE(refused.locked);
  EXPECT_NE(th.reserve("c", &refused), nullptr);
  a.reset();   // never checked (the queue was full): not a failure, and its place is free
  auto c = th.reserve("a", &refused);
  ASSERT_TRUE(c);
  // an answer still waiting out its slow-down keeps its place until it is sent
  for (int i = 0; i < 2; ++i) th.failed("d", "login");
  auto d = th.reserve("d", &refused);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->failed("login").delay_s, 1.0);
  auto e = th.reserve("d", &refused);
  ASSERT_TRUE(e);
  EXPECT_FALSE(th.reserve("d", &refused)) << "d's slowed answer still holds its place";
  d.reset();
  EXPECT_NE(th.reserve("d", &refused), nullptr);
  // a success forgets the failures
  b->succeeded();
  c->succeeded();
  b.reset();
  c.reset();
  EXPECT_EQ(th.failed("a", "login").delay_s, 0.0);
}

}  // namespace
}  // namespace clamsim::auth
