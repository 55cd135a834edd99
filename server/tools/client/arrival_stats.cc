#include "tools/client/arrival_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clamsim::client {

void RunningStats::add(double x) {
  ++n_;
  min_ = std::min(min_, x);
  max_ = std::max(max_, x);
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
}

void RunningStats::merge(const RunningStats& other) {
  if (other.n_ == 0) return;
  if (n_ == 0) {
    *this = other;
    return;
  }
  // Chan et al.'s pairwise update
  const double na = static_cast<double>(n_);
  const double nb = static_cast<double>(other.n_);
  const double delta = other.mean_ - mean_;
  const double n = na + nb;
  mean_ += delta * nb / n;
  m2_ += other.m2_ + delta * delta * na * nb / n;
  n_ += other.n_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

double RunningStats::stddev() const {
  return n_ < 2 ? 0.0 : std::sqrt(m2_ / static_cast<double>(n_));
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  // nearest rank: the smallest value with at least p % of the values at or below it
  const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
  const auto index = static_cast<std::size_t>(std::max(1.0, rank)) - 1;
  return values[std::min(index, values.size() - 1)];
}

ArrivalStats::ArrivalStats(double period_s) : period_s_(period_s) {}

double ArrivalStats::due_s(const ReceivedFrame& f) {
  if (!has_seq_) {  // the first: its own sim time starts the schedule
    last_sim_s_ = last_due_s_ = f.sim_time_s;
    return f.sim_time_s;
  }
  if (f.seq <= last_seq_)  // late or duplicated: behind the newest on the schedule
    return last_due_s_ - static_cast<double>(last_seq_ - f.seq) * period_s_;
  const double scheduled = static_cast<double>(f.seq - last_seq_) * period_s_;
  // within an attempt the sim clock keeps the schedule exactly; otherwise it started again
  if (std::abs(f.sim_time_s - last_sim_s_ - scheduled) >= 0.5 * period_s_) ++restarts_seen_;
  last_due_s_ += scheduled;
  last_sim_s_ = f.sim_time_s;
  return last_due_s_;
}

void ArrivalStats::add(const ReceivedFrame& f) {
  if (frames_ == 0) {
    first_arrival_s_ = f.arrival_s;
  } else {
    inter_arrival_.add(f.arrival_s - last_arrival_s_);
  }
  last_arrival_s_ = f.arrival_s;

  if (f.extended) {
    offsets_s_.push_back(f.arrival_s - due_s(f));
    if (!has_seq_) {
      has_seq_ = true;
      first_seq_ = last_seq_ = f.seq;
    } else if (f.seq > last_seq_) {
      lost_ += f.seq - last_seq_ - 1;
      last_seq_ = f.seq;
    } else {
      ++out_of_order_;
    }
  } else {
    offsets_s_.push_back(f.arrival_s - static_cast<double>(frames_) * period_s_);
  }
  ++frames_;
}

void ArrivalStats::new_stream() {
  const std::vector<double> late = lateness_s();
  earlier_late_s_ = late;
  offsets_s_.clear();
  has_seq_ = false;
}

std::vector<double> ArrivalStats::lateness_s() const {
  std::vector<double> late = earlier_late_s_;
  if (offsets_s_.empty()) return late;
  const double best = *std::min_element(offsets_s_.begin(), offsets_s_.end());
  for (double x : offsets_s_) late.push_back(x - best);
  return late;
}

std::uint64_t ArrivalStats::expected_by_schedule() const {
  if (frames_ == 0) return 0;
  const double span = last_arrival_s_ - first_arrival_s_;
  return static_cast<std::uint64_t>(std::llround(span / period_s_)) + 1;
}

std::string baseline_line(double baseline_s, double baseline_p99_s, int sessions, double p99_s,
                          std::optional<double> machine_busy) {
  char line[256];
  std::snprintf(line, sizeof line,
                "one session alone first (%.0f s): p99 lateness %.2f ms; all %d: p99 %.2f ms, "
                "%.1f times the single session's",
                baseline_s, baseline_p99_s * 1e3, sessions, p99_s * 1e3, p99_s / baseline_p99_s);
  std::string text = line;
  if (machine_busy) {
    std::snprintf(line, sizeof line, ", at %.0f %% CPU", *machine_busy * 100.0);
    text += line;
  }
  return text;
}

}  // namespace clamsim::client
