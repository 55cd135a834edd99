// Tests for server/session/health_watch.{h,cc}: a session's undone steps and non-physical
// speeds reach its counters however the task restarts, and the log line comes at once, then at
// most once a minute.
#include "session/health_watch.h"

#include <gtest/gtest.h>

#include <string>

namespace clamsim::session {
namespace {

core::State with_resets(std::uint64_t n) {
  core::State s;
  s.health.nonfinite_resets = n;
  return s;
}

TEST(HealthWatch, CountsEachNewResetOnceAcrossRestarts) {
  Counters c;
  HealthWatch w = HealthWatch::nonfinite();
  w.after_step(with_resets(0), 0.05, c, "s1");
  EXPECT_EQ(c.nonfinite_resets.load(), 0u);
  w.after_step(with_resets(2), 0.10, c, "s1");
  w.after_step(with_resets(2), 0.15, c, "s1");   // nothing new
  EXPECT_EQ(c.nonfinite_resets.load(), 2u);
  w.after_step(with_resets(1), 0.20, c, "s1");   // a restart: the attempt counts from 0
  EXPECT_EQ(c.nonfinite_resets.load(), 3u);
  EXPECT_EQ(c.snapshot().nonfinite_resets, 3u);
}

TEST(HealthWatch, LogsAtOnceThenAtMostOnceAMinute) {
  Counters c;
  HealthWatch w = HealthWatch::nonfinite();
  ::testing::internal::CaptureStderr();
  w.after_step(with_resets(1), 1.0, c, "s7");
  w.after_step(with_resets(5), 2.0, c, "s7");                          // within the minute
  const std::string first = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(first.find("s7: the machine's state went NaN or inf in 1 step(s)"), std::string::npos)
      << first;
  EXPECT_EQ(first.find("in 4 step(s)"), std::string::npos) << first;
  ::testing::internal::CaptureStderr();
  w.after_step(with_resets(5), 1.0 + HealthWatch::kLogEvery_s, c, "s7");
  const std::string later = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(later.find("in 4 step(s)"), std::string::npos) << later;  // the minute's sum
  EXPECT_EQ(c.nonfinite_resets.load(), 5u);
}

TEST(HealthWatch, NonphysicalSpeedsHaveTheirOwnCounterAndLine) {
  Counters c;
  HealthWatches w;
  core::State s;
  s.health.nonphysical_warnings = 2;
  ::testing::internal::CaptureStderr();
  w.after_step(s, 1.0, c, "s3");
  const std::string line = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(c.nonphysical_warnings.load(), 2u);
  EXPECT_EQ(c.nonfinite_resets.load(), 0u);
  EXPECT_NE(line.find("s3: a speed passed what no machine of this kind reaches 2 time(s)"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("NaN"), std::string::npos) << line;
}

}  // namespace
}  // namespace clamsim::session
