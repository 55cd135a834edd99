#include "web/frame_rate.h"

#include <gtest/gtest.h>

namespace clamsim::web {
namespace {

TEST(FrameRate, TheServersLimitCutsTheChoicesButNeverTwentyHertz) {
  EXPECT_EQ(offered_frame_rates(60), (std::vector<int>{20, 30, 60}));
  EXPECT_EQ(offered_frame_rates(45), (std::vector<int>{20, 30}));
  EXPECT_EQ(offered_frame_rates(0), (std::vector<int>{20}));
}

TEST(FrameRate, OnlyAnOfferedRateIsAcceptedAndARefusalNamesTheChoices) {
  const std::vector<int> offered{20, 30};
  std::string error;
  EXPECT_EQ(parse_frame_rate("30", offered, &error), 30);
  for (const char* bad : {"60", "30.0", " 30", "30x", "-20", "", "99999999999999999999"}) {
    error.clear();
    EXPECT_FALSE(parse_frame_rate(bad, offered, &error).has_value()) << bad;
    EXPECT_NE(error.find("choose one of 20, 30"), std::string::npos) << error;
  }
}

TEST(FrameRate, APeriodIsWholeStepsRoundedUp) {
  EXPECT_DOUBLE_EQ(frame_period_for(20, 0.0025), 0.05);
  EXPECT_NEAR(frame_period_for(30, 0.0025), 0.035, 1e-15);   // 13.3 steps -> 14
  EXPECT_NEAR(frame_period_for(60, 0.0025), 0.0175, 1e-15);  // 6.7 steps -> 7
  EXPECT_NEAR(frame_period_for(60, 0.001), 0.017, 1e-15);
  EXPECT_DOUBLE_EQ(frame_period_for(60, 0.1), 0.1) << "never under one step";
}

}  // namespace
}  // namespace clamsim::web
