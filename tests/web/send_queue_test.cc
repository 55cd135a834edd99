#include "web/send_queue.h"

#include <gtest/gtest.h>

#include "web/rate_limit.h"

namespace clamsim::web {
namespace {

using Kind = SendQueue::Kind;

SendQueue::Item item(const std::string& s, Kind k) {
  return {std::make_shared<const std::string>(s), k};
}

TEST(SendQueue, DropsTheOldestDisplayFrameNotOnTheWire) {
  SendQueue q(3);
  EXPECT_FALSE(q.push(item("d0", Kind::Display)));
  q.begin_write();  // d0 is on the wire
  EXPECT_FALSE(q.push(item("d1", Kind::Display)));
  EXPECT_FALSE(q.push(item("e", Kind::Other)));
  const auto dropped = q.push(item("d2", Kind::Display));
  ASSERT_TRUE(dropped);
  EXPECT_EQ(*dropped, Kind::Display);
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(*q.front().text, "d0") << "the message being written stays";
  q.end_write();
  EXPECT_EQ(*q.front().text, "e") << "d1 went, the error stays";
  q.begin_write();
  q.end_write();
  EXPECT_EQ(*q.front().text, "d2");
}

TEST(SendQueue, NeverGrowsPastItsLimit) {
  SendQueue q(8);
  int dropped = 0;
  for (int i = 0; i < 1000; ++i)
    if (q.push(item("d" + std::to_string(i), Kind::Display))) ++dropped;
  EXPECT_EQ(q.size(), 8u);
  EXPECT_EQ(dropped, 992);
  EXPECT_EQ(*q.front().text, "d992") << "the newest eight remain";
}

TEST(SendQueue, DropsTheNewMessageWhenOnlyNonDisplayMessagesWait) {
  SendQueue q(2);
  q.push(item("a", Kind::Other));
  q.push(item("b", Kind::Other));
  EXPECT_EQ(q.push(item("c", Kind::Other)), Kind::Other);
  EXPECT_EQ(q.push(item("d", Kind::Display)), Kind::Display);
  EXPECT_EQ(*q.front().text, "a");
  EXPECT_EQ(q.size(), 2u);
}

TEST(SendQueue, ClearPendingKeepsTheMessageOnTheWire) {
  SendQueue q(4);
  q.push(item("a", Kind::Display));
  q.push(item("b", Kind::Display));
  q.begin_write();
  q.clear_pending();
  EXPECT_EQ(q.size(), 1u);
  q.end_write();
  EXPECT_TRUE(q.empty());
}

TEST(RateLimit, AllowsTheLimitPerSlidingWindowAndNoMore) {
  using C = RateLimit::Clock;
  RateLimit r(200, std::chrono::seconds(1));
  const C::time_point t0{};
  for (int i = 0; i < 200; ++i) EXPECT_TRUE(r.allow(t0 + std::chrono::milliseconds(i)));
  EXPECT_FALSE(r.allow(t0 + std::chrono::milliseconds(500))) << "201 within one second";
  EXPECT_TRUE(r.allow(t0 + std::chrono::milliseconds(1000))) << "the first has left the window";
  EXPECT_FALSE(r.allow(t0 + std::chrono::milliseconds(1000)));
  EXPECT_TRUE(r.allow(t0 + std::chrono::milliseconds(1001)));
}

// What waits for a browser counts toward its stall (WebOptions::max_queued_bytes).
TEST(SendQueue, PendingBytesCountEveryMessageHeld) {
  SendQueue q(3);
  EXPECT_EQ(q.pending_bytes(), 0u);
  q.push({std::make_shared<const std::string>(100, 'a'), SendQueue::Kind::Display});
  q.push({std::make_shared<const std::string>(20, 'b'), SendQueue::Kind::Other});
  q.begin_write();
  EXPECT_EQ(q.pending_bytes(), 120u) << "the message on the wire too";
  q.end_write();
  EXPECT_EQ(q.pending_bytes(), 20u);
  q.clear_pending();
  EXPECT_EQ(q.pending_bytes(), 0u);
}

TEST(RateLimit, TwentyHertzForeverIsFine) {
  using C = RateLimit::Clock;
  RateLimit r(200, std::chrono::seconds(1));
  for (int i = 0; i < 10000; ++i)
    ASSERT_TRUE(r.allow(C::time_point{} + std::chrono::milliseconds(50 * i)));
}

}  // namespace
}  // namespace clamsim::web
