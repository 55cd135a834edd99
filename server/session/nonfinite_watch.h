// Watches a session's machine for integration steps that went NaN or inf. Core undoes such a
// step and counts it (core::Health::nonfinite_resets); a session would go on sending a
// machine frozen in its last good pose with nobody told. Each one is counted in the
// session's counters (clamsim_nonfinite_resets_total in /metrics, /sessions, the shutdown
// printout), and the session says so on stderr: at once, then at most once a minute.
#pragma once

#include <cstdint>
#include <string>

#include "core/state.h"
#include "session/counters.h"

namespace clamsim::session {

class NonfiniteWatch {
 public:
  static constexpr double kLogEvery_s = 60.0;

  // After a step: counts the attempt's new resets into `counters` and logs them if due.
  // `session_s` is the session's own time (it does not restart with the task); the state's
  // count does, which is how a restart is told from no new resets.
  void after_step(const core::State& state, double session_s, Counters& counters,
                  const std::string& label);

 private:
  std::uint64_t seen_ = 0;       // the attempt's count at the last look
  std::uint64_t unlogged_ = 0;   // counted since the last log line
  double logged_at_s_ = 0.0;
  bool logged_ = false;
};

}  // namespace clamsim::session
