// What every session of one server shares with it: the frame-timing histograms of
// /metrics, and the drain deadline that each session passes on to its clients in its
// frames (Frame::drain_s_left). Owned by the registry; sessions hold a pointer.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>

#include "session/clock.h"
#include "session/histogram.h"

namespace clamsim::session {

struct ServerWide {
  // Seconds, around the 50 ms frame period (thesis 4.3): lateness is how long after its
  // deadline a frame went out, compute how long integrating, scoring and serialising
  // one frame took on the session thread.
  Histogram lateness_s{{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0}};
  Histogram compute_s{{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1}};

  // Steady-clock time the drain ends at, in ns since the clock's epoch; -1 = no drain.
  std::atomic<std::int64_t> drain_deadline_ns{-1};

  // Seconds left of the drain at `now` (0 once it is over); -1 when not draining.
  double drain_seconds_left(Instant now) const {
    const std::int64_t deadline = drain_deadline_ns.load();
    if (deadline < 0) return -1.0;
    const std::int64_t now_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
    return deadline > now_ns ? static_cast<double>(deadline - now_ns) * 1e-9 : 0.0;
  }
};

// The drain notice every transport sends (WebSocket "drain", CORBA NoticeClient::notify): whole
// seconds left, rounded up, and the sentence shown to the trainee.
inline long drain_whole_seconds(double seconds_left) {
  return seconds_left < 0.0 ? -1 : std::lround(std::ceil(seconds_left));
}
inline std::string drain_notice_text(long whole_seconds) {
  return "The server is shutting down for maintenance: this session ends in " +
         std::to_string(whole_seconds) +
         " s. Finish the exercise; no new sessions start here.";
}

}  // namespace clamsim::session
