#include "base/utc_time.h"

#include <gtest/gtest.h>

namespace clamsim::base {
namespace {

// 2025-03-14T09:26:53.589Z
const WallTime kPiDay{std::chrono::milliseconds(1741944413589)};

TEST(UtcTime, Iso8601InWholeSeconds) {
  EXPECT_EQ(iso8601_utc(kPiDay), "2025-03-14T09:26:53Z");
}

TEST(UtcTime, Iso8601WithMillisecondsForLogLines) {
  EXPECT_EQ(iso8601_utc_ms(kPiDay), "2025-03-14T09:26:53.589Z");
  EXPECT_EQ(iso8601_utc_ms(WallTime{std::chrono::seconds(1741944413)}),
            "2025-03-14T09:26:53.000Z");
}

TEST(UtcTime, CompactForFileNames) {
  EXPECT_EQ(compact_utc(kPiDay), "20250314T092653Z");
}

}  // namespace
}  // namespace clamsim::base
