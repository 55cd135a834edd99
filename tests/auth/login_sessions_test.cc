#include "auth/login_sessions.h"

#include <gtest/gtest.h>

#include "fake_time.h"

namespace clamsim::auth {
namespace {

using namespace std::chrono_literals;

using testing::FakeTime;

TEST(LoginSessions, TokenIs256RandomBits) {
  FakeTime t;
  LoginSessions s({}, t.fn());
  const std::string a = s.open("ada"), b = s.open("ada");
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
  EXPECT_EQ(s.who(a), "ada");
  EXPECT_FALSE(s.who(std::string(64, '0')).has_value());
  EXPECT_FALSE(s.who("").has_value());
}

TEST(LoginSessions, IdleTimeoutRestartsWithEachRequest) {
  FakeTime t;
  LoginSessions s({60.0, 3600.0}, t.fn());
  const std::string token = s.open("ada");
  t.now += 50s;
  EXPECT_EQ(s.who(token), "ada");
  t.now += 50s;  // 100 s after login, 50 s idle
  EXPECT_EQ(s.who(token), "ada");
  t.now += 60s;
  EXPECT_FALSE(s.who(token).has_value());
  EXPECT_EQ(s.size(), 0u) << "an expired login is forgotten";
}

TEST(LoginSessions, AbsoluteLifetimeEndsABusyLogin) {
  FakeTime t;
  LoginSessions s({60.0, 300.0}, t.fn());
  const std::string token = s.open("ada");
  for (int i = 0; i < 9; ++i) {
    t.now += 30s;
    EXPECT_EQ(s.who(token), "ada") << i;
  }
  t.now += 30s;  // 300 s
  EXPECT_FALSE(s.who(token).has_value());
}

TEST(LoginSessions, LogoutEndsOnlyThatLogin) {
  FakeTime t;
  LoginSessions s({}, t.fn());
  const std::string a = s.open("ada"), b = s.open("grace");
  EXPECT_TRUE(s.close(a));
  EXPECT_FALSE(s.close(a));
  EXPECT_FALSE(s.who(a).has_value());
  EXPECT_EQ(s.who(b), "grace");
}

TEST(LoginSessions, BoundedTableDropsTheOldest) {
  FakeTime t;
  LoginLimits l;
  l.max_logins = 3;
  LoginSessions s(l, t.fn());
  std::vector<std::string> tokens;
  for (int i = 0; i < 5; ++i) {
    tokens.push_back(s.open("user" + std::to_string(i)));
    t.now += 1s;
  }
  EXPECT_EQ(s.size(), 3u);
  EXPECT_FALSE(s.who(tokens[0]).has_value());
  EXPECT_FALSE(s.who(tokens[1]).has_value());
  EXPECT_EQ(s.who(tokens[4]), "user4");
}

}  // namespace
}  // namespace clamsim::auth
