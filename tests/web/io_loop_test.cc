#include "web/io_loop.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <future>
#include <thread>

namespace clamsim::web {
namespace {

namespace net = boost::asio;
using std::chrono::microseconds;
using std::chrono::milliseconds;

// One I/O thread running the loop, as WebServer does; stop() ends it and returns its counts.
// It counts, as they happen, the times the loop went to wait for the next event.
class LoopThread {
 public:
  explicit LoopThread(microseconds tick)
      : work_(ioc_.get_executor()),
        done_(std::async(std::launch::async, [this, tick] {
          return run_io_loop(ioc_, tick, [this] {
            std::lock_guard<std::mutex> lock(mutex_);
            ++blocked_;
            cv_.notify_all();
          });
        })) {}
  // a test that ended early (a failed ASSERT) must not leave the thread blocked
  ~LoopThread() { ioc_.stop(); }
  net::io_context& ioc() { return ioc_; }
  IoLoopCounts stop() {
    ioc_.stop();
    return done_.get();
  }
  // Waits (the bound only says "never") until the loop has gone to wait for the next
  // event n times in all.
  bool wait_blocked(std::uint64_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] { return blocked_ >= n; });
  }
  // Stops the context; true when the loop returned within `bound`.
  bool stops_within(std::chrono::seconds bound) {
    ioc_.stop();
    return done_.wait_for(bound) == std::future_status::ready;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::uint64_t blocked_ = 0;
  net::io_context ioc_{1};
  net::executor_work_guard<net::io_context::executor_type> work_;
  std::future<IoLoopCounts> done_;
};

// Posts n handlers from this thread, spaced `gap` apart, each counting in `ran`, and waits
// (at most 5 s) until all of them have run.
void post_spaced(net::io_context& ioc, int n, microseconds gap, std::atomic<int>& ran) {
  const int until = ran.load() + n;
  for (int i = 0; i < n; ++i) {
    net::post(ioc, [&ran] { ran.fetch_add(1); });
    std::this_thread::sleep_for(gap);
  }
  for (int i = 0; i < 5000 && ran.load() < until; ++i) std::this_thread::sleep_for(milliseconds(1));
}

TEST(IoLoop, InTicksHandlesEveryPostWithFarFewerWakeUps) {
  // ticks of 20 ms: far longer than the posts' spacing even when a busy machine stretches
  // each 20 us sleep to a millisecond or more (ctest -j2 beside other tests), so a tick
  // always finds work and the count does not depend on how loaded the machine is
  LoopThread loop(milliseconds(20));
  std::atomic<int> ran{0};
  constexpr int kPosts = 2000;  // one every ~20 us, as 500 browsers' frames and controls
  post_spaced(loop.ioc(), kPosts, microseconds(20), ran);
  const IoLoopCounts c = loop.stop();
  EXPECT_EQ(ran.load(), kPosts);
  // a wake-up per event would be 2000; ticks of 20 ms over the 40 ms to 2 s this takes,
  // plus a block wherever a tick found nothing, are at most about a hundred
  EXPECT_LT(c.polls + c.blocks, kPosts / 4u) << c.polls << " polls, " << c.blocks << " blocks";
  EXPECT_GT(c.polls, 0u);
}

TEST(IoLoop, WhenQuietItBlocksAndAnswersTheNextEventWithoutATick) {
  // ticks of 10 s: an answer that waited for a tick would never come within the bound
  LoopThread loop(std::chrono::seconds(10));
  std::atomic<int> ran{0};
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(loop.wait_blocked(i + 1)) << "the loop did not go back to waiting";
    post_spaced(loop.ioc(), 1, microseconds(0), ran);
    ASSERT_EQ(ran.load(), i + 1) << "the event waited for a tick";
  }
  const IoLoopCounts c = loop.stop();
  EXPECT_GE(c.blocks, 3u);
}

TEST(IoLoop, TimersFireInTickMode) {
  LoopThread loop(milliseconds(1));
  net::steady_timer timer(loop.ioc(), milliseconds(20));
  std::promise<bool> fired;
  timer.async_wait([&fired](const boost::system::error_code& ec) { fired.set_value(!ec); });
  auto f = fired.get_future();
  ASSERT_EQ(f.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_TRUE(f.get());
  loop.stop();
}

TEST(IoLoop, StopEndsABlockedLoop) {
  LoopThread loop(milliseconds(1));
  ASSERT_TRUE(loop.wait_blocked(1)) << "with nothing to do it should wait";
  EXPECT_TRUE(loop.stops_within(std::chrono::seconds(20)));
}

TEST(IoLoop, TickZeroIsRun) {
  LoopThread loop(microseconds(0));
  std::atomic<int> ran{0};
  post_spaced(loop.ioc(), 10, microseconds(100), ran);
  const IoLoopCounts c = loop.stop();
  EXPECT_EQ(ran.load(), 10);
  EXPECT_EQ(c.polls + c.blocks, 0u);
}

}  // namespace
}  // namespace clamsim::web
