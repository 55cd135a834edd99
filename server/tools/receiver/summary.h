// The receiver's exit report: the thesis's Table 5.2 for one receiver (oneway calls sent
// and received in each direction), lost frames, and the frame timing.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "core/params.h"
#include "tools/client/arrival_stats.h"
#include "tools/client/received_frame.h"
#include "tools/client/subscription.h"

namespace clamsim::receiver {

struct RunReport {
  bool legacy = false;
  double period_s = core::kFramePeriod_s;
  double duration_s = 0.0;             // subscription to the end of sending
  std::uint64_t controls_sent = 0;     // GetControlInput oneways that did not raise
  std::uint64_t control_failures = 0;  // ... that raised
  client::ArrivalStats frames{core::kFramePeriod_s};
  std::optional<client::SessionCounters> server;  // CLAMX::Session::stats() at the end
  bool server_lost = false;  // sends kept failing, so no counters were asked for
  std::optional<client::ReceivedScore> task;  // the last frame's score, when there is a task
  std::uint64_t restarts = 0;                 // restartTask calls that went through
  std::uint64_t task_reports = 0;             // reports received (tasks that ended)
  std::string report_saved;                   // where the last one was saved, "" none
  // --observe: the session watched (0: we drove our own), the events seen, why it ended
  std::uint64_t observed_session = 0;
  std::uint64_t events_seen = 0;
  std::string observation_end;                // the server's reason, "" when we stopped
};

// Frames lost: for extended frames the ones the server numbered (0 .. last seq received)
// but that never arrived; for legacy ones, those a 1/period schedule between the first
// and last arrival would have delivered.
std::uint64_t lost_frames(const RunReport& r);

void print_summary(std::FILE* out, const RunReport& r);

}  // namespace clamsim::receiver
