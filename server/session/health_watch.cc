#include "session/health_watch.h"

#include <cstdio>

namespace clamsim::session {

HealthWatch HealthWatch::nonfinite() {
  return {&core::Health::nonfinite_resets, &Counters::nonfinite_resets,
          "the machine's state went NaN or inf in %llu step(s) (undone, the machine held in its "
          "last good pose; check the model file's numbers)"};
}

HealthWatch HealthWatch::nonphysical() {
  return {&core::Health::nonphysical_warnings, &Counters::nonphysical_warnings,
          "a speed passed what no machine of this kind reaches %llu time(s) (check the model "
          "file's numbers and the start pose)"};
}

void HealthWatch::after_step(const core::State& state, double session_s, Counters& counters,
                             const std::string& label) {
  const std::uint64_t now = state.health.*count_;
  if (now < seen_) seen_ = 0;  // a new attempt: its state counts from 0
  const std::uint64_t fresh = now - seen_;
  seen_ = now;
  if (fresh != 0) {
    (counters.*counter_).fetch_add(fresh, std::memory_order_relaxed);
    unlogged_ += fresh;
  }
  if (unlogged_ == 0 || (logged_ && session_s - logged_at_s_ < kLogEvery_s)) return;
  const std::string line = label + ": " + what_ + "\n";
  std::fprintf(stderr, line.c_str(), static_cast<unsigned long long>(unlogged_));
  unlogged_ = 0;
  logged_ = true;
  logged_at_s_ = session_s;
}

}  // namespace clamsim::session
