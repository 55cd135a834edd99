// The figures of a run (server/tools/plot_plan.h, plot.h, plot_main.cc): what a real short
// simulation's CSV is drawn as (panels, axes, captions, grip and release at the right
// times), a receiver's CSV drawn the same way, and clamsim-plot run as a user runs it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tool_run.h"
#include "tools/csv_table.h"
#include "tools/plot.h"
#include "tools/plot_plan.h"
#include "tools/receiver/frame_csv.h"

namespace clamsim::tools {
namespace {

using clamsim::testing::run_tool;
using clamsim::testing::ScratchDir;
using clamsim::testing::slurp;

const std::string kSource = CLAMSIM_SOURCE_DIR;
const std::string kModel = kSource + "/models/t250.json";
const std::string kScenarios = kSource + "/config/scenarios/";

std::vector<std::string> keys(const PlotPlan& p) {
  std::vector<std::string> k;
  for (const Panel& panel : p.panels) k.push_back(panel.key);
  return k;
}

bool gnuplot_installed() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((dir + "/gnuplot").c_str(), X_OK) == 0) return true;
  return false;
}

class Plots : public ::testing::Test {
 protected:
  // clamsim-sim's CSV of a real run
  CsvTable simulate(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"--model", kModel, "--csv", scratch_.path("run.csv"), "--quiet"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_tool(CLAMSIM_SIM_BINARY, all, scratch_, std::chrono::seconds(300));
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
    return CsvTable::read(scratch_.path("run.csv"));
  }
  ScratchDir scratch_{"clamsim-plot-test"};
};

TEST_F(Plots, ClamStepsGetTheFiguresOf511WithTheWorkingStateOnItsOwnAxis) {
  const CsvTable t = simulate({"--controls", kScenarios + "exp_5_1_1_clam_steps.ctl", "--valve", "thesis",
                               "--rate", "20"});
  const PlotPlan plan = plan_plot(t);
  EXPECT_EQ(plan.experiment, Experiment::ClamSteps);
  EXPECT_EQ(plan.caption.rfind("Figures 5.1-5.4: ", 0), 0u) << plan.caption;
  EXPECT_EQ(plan.time_column, "time_s");
  ASSERT_TRUE(plan.x.has_value());
  EXPECT_DOUBLE_EQ(plan.x->lo, 0.0);
  EXPECT_DOUBLE_EQ(plan.x->hi, 20.0) << "the script's duration";
  EXPECT_EQ(keys(plan), (std::vector<std::string>{"controls", "joints", "rates", "tensions",
                                                  "theta2", "working", "speeds"}));
  EXPECT_EQ(plan.panel("controls")->caption, "Fig. 5.1: Control signal to the servo valves");
  EXPECT_EQ(plan.panel("tensions")->caption, "Fig. 5.2: Tensions applied on cables");
  EXPECT_EQ(plan.panel("theta2")->caption, "Fig. 5.3: Angle of theta2");
  EXPECT_EQ(plan.panel("speeds")->caption, "Fig. 5.4: Vertical speed of the claming device's bodies");

  // theta2 alone on its axis; the working state in a panel of its own, on named levels
  const Panel& theta2 = *plan.panel("theta2");
  ASSERT_EQ(theta2.series.size(), 1u);
  EXPECT_EQ(theta2.series[0].column, "theta2_clam_deg");
  EXPECT_FALSE(theta2.series[0].right_axis);
  const Panel& working = *plan.panel("working");
  ASSERT_EQ(working.series.size(), 1u);
  EXPECT_EQ(working.series[0].kind, Series::Kind::WorkingLevel);
  EXPECT_TRUE(working.working_tics);
  ASSERT_TRUE(working.y.has_value());
  EXPECT_LT(working.y->lo, 0.0);
  EXPECT_GT(working.y->hi, 2.0);
  // the telescope (12 m) does not move: its axis is not drawn from numerical noise; with
  // swing (0 deg) and boom (30 deg) on the left, both axes start at 0, at one height
  const Panel& joints = *plan.panel("joints");
  ASSERT_TRUE(joints.y.has_value());
  ASSERT_TRUE(joints.y2.has_value());
  EXPECT_DOUBLE_EQ(joints.y->lo, 0.0);
  EXPECT_DOUBLE_EQ(joints.y2->lo, 0.0);
  EXPECT_NEAR(joints.y->hi, 30.0 * 1.05, 0.1);
  EXPECT_NEAR(joints.y2->hi, 12.25 * 1.05, 0.01);   // the least span's top, with 5 % room
  EXPECT_TRUE(plan.markers.empty()) << "nothing to grip in empty space";

  // the figure is gnuplot's: every panel's legend right of its plot, the caption under it
  const std::string script = gnuplot_script(plan, t, {"run.csv", "out.png", "a note"});
  EXPECT_EQ(std::count(script.begin(), script.end(), '\n') > 50, true);
  EXPECT_NE(script.find("set key at screen"), std::string::npos);
  EXPECT_NE(script.find("set ytics ('Free' 0, 'Distributed' 1, 'Full' 2)"), std::string::npos);
  EXPECT_NE(script.find("'" + plan.caption + "'"), std::string::npos);
  EXPECT_EQ(script.find("set multiplot layout"), std::string::npos) << "placed, not auto laid out";
}

TEST_F(Plots, CraneStepsAreCaptionedAsFigures55To511) {
  const CsvTable t = simulate({"--controls", kScenarios + "exp_5_1_2_crane_steps.ctl", "--duration",
                               "3", "--rate", "20"});
  const PlotPlan plan = plan_plot(t);
  EXPECT_EQ(plan.experiment, Experiment::CraneSteps);
  EXPECT_EQ(plan.panel("controls")->caption, "Fig. 5.5: Control signal to the crane model");
  EXPECT_NE(plan.panel("joints")->caption.find("5.6, 5.8, 5.10"), std::string::npos);
  EXPECT_NE(plan.panel("rates")->caption.find("5.7, 5.9, 5.11"), std::string::npos);
  // the telescope on the right axis, in its own unit
  const Panel& joints = *plan.panel("joints");
  EXPECT_TRUE(std::any_of(joints.series.begin(), joints.series.end(), [](const Series& s) {
    return s.column == "telescope_m" && s.right_axis;
  }));
}

// The scripted operator of 5.1.3 grips log3 and lets it go in the truck: one grip marker
// where the load mass (DisplayData[7]) becomes non-zero, one release where it returns to
// zero, and a load-path panel for the log.
TEST_F(Plots, PickPlaceMarksGripAndReleaseWhereTheLoadMassChanges) {
  const CsvTable t = simulate({"--world", kScenarios + "dam_intake.json", "--pick-place", "log3",
                               "--rate", "10"});
  ASSERT_GT(t.rows(), 100u);
  double mass_on = -1.0, mass_off = -1.0;
  for (std::size_t r = 1; r < t.rows(); ++r) {
    const bool now = t.number(r, "load_kg") > 0.0;
    const bool before = t.number(r - 1, "load_kg") > 0.0;
    if (now && !before && mass_on < 0.0) mass_on = t.number(r, "time_s");
    if (!now && before) mass_off = t.number(r, "time_s");
  }
  ASSERT_GT(mass_on, 0.0);
  ASSERT_GT(mass_off, mass_on);

  const PlotPlan plan = plan_plot(t);
  EXPECT_EQ(plan.experiment, Experiment::PickPlace);
  EXPECT_EQ(plan.caption.rfind("Figures 5.12-5.18: ", 0), 0u) << plan.caption;
  ASSERT_EQ(plan.markers.size(), 2u);
  EXPECT_EQ(plan.markers[0].kind, Marker::Kind::Grip);
  EXPECT_NEAR(plan.markers[0].time_s, mass_on, 1e-9);
  EXPECT_EQ(plan.markers[1].kind, Marker::Kind::Release);
  EXPECT_NEAR(plan.markers[1].time_s, mass_off, 1e-9);

  const Panel* path = plan.panel("load_path");
  ASSERT_NE(path, nullptr);
  EXPECT_NE(path->caption.find("5.13"), std::string::npos);
  ASSERT_EQ(path->series.size(), 2u) << "only the log that was carried";
  EXPECT_EQ(path->series[0].column, "log3_z_m");
  EXPECT_EQ(path->series[1].kind, Series::Kind::Distance);
  EXPECT_DOUBLE_EQ(path->series[1].x0, t.number(0, "log3_x_m"));
  EXPECT_EQ(plan.panel("speeds")->caption, "Fig. 5.15: Velocity of points A and C on claming device");

  // every panel draws both markers and names them in its legend
  const std::string script = gnuplot_script(plan, t, {"run.csv", "out.svg", ""});
  EXPECT_NE(script.find("NaN title 'grip'"), std::string::npos);
  EXPECT_NE(script.find("NaN title 'release'"), std::string::npos);
  EXPECT_NE(script.find("set arrow 2 from"), std::string::npos);

  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  const PlotResult drawn = draw_plot({scratch_.path("run.csv"), scratch_.path("pp.png"), "test"});
  ASSERT_TRUE(drawn.ok) << drawn.message;
  EXPECT_GT(slurp(scratch_.path("pp.png")).size(), 10000u);
}

// A receiver's record (receiver/frame_csv.h's columns, state names spelt as clamsim-sim's):
// columns found by name, the arrival time as the time axis, no panel for columns it lacks.
std::string receiver_csv(double swing_from = 0.0, double swing_rate = 0.0) {
  std::ostringstream csv;
  csv << receiver::FrameCsv::header() << "\n";
  const std::vector<std::string> header = CsvTable::parse(csv.str(), "header").header();
  for (int k = 0; k <= 80; ++k) {
    const double t = 0.05 * k;
    for (std::size_t c = 0; c < header.size(); ++c) {
      const std::string& name = header[c];
      if (c) csv << ',';
      if (name == "arrival_s") csv << t + 0.01;
      else if (name == "sim_time_s") csv << t;
      else if (name == "seq") csv << k;
      else if (name == "working") csv << (t < 1.0 ? "Free" : t < 1.1 ? "Distributed" : "Full");
      else if (name == "geo") csv << "In-range";
      else if (name == "load") csv << (t >= 2.0 && t < 3.0 ? "With-load" : "Without-load");
      else if (name == "theta2_clam_deg") csv << 25 + 10 * t;
      // as Table 4.1 reports the swing (and so do CSVs and replays): in [0, 360)
      else if (name == "swing_deg") csv << std::fmod(std::fmod(swing_from + swing_rate * t, 360.0) + 360.0, 360.0);
      else if (name == "telescope_m") csv << 6.0 + t;
      else if (name == "hoist1_V") csv << -2.5;
      else if (name == "hoist2_V") csv << 2.5;
      else csv << 0;
    }
    csv << "\n";
  }
  return csv.str();
}

TEST_F(Plots, ReceiverCsvPlotsTheSameWayByHeaderName) {
  const CsvTable t = CsvTable::parse(receiver_csv(), "receiver.csv");
  const PlotPlan plan = plan_plot(t);
  EXPECT_EQ(plan.time_column, "arrival_s");
  EXPECT_EQ(plan.xlabel, "time since subscription [s]");
  EXPECT_EQ(keys(plan), (std::vector<std::string>{"controls", "joints", "rates", "tensions",
                                                  "theta2", "working"}))
      << "no vertical speeds of A and C in a receiver's record";
  ASSERT_EQ(plan.markers.size(), 2u);
  EXPECT_NEAR(plan.markers[0].time_s, 2.01, 1e-9);
  EXPECT_NEAR(plan.markers[1].time_s, 3.01, 1e-9);
  // the columns are the receiver's, wherever they stand
  const std::string script = gnuplot_script(plan, t, {"r.csv", "r.svg", ""});
  EXPECT_NE(script.find("using " + std::to_string(t.column("arrival_s")) + ":" +
                        std::to_string(t.column("theta2_clam_deg")) + " "),
            std::string::npos);
}

TEST(PlotAngles, WrappedIntoMinus180To180AndUnwrappedIntoOneCurve) {
  EXPECT_DOUBLE_EQ(wrap_degrees(0.0), 0.0);
  EXPECT_DOUBLE_EQ(wrap_degrees(359.0), -1.0);
  EXPECT_DOUBLE_EQ(wrap_degrees(180.0), 180.0);
  EXPECT_DOUBLE_EQ(wrap_degrees(-180.0), 180.0);
  EXPECT_DOUBLE_EQ(wrap_degrees(540.0), 180.0);
  EXPECT_DOUBLE_EQ(wrap_degrees(-190.0), 170.0);
  EXPECT_DOUBLE_EQ(wrap_degrees(720.5), 0.5);
  // a swing back and forth through 0, as [0, 360) reports it: no jump
  EXPECT_EQ(unwrap_degrees({350.0, 359.0, 1.0, 10.0, 355.0}),
            (std::vector<double>{-10.0, -1.0, 1.0, 10.0, -5.0}));
  // whole turns go on past 180 and 360 (a curve, not a saw)
  EXPECT_EQ(unwrap_degrees({0.0, 120.0, 240.0, 0.0, 120.0}),
            (std::vector<double>{0.0, 120.0, 240.0, 360.0, 480.0}));
  // a missing value stays missing and the curve goes on from the last one
  const std::vector<double> gap = unwrap_degrees({358.0, NAN, 2.0});
  EXPECT_DOUBLE_EQ(gap[0], -2.0);
  EXPECT_TRUE(std::isnan(gap[1]));
  EXPECT_DOUBLE_EQ(gap[2], 2.0);
}

// Where 0 sits on an axis, as a share of its height from the bottom.
double zero_at(const Range& r) { return -r.lo / (r.hi - r.lo); }

TEST(PlotAxes, TheTwoZerosSitAtOneHeight) {
  const auto check = [](Range a, Range b) {
    const auto [y, y2] = align_zeros(a, b);
    EXPECT_NEAR(zero_at(y), zero_at(y2), 1e-12) << a.lo << ".." << a.hi << " / " << b.lo << ".." << b.hi;
    // nothing of either is cut off, and 0 is on both
    EXPECT_LE(y.lo, std::min(a.lo, 0.0));
    EXPECT_GE(y.hi, std::max(a.hi, 0.0));
    EXPECT_LE(y2.lo, std::min(b.lo, 0.0));
    EXPECT_GE(y2.hi, std::max(b.hi, 0.0));
    return std::make_pair(y, y2);
  };
  // swing -40..20 deg, telescope 5..8 m: the telescope axis gets room below 0
  auto [y, y2] = check({-40.0, 20.0}, {5.0, 8.0});
  EXPECT_NEAR(zero_at(y), 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(y.lo, -42.0, 1e-9);     // 5 % room
  EXPECT_NEAR(y.hi, 21.0, 1e-9);
  EXPECT_NEAR(y2.hi, 8.4, 1e-9);
  EXPECT_NEAR(y2.lo, -16.8, 1e-9);
  check({-1.0, 3.0}, {-2.0, 1.0});
  check({10.0, 20.0}, {1.0, 2.0});    // both above 0: 0 at the bottom of both
  EXPECT_NEAR(zero_at(align_zeros({10.0, 20.0}, {1.0, 2.0}).first), 0.0, 1e-12);
  check({-5.0, -1.0}, {2.0, 3.0});    // one all below, one all above: 0 in the middle
  EXPECT_NEAR(zero_at(align_zeros({-5.0, -1.0}, {2.0, 3.0}).first), 0.5, 1e-12);
  check({-5.0, -1.0}, {-1.0, 3.0});   // one all below, the other both sides
  check({0.0, 0.0}, {-1.0, 2.0});     // a curve at rest at 0
}

// Relative luminance and contrast after WCAG 2.
double luminance(const std::string& hex) {
  double l = 0.0;
  const double weight[3] = {0.2126, 0.7152, 0.0722};
  for (int i = 0; i < 3; ++i) {
    const double c = std::stoi(hex.substr(1 + 2 * i, 2), nullptr, 16) / 255.0;
    l += weight[i] * (c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
  }
  return l;
}

TEST(PlotLooks, EveryCurveReadsOnWhiteAndHasADashOfItsOwn) {
  std::vector<int> dashes;
  for (std::size_t i = 0; i < kCurveLooks; ++i) {
    const CurveLook look = curve_look(i);
    const double contrast = 1.05 / (luminance(look.colour) + 0.05);
    EXPECT_GE(contrast, 4.5) << "curve " << i << " " << look.colour;
    EXPECT_EQ(std::count(dashes.begin(), dashes.end(), look.dash), 0) << "curve " << i;
    dashes.push_back(look.dash);
  }
}

// A swing through 0 (350 deg, on to 10 deg) plotted from a receiver's record: one curve
// from -10 to 10 deg drawn from the plan's own data, the two axes' zeros level, every curve
// coloured and dashed, and the run's title over the thesis's caption.
TEST_F(Plots, ASwingThroughZeroIsOneCurveUnderTheRunsTitle) {
  const CsvTable t = CsvTable::parse(receiver_csv(350.0, 5.0), "receiver.csv");
  const PlotPlan plan = plan_plot(t);
  const Panel& joints = *plan.panel("joints");
  ASSERT_TRUE(joints.series[0].unwrap);
  const std::vector<double> swing = series_values(t, joints.series[0]);
  for (std::size_t r = 1; r < swing.size(); ++r)
    ASSERT_LT(std::abs(swing[r] - swing[r - 1]), 1.0) << "row " << r << ": a jump";
  EXPECT_NEAR(swing.front(), -10.0, 1e-9);
  EXPECT_NEAR(swing.back(), 10.0, 1e-9);
  ASSERT_TRUE(joints.y && joints.y2);
  EXPECT_NEAR(zero_at(*joints.y), zero_at(*joints.y2), 1e-12);
  EXPECT_LE(joints.y->lo, -10.0);
  EXPECT_GE(joints.y2->hi, 10.0);   // the telescope's 6..10 m

  const std::string script = gnuplot_script(plan, t, {"r.csv", "r.svg", "a note", "dam_intake, trainee Ada, 2026-11-29 08:12 UTC"});
  EXPECT_NE(script.find("$unwrapped_1_0 << EOD\n0.01,-10\n"), std::string::npos) << script.substr(0, 3000);
  EXPECT_NE(script.find("$unwrapped_1_0 using 1:2 title 'swing [deg]'"), std::string::npos);
  EXPECT_NE(script.find("set label 1 'dam_intake, trainee Ada, 2026-11-29 08:12 UTC'"), std::string::npos);
  EXPECT_NE(script.find("set label 2 'cf. thesis Figures 5.12-5.18: Machine performing a pick-and-place task'"),
            std::string::npos);
  // cable 2's curve: dark purple, dash-dot-dot, no longer gnuplot's pale yellow
  EXPECT_NE(script.find("title 'cable 2 (aux hoist)' lw 1.5 lc rgb '#7a0177' dt 5"), std::string::npos);
  EXPECT_EQ(script.find("yellow"), std::string::npos);

  // gnuplot reads the unwrapped curve (a datablock in the CSV's separator) and draws it
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  std::ofstream(scratch_.path("swing.csv")) << receiver_csv(350.0, 5.0);
  const PlotResult drawn = draw_plot({scratch_.path("swing.csv"), scratch_.path("swing.svg"), "", "a swing through 0"});
  ASSERT_TRUE(drawn.ok) << drawn.message;
  EXPECT_EQ(drawn.message.find("no valid points"), std::string::npos) << drawn.message;
  EXPECT_NE(slurp(scratch_.path("swing.svg")).find("swing [deg]"), std::string::npos);
}

TEST(PlotTitle, ARecordingsStartIsShownToTheMinute) {
  EXPECT_EQ(utc_minute("2026-11-29T08:12:03Z"), "2026-11-29 08:12 UTC");
  EXPECT_EQ(utc_minute("yesterday"), "yesterday");
  EXPECT_EQ(utc_minute(0LL), "1970-01-01 00:00 UTC");
  EXPECT_EQ(utc_minute(1795939920LL), "2026-11-29 08:12 UTC");
}

TEST_F(Plots, ClamsimPlotDrawsAReceiverCsvAndRefusesBadInput) {
  const std::string csv = scratch_.path("receiver.csv");
  std::ofstream(csv) << receiver_csv();
  const std::string plot = CLAMSIM_PLOT_BINARY;
  auto r = run_tool(plot, {csv, scratch_.path("x.pdf")}, scratch_, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("must end in .svg or .png"), std::string::npos) << r.err;
  std::ofstream(scratch_.path("no-time.csv")) << "a,b\n1,2\n";
  r = run_tool(plot, {scratch_.path("no-time.csv"), scratch_.path("x.svg")}, scratch_,
               std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no time column: expected time_s (clamsim-sim) or arrival_s"),
            std::string::npos)
      << r.err;
  r = run_tool(plot, {"--version"}, scratch_, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("clamsim-plot ", 0), 0u) << r.out;

  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  r = run_tool(plot, {csv, scratch_.path("receiver.svg"), "--note", "receiver test"}, scratch_,
               std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string svg = slurp(scratch_.path("receiver.svg"));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Working state of the claming device"), std::string::npos);
  // no title given: the CSV's name and when it was written
  EXPECT_NE(svg.find("receiver.csv, 20"), std::string::npos);
  r = run_tool(plot, {csv, scratch_.path("titled.svg"), "--title", "dam_intake, trainee Ada"},
               scratch_, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  svg = slurp(scratch_.path("titled.svg"));
  EXPECT_NE(svg.find("dam_intake, trainee Ada"), std::string::npos);
  EXPECT_NE(svg.find("cf. thesis Figures 5.12-5.18"), std::string::npos);
}

}  // namespace
}  // namespace clamsim::tools
