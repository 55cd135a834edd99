// web/client_limits.cc: connections counted in total and per client address.
#include "web/client_limits.h"

#include <gtest/gtest.h>

namespace clamsim::web {
namespace {

using A = ClientLimits::Admit;

TEST(ClientLimits, OneClientFillsOnlyItsShare) {
  ClientLimits l(5, 2);
  EXPECT_EQ(l.admit("10.0.0.1"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.1"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.1"), A::ClientFull);
  EXPECT_EQ(l.open_from("10.0.0.1"), 2u);
  EXPECT_EQ(l.admit("10.0.0.2"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.2"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.3"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.4"), A::TotalFull);
  EXPECT_EQ(l.open(), 5u);
  l.release("10.0.0.1");
  EXPECT_EQ(l.admit("10.0.0.4"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.1"), A::TotalFull);
}

TEST(ClientLimits, ReleasingEverythingForgetsTheClient) {
  ClientLimits l(10, 3);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(l.admit("c"), A::Ok);
  for (int i = 0; i < 3; ++i) l.release("c");
  EXPECT_EQ(l.open(), 0u);
  EXPECT_EQ(l.open_from("c"), 0u);
  l.release("c");  // one too many: ignored, never below zero
  EXPECT_EQ(l.open(), 0u);
  EXPECT_EQ(l.admit("c"), A::Ok);
}

// The token bucket: a burst, then one connection per 1/rate seconds; another address has
// its own bucket; closing connections gives no tokens back.
TEST(ClientLimits, NewConnectionsPerSecondPerClient) {
  ClientLimits l(100, 100, ConnectionRate{2.0, 3.0});
  const auto t0 = ClientLimits::Clock::time_point{} + std::chrono::hours(1);
  const auto at = [&](double s) {
    return t0 + std::chrono::duration_cast<ClientLimits::Clock::duration>(
                    std::chrono::duration<double>(s));
  };
  for (int i = 0; i < 3; ++i) EXPECT_EQ(l.admit("a", at(0)), A::Ok) << i;
  EXPECT_EQ(l.admit("a", at(0)), A::ClientRate);
  EXPECT_EQ(l.admit("b", at(0)), A::Ok) << "another address";
  for (int i = 0; i < 3; ++i) l.release("a");
  EXPECT_EQ(l.admit("a", at(0.2)), A::ClientRate) << "0.4 tokens after 0.2 s";
  EXPECT_EQ(l.admit("a", at(0.5)), A::Ok) << "one token after 0.5 s";
  EXPECT_EQ(l.admit("a", at(0.6)), A::ClientRate);
  EXPECT_EQ(l.admit("a", at(100)), A::Ok) << "refilled, up to the burst";
  EXPECT_EQ(l.admit("a", at(100)), A::Ok);
  EXPECT_EQ(l.admit("a", at(100)), A::Ok);
  EXPECT_EQ(l.admit("a", at(100)), A::ClientRate);
  EXPECT_EQ(l.open_from("a"), 4u) << "refused connections are not counted as open";
}

// Rate 0 is no rate limit; a refusal over the rate leaves the open counts alone.
TEST(ClientLimits, ZeroRateIsUnlimited) {
  ClientLimits l(1000, 1000, ConnectionRate{0.0, 1.0});
  for (int i = 0; i < 500; ++i) ASSERT_EQ(l.admit("a"), A::Ok);
  EXPECT_EQ(l.tracked_rates(), 0u);
}

// Many addresses cannot grow the rate table without bound: refilled buckets are dropped.
TEST(ClientLimits, TheRateTableForgetsIdleAddresses) {
  ClientLimits l(1u << 20, 10, ConnectionRate{10.0, 2.0});
  const auto t0 = ClientLimits::Clock::time_point{} + std::chrono::hours(1);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(l.admit("10.0." + std::to_string(i), t0), A::Ok);
    l.release("10.0." + std::to_string(i));
  }
  EXPECT_GT(l.tracked_rates(), 4096u);
  EXPECT_EQ(l.admit("late", t0 + std::chrono::seconds(1)), A::Ok);
  EXPECT_EQ(l.tracked_rates(), 1u) << "every idle bucket had refilled";
}

}  // namespace
}  // namespace clamsim::web
