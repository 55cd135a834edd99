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
  // the telescope does not move: its axis gets a least span instead of tics drawn from
  // numerical noise; swing (0 deg) and boom (30 deg) span enough on theirs
  const Panel& joints = *plan.panel("joints");
  EXPECT_FALSE(joints.y.has_value());
  ASSERT_TRUE(joints.y2.has_value());
  EXPECT_NEAR(joints.y2->hi - joints.y2->lo, 0.5, 1e-9);
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
std::string receiver_csv() {
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
  const std::string svg = slurp(scratch_.path("receiver.svg"));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Working state of the claming device"), std::string::npos);
}

}  // namespace
}  // namespace clamsim::tools
