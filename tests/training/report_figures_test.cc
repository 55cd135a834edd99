// The precision reports are written at (training/report_figures.h).
#include "training/report_figures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace clamsim::training {
namespace {

TEST(ReportFigures, EveryFigureHasOnePrecision) {
  EXPECT_EQ(figure_decimals("elapsed_s"), 2);
  EXPECT_EQ(figure_decimals("task_time_s"), 2);
  EXPECT_EQ(figure_decimals("total"), 1);
  EXPECT_EQ(figure_decimals("points_each"), 1);
  EXPECT_EQ(figure_decimals("delivered"), -1) << "a count is not rounded";
}

TEST(ReportFigures, RoundingGivesWhatAPersonWrites) {
  EXPECT_EQ(round_figure(60.00000000000001, 2), 60.0);
  EXPECT_EQ(round_figure(0.1 + 0.2, 2), 0.3);
  EXPECT_EQ(round_figure(94.85, 1), 94.9);
  EXPECT_FALSE(std::signbit(round_figure(-0.0001, 2))) << "no -0";
  EXPECT_EQ(round_figure(NAN, 1), 0.0);
  EXPECT_EQ(figure_text("elapsed_s", 60.00000000000001), "60.00");
  EXPECT_EQ(figure_text("total", 75.04), "75.0");
  EXPECT_THROW(figure_text("nonsense", 1.0), std::out_of_range);
}

TEST(ReportFigures, RoundsAReportAtEveryDepthAndLeavesTheRestAlone) {
  nlohmann::ordered_json r = nlohmann::ordered_json::parse(R"({
    "elapsed_s": 60.00000000000001, "delivered": 3, "session": "0.30000000000000004",
    "penalties": {"overload": {"count": 1, "points_each": 15.000000000000002, "points": 15.000000000000002}},
    "timeline": [{"sim_time_s": 41.25000000000001, "task_time_s": 41.2, "points": 10}]})");
  round_report_figures(r);
  EXPECT_EQ(r.dump(),
            R"({"elapsed_s":60.0,"delivered":3,"session":"0.30000000000000004",)"
            R"("penalties":{"overload":{"count":1,"points_each":15.0,"points":15.0}},)"
            R"("timeline":[{"sim_time_s":41.25,"task_time_s":41.2,"points":10}]})");
}

}  // namespace
}  // namespace clamsim::training
