// SharedState's posting gate (posts do not take the membership lock, so session threads
// never queue behind one another or behind join/leave): posts
// from many threads race stop_posts(); every post that said yes runs, none says yes once
// stop_posts() has returned, and join/leave go on while frames are posted.
#include "web/shared_state.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "session/clock.h"

namespace clamsim::web {
namespace {

namespace net = boost::asio;
const std::string kSource = CLAMSIM_SOURCE_DIR;

class SharedStatePost : public ::testing::Test {
 protected:
  SharedStatePost()
      : registry_(session::RegistryOptions{}, clock_),
        catalog_(kSource + "/models", kSource + "/config/scenarios", "t250") {
    WebOptions o;
    o.web_root = kSource + "/web";
    state_ = std::make_shared<SharedState>(o, registry_, catalog_,
                                           nlohmann::ordered_json::object());
  }
  session::ManualClock clock_;
  session::SessionRegistry registry_;
  const session::Catalog catalog_;
  std::shared_ptr<SharedState> state_;
};

TEST_F(SharedStatePost, EveryAcceptedPostRunsAndNoneAfterStop) {
  net::io_context ioc;
  auto work = net::make_work_guard(ioc);
  std::thread io([&] { ioc.run(); });   // drains the frames as the server's I/O thread does
  auto strand = net::make_strand(ioc);
  constexpr int kPosters = 4;
  std::atomic<long> accepted{0}, ran{0};
  std::atomic<bool> stopped{false};       // set once stop_posts() has returned
  std::atomic<long> accepted_after_stop{0};
  std::vector<std::thread> posters;
  for (int i = 0; i < kPosters; ++i) {
    posters.emplace_back([&] {
      // bounded: stops at the gate, or after 200000 posts at the latest
      for (int n = 0; n < 200'000; ++n) {
        const bool was_stopped = stopped.load();
        if (!state_->post(strand, [&ran] { ran.fetch_add(1); })) return;
        accepted.fetch_add(1);
        if (was_stopped) accepted_after_stop.fetch_add(1);
      }
    });
  }
  // membership changes while the posts go on: the gate is not the membership lock (the
  // pointers are only keys to SharedState, never followed)
  std::vector<std::unique_ptr<int>> fake(64);
  for (auto& f : fake) f = std::make_unique<int>(0);
  for (int round = 0; round < 50; ++round) {
    for (auto& f : fake)
      state_->join(reinterpret_cast<WebSocketSession*>(f.get()), {});
    for (auto& f : fake) state_->leave(reinterpret_cast<WebSocketSession*>(f.get()));
  }
  EXPECT_EQ(state_->open_websockets(), 0u);
  // on a loaded machine the posters may not have started yet: stop only once they post
  for (int i = 0; i < 10'000 && accepted.load() < kPosters; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  state_->stop_posts();
  stopped = true;
  for (std::thread& t : posters) t.join();
  EXPECT_EQ(accepted_after_stop.load(), 0);
  EXPECT_FALSE(state_->post(strand, [] {}));
  work.reset();
  io.join();  // the io_context may go now: every accepted post was in its queue
  EXPECT_EQ(ran.load(), accepted.load());
  EXPECT_GT(accepted.load(), 0);
}

}  // namespace
}  // namespace clamsim::web
