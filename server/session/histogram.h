// A Prometheus-style histogram with fixed upper bounds, safe to observe from many session
// threads at once without a lock (one relaxed atomic increment per bucket hit).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace clamsim::session {

class Histogram {
 public:
  // Upper bounds in increasing order; +Inf is implied.
  explicit Histogram(std::vector<double> upper_bounds);
  void observe(double value);

  struct Snapshot {
    std::vector<double> upper_bounds;
    std::vector<std::uint64_t> cumulative;   // per bound, observations <= it
    std::uint64_t count = 0;                 // every observation (the +Inf bucket)
    double sum = 0.0;
  };
  Snapshot snapshot() const;

 private:
  const std::vector<double> bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> buckets_;   // bounds_.size() + 1 (+Inf)
  std::atomic<double> sum_{0.0};
};

}  // namespace clamsim::session
