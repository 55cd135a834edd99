// Watches a session's machine for what its health counters count and a trainee's screen
// would not show: integration steps that went NaN or inf (core undoes them and holds the
// machine in its last good pose) and speeds no machine of this kind reaches (a model or a
// start pose gone wrong, core/plausibility.h). Each one is counted in the session's counters
// (clamsim_nonfinite_resets_total, clamsim_nonphysical_warnings_total in /metrics, /sessions,
// the shutdown printout), and the session says so on stderr: at once, then at most once a
// minute.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/state.h"
#include "session/counters.h"

namespace clamsim::session {

class HealthWatch {
 public:
  static constexpr double kLogEvery_s = 60.0;

  static HealthWatch nonfinite();     // core::Health::nonfinite_resets
  static HealthWatch nonphysical();   // core::Health::nonphysical_warnings

  // After a step: counts the attempt's new events into `counters` and logs them if due.
  // `session_s` is the session's own time (it does not restart with the task); the state's
  // count does, which is how a restart is told from nothing new.
  void after_step(const core::State& state, double session_s, Counters& counters,
                  const std::string& label);

 private:
  // what: the log line after "<label>: ", with one %llu for the count
  HealthWatch(std::uint64_t core::Health::*count, std::atomic<std::uint64_t> Counters::*counter,
              const char* what)
      : count_(count), counter_(counter), what_(what) {}

  std::uint64_t core::Health::*count_;
  std::atomic<std::uint64_t> Counters::*counter_;
  const char* what_;
  std::uint64_t seen_ = 0;       // the attempt's count at the last look
  std::uint64_t unlogged_ = 0;   // counted since the last log line
  double logged_at_s_ = 0.0;
  bool logged_ = false;
};

// Both watches, as a session keeps them.
struct HealthWatches {
  HealthWatch nonfinite = HealthWatch::nonfinite();
  HealthWatch nonphysical = HealthWatch::nonphysical();
  void after_step(const core::State& state, double session_s, Counters& counters,
                  const std::string& label) {
    nonfinite.after_step(state, session_s, counters, label);
    nonphysical.after_step(state, session_s, counters, label);
  }
};

}  // namespace clamsim::session
