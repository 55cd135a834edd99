#include "auth/observe_tickets.h"

#include <gtest/gtest.h>

#include "fake_time.h"

namespace clamsim::auth {
namespace {

using namespace std::chrono_literals;

using testing::FakeTime;

TEST(ObserveTickets, ATicketWatchesItsSessionOnceAndNamesWhoAskedForIt) {
  FakeTime t;
  ObserveTickets tickets({}, t.fn());
  const std::string ticket = tickets.issue(7, "ada");
  EXPECT_EQ(ticket.size(), 64u);
  EXPECT_EQ(ticket.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(ticket, tickets.issue(7, "ada"));
  std::string why;
  const auto r = tickets.redeem(ticket, 7, &why);
  ASSERT_TRUE(r.has_value()) << why;
  EXPECT_EQ(r->instructor, "ada");
  EXPECT_FALSE(tickets.redeem(ticket, 7, &why).has_value()) << "used once";
  EXPECT_NE(why.find("unknown ticket"), std::string::npos) << why;
}

TEST(ObserveTickets, AnotherSessionsTicketIsRefusedNamingBothAndIsUsedUp) {
  FakeTime t;
  ObserveTickets tickets({}, t.fn());
  const std::string ticket = tickets.issue(7, "ada");
  std::string why;
  EXPECT_FALSE(tickets.redeem(ticket, 8, &why).has_value());
  EXPECT_NE(why.find("session 7, not 8"), std::string::npos) << why;
  EXPECT_FALSE(tickets.redeem(ticket, 7, &why).has_value())
      << "a ticket tried on the wrong session is spent: no guessing game";
}

TEST(ObserveTickets, TicketsExpireAfterTheirLifetime) {
  FakeTime t;
  ObserveTickets tickets({60.0, 16}, t.fn());
  const std::string early = tickets.issue(3, "ada");
  const std::string late = tickets.issue(3, "ada");
  t.now += 59s;
  std::string why;
  EXPECT_TRUE(tickets.redeem(early, 3, &why).has_value()) << why;
  t.now += 1s;
  EXPECT_FALSE(tickets.redeem(late, 3, &why).has_value());
  EXPECT_NE(why.find("expired"), std::string::npos) << why;
}

TEST(ObserveTickets, GarbageIsUnknownAndTheTableIsBounded) {
  FakeTime t;
  ObserveTickets tickets({300.0, 4}, t.fn());
  std::string why;
  for (const char* junk : {"", "x", "0123", "\xff\xfe"})
    EXPECT_FALSE(tickets.redeem(junk, 1, &why).has_value()) << junk;
  EXPECT_FALSE(tickets.redeem(std::string(64, 'a'), 1, &why).has_value());
  const std::string first = tickets.issue(1, "ada");
  for (int i = 0; i < 10; ++i) {
    t.now += 1s;
    tickets.issue(1, "ada");
  }
  EXPECT_EQ(tickets.size(), 4u);
  EXPECT_FALSE(tickets.redeem(first, 1, &why).has_value()) << "the oldest went first";
}

}  // namespace
}  // namespace clamsim::auth
