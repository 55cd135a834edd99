#include "session/histogram.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace clamsim::session {
namespace {

TEST(Histogram, CumulativeBucketsCountAndSum) {
  Histogram h({0.001, 0.01, 0.1});
  for (double v : {0.0005, 0.001, 0.002, 0.05, 0.5}) h.observe(v);
  const Histogram::Snapshot s = h.snapshot();
  EXPECT_EQ(s.cumulative, (std::vector<std::uint64_t>{2, 3, 4})) << "a bound is inclusive (le)";
  EXPECT_EQ(s.count, 5u) << "+Inf holds the 0.5";
  EXPECT_NEAR(s.sum, 0.5535, 1e-12);
}

TEST(Histogram, ManyThreadsLoseNoObservation) {
  Histogram h({1.0, 2.0});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&h] {
      for (int i = 0; i < 10000; ++i) h.observe(i % 3);
    });
  for (auto& t : threads) t.join();
  const Histogram::Snapshot s = h.snapshot();
  EXPECT_EQ(s.count, 40000u);
  EXPECT_EQ(s.cumulative[0], 40000u - 4u * 3333u) << "all but the 2s fall in le=1";
  EXPECT_EQ(s.cumulative[1], 40000u);
  EXPECT_DOUBLE_EQ(s.sum, 4.0 * (3333.0 * 1 + 3333.0 * 2));
}

TEST(Histogram, BoundsMustIncrease) {
  EXPECT_THROW(Histogram({0.1, 0.01}), std::invalid_argument);
  EXPECT_THROW(Histogram({0.1, 0.1}), std::invalid_argument);
}

}  // namespace
}  // namespace clamsim::session
