// How an I/O thread runs the web server's io_context, with fewer wake-ups than
// run() gives.
//
// io_context::run() wakes the thread for every event: each frame a session posts and each
// control a browser sends is a context switch, two per browser frame at 20 Hz. Under load
// that was most of the server's switches (4.6 per frame at 300 browsers, kernel 33 % of its
// CPU). In ticks the thread handles everything that is ready, sleeps until the next tick,
// and so serves a whole tick's events per wake-up; an event waits at most one tick. When a
// poll finds nothing to do (a quiet server, a handful of browsers) the thread blocks for the
// next event as run() does, and answers it at once, then looks again a tick (at most 1 ms)
// later: a steady stream goes back to ticks, and ticks cost nothing while idle.
#pragma once

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdint>
#include <functional>

namespace clamsim::web {

struct IoLoopCounts {
  std::uint64_t polls = 0;    // ticks that found work and handled it
  std::uint64_t blocks = 0;   // waits for the next event, after a tick found nothing
};

// Runs `ioc` until it stops. tick 0: io_context::run() (a wake-up per event).
// `before_block`, if set, is called on the loop's thread each time it is about to wait for
// the next event (a tick found nothing): tests wait for that instead of sleeping.
IoLoopCounts run_io_loop(boost::asio::io_context& ioc, std::chrono::microseconds tick,
                         const std::function<void()>& before_block = {});

}  // namespace clamsim::web
