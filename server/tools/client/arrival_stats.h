// Timing of one subscription's frames, measured the way Amoretti et al. measure event
// fan-out: inter-arrival time (min, mean, standard deviation = jitter), plus what the
// thesis cares about, whether the 50 ms schedule holds: lateness of each frame and lost
// frames (gaps in the sequence numbers).
//
// Lateness of a frame = its arrival - its due time. The server sends frame seq k at
// t0 + (k + 1) periods on its own clock (`period_s`, the rate asked for): a schedule that
// a new attempt at the task does not reset, though it sets the frame's sim_time_s back to
// one period. So the due time follows seq, not sim_time_s; then
// arrival - due = t0 + delay; the smallest such offset over the run stands for t0 + the
// best-case delay, and lateness = offset - min offset (>= 0). Legacy frames carry no time:
// frame i (in arrival order) is due at i * period.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tools/client/received_frame.h"

namespace clamsim::client {

// Count, min, max, mean and standard deviation in one pass (Welford).
class RunningStats {
 public:
  void add(double x);
  void merge(const RunningStats& other);
  std::uint64_t count() const { return n_; }
  double min() const { return n_ ? min_ : 0.0; }
  double max() const { return n_ ? max_ : 0.0; }
  double mean() const { return n_ ? mean_ : 0.0; }
  double stddev() const;  // population standard deviation; 0 below two samples

 private:
  std::uint64_t n_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
  double mean_ = 0.0;
  double m2_ = 0.0;
};

// Nearest-rank percentile (p in 0..100) of unsorted values; 0 for none. Sorts a copy.
double percentile(std::vector<double> values, double p);

// Both load generators' --baseline line: the loaded p99 lateness against one session's alone,
// measured in the same run (the target: at most 3 times at 80 % load), without its newline.
std::string baseline_line(double baseline_s, double baseline_p99_s, int sessions, double p99_s,
                          std::optional<double> machine_busy);

class ArrivalStats {
 public:
  // `period_s`: the frame period the server keeps (the rate asked for, else its 20 Hz).
  explicit ArrivalStats(double period_s);

  // Not thread-safe: the owner serialises calls.
  void add(const ReceivedFrame& f);
  // The next frame starts another stream (a reconnect: a new session on maybe another
  // server): no gap is counted between the two, and each stream's lateness is measured
  // against its own best offset. The inter-arrival gap across the switch is kept: the
  // client did wait that long.
  void new_stream();

  std::uint64_t frames() const { return frames_; }
  // Frames missing between consecutive sequence numbers (extended frames only).
  std::uint64_t lost() const { return lost_; }
  // Frames whose seq was not above the previous one (duplicated or reordered).
  std::uint64_t out_of_order() const { return out_of_order_; }
  bool has_seq() const { return has_seq_; }
  std::uint64_t first_seq() const { return first_seq_; }
  std::uint64_t last_seq() const { return last_seq_; }
  double first_arrival_s() const { return first_arrival_s_; }
  double last_arrival_s() const { return last_arrival_s_; }
  const RunningStats& inter_arrival() const { return inter_arrival_; }
  // New attempts seen in the frames (sim time not advancing with seq).
  std::uint64_t restarts_seen() const { return restarts_seen_; }
  // Lateness of every frame [s], in arrival order (see the file comment).
  std::vector<double> lateness_s() const;
  // Legacy: frames a 1/period stream would have delivered between the first and the last
  // arrival (inclusive), for "expected vs received".
  std::uint64_t expected_by_schedule() const;

 private:
  double period_s_;
  std::uint64_t frames_ = 0;
  std::uint64_t lost_ = 0;
  std::uint64_t out_of_order_ = 0;
  bool has_seq_ = false;
  std::uint64_t first_seq_ = 0;
  std::uint64_t last_seq_ = 0;
  double first_arrival_s_ = 0.0;
  double last_arrival_s_ = 0.0;
  // The due time [s on the server's schedule] of an extended frame.
  double due_s(const ReceivedFrame& f);

  RunningStats inter_arrival_;
  std::vector<double> offsets_s_;  // arrival - due time, before removing the minimum
  std::vector<double> earlier_late_s_;  // lateness of the streams before new_stream()
  double last_sim_s_ = 0.0;        // the newest frame's sim_time_s and due time
  double last_due_s_ = 0.0;
  std::uint64_t restarts_seen_ = 0;
};

}  // namespace clamsim::client
