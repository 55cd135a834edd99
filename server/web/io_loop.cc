#include "web/io_loop.h"

#include <algorithm>
#include <thread>

namespace clamsim::web {

namespace {
// How long a thread woken from a quiet spell looks for more before blocking again: short
// enough that a quiet server's next event waits no longer than this, whatever the tick.
constexpr std::chrono::microseconds kLinger{1000};
}  // namespace

IoLoopCounts run_io_loop(boost::asio::io_context& ioc, std::chrono::microseconds tick,
                         const std::function<void()>& before_block) {
  IoLoopCounts counts;
  if (tick.count() <= 0) {
    ioc.run();
    return counts;
  }
  using Clock = std::chrono::steady_clock;
  Clock::time_point next = Clock::now();
  while (!ioc.stopped()) {
    if (ioc.poll() == 0) {
      if (ioc.stopped()) break;
      // nothing ready: wait for the next event like run(), and handle it at once
      ++counts.blocks;
      if (before_block) before_block();
      ioc.run_one();
      // then a short look (a tick, at most kLinger) at what follows before polling: events
      // that each arrive just after the last was handled (a busy machine stretches every
      // gap) go on in ticks, instead of one wake-up each from here on
      next = Clock::now() + std::min(tick, kLinger);
      std::this_thread::sleep_until(next);
      continue;
    }
    ++counts.polls;
    // the next tick one period on; a tick that ran long starts the next at once, without
    // catching up on the ones it missed
    next += tick;
    const Clock::time_point now = Clock::now();
    if (next < now) next = now;
    std::this_thread::sleep_until(next);
  }
  return counts;
}

}  // namespace clamsim::web
