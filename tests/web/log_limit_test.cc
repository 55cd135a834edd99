// web/log_limit.h: a burst of log lines per window, then one count of what was suppressed.
#include "web/log_limit.h"

#include <gtest/gtest.h>

namespace clamsim::web {
namespace {

TEST(LogLimit, ABurstPerWindowThenACountOfTheRest) {
  LogLimit limit(3, std::chrono::seconds(10));
  const auto t0 = LogLimit::Clock::time_point(std::chrono::hours(1));
  std::size_t written = 0;
  for (int i = 0; i < 1000; ++i) written += limit.admit("line", t0 + std::chrono::milliseconds(i)).size();
  EXPECT_EQ(written, 3u);
  const auto next = limit.admit("after", t0 + std::chrono::seconds(11));
  ASSERT_EQ(next.size(), 2u);
  EXPECT_NE(next[0].find("997 more log lines suppressed"), std::string::npos) << next[0];
  EXPECT_EQ(next[1], "after");
  // a quiet window reports nothing
  const auto later = limit.admit("later", t0 + std::chrono::seconds(30));
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0], "later");
}

}  // namespace
}  // namespace clamsim::web
