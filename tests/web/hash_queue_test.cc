// The password checks' fair queue (web/hash_queue.h): one address's flood waits behind
// another address's single job, never in front of it; the queue is bounded; stop() runs
// what waits and refuses the rest.
#include "web/hash_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <vector>

namespace clamsim::web {
namespace {

// A job that waits for `gate` before it ends, so the test decides when the thread moves on.
struct Gate {
  std::promise<void> opened;
  std::shared_future<void> wait = opened.get_future().share();
};

TEST(HashQueue, AnotherAddressWaitsOneTurnNotTheWholeFlood) {
  HashQueue q(32);
  std::mutex m;
  std::vector<std::string> order;
  Gate gate;
  std::promise<void> first_started;
  // the thread is busy with the flood's first job while the rest queues
  ASSERT_TRUE(q.push("10.0.0.1", [&] {
    first_started.set_value();
    gate.wait.wait();
    std::lock_guard<std::mutex> l(m);
    order.push_back("flood");
  }));
  first_started.get_future().wait();
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(q.push("10.0.0.1", [&] {
      std::lock_guard<std::mutex> l(m);
      order.push_back("flood");
    }));
  ASSERT_TRUE(q.push("10.0.0.2", [&] {
    std::lock_guard<std::mutex> l(m);
    order.push_back("honest");
  }));
  EXPECT_EQ(q.waiting(), 6u);
  gate.opened.set_value();
  q.stop();   // runs everything waiting
  ASSERT_EQ(order.size(), 7u);
  // the one under way, then one of the flood's at most, then the other address's
  const auto at = std::find(order.begin(), order.end(), "honest") - order.begin();
  EXPECT_LE(at, 2) << "the honest login waited behind " << at << " checks";
}

TEST(HashQueue, IsBoundedAndRefusesAfterStop) {
  HashQueue q(3);
  Gate gate;
  std::promise<void> started;
  ASSERT_TRUE(q.push("a", [&] {
    started.set_value();
    gate.wait.wait();
  }));
  started.get_future().wait();
  EXPECT_TRUE(q.push("a", [] {}));
  EXPECT_TRUE(q.push("b", [] {}));
  EXPECT_TRUE(q.push("c", [] {}));
  EXPECT_FALSE(q.push("d", [] {})) << "a fourth waiting job is past max_waiting 3";
  gate.opened.set_value();
  q.stop();
  EXPECT_EQ(q.waiting(), 0u);
  EXPECT_FALSE(q.push("a", [] {})) << "refused once stopped";
}

}  // namespace
}  // namespace clamsim::web
