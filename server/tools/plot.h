// Draws a run's CSV as one figure after thesis chapter 5: a panel per quantity of its
// figures (plot_plan.h decides which, from the columns the file has), each captioned like
// the thesis's figure, the legends beside the data, grip and release marked on every
// panel, and the figure's caption underneath. Works on clamsim-sim's CSV and on
// clamsim-receiver's (columns are found by header name).
// gnuplot does the drawing, run as a child process; SVG or PNG by the output's extension.
#pragma once

#include <string>

#include "tools/csv_table.h"
#include "tools/plot_plan.h"

namespace clamsim::tools {

struct PlotRequest {
  std::string csv_path;   // clamsim-sim's or clamsim-receiver's CSV
  std::string out_path;   // ends in .svg or .png
  std::string note;       // under the caption: what was run, e.g. "clamsim-sim: demo.ctl on t250.json"
  // The figure's title: which run it is (scenario, trainee or recording, date), e.g.
  // "dam_intake, trainee Ada, 2026-11-29 08:12 UTC". The thesis figure the run resembles
  // follows it as "cf. ..."; without a title that caption is the title.
  std::string title = {};
};

// "2026-11-29T08:12:03Z" (a recording's start_utc) -> "2026-11-29 08:12 UTC"; other text
// unchanged.
std::string utc_minute(const std::string& iso8601);
// The moment `t` (seconds since 1970) as "2026-11-29 08:12 UTC".
std::string utc_minute(long long t);

struct PlotResult {
  bool ok = false;
  bool gnuplot_missing = false;
  bool bad_input = false; // the CSV could not be read or has no time column
  std::string message;    // why it failed; gnuplot's warnings when it worked
};

// The gnuplot commands for a plan of `table` (exposed so they can be read or tested).
std::string gnuplot_script(const PlotPlan& plan, const CsvTable& table, const PlotRequest& request);

// Reads the CSV, plans the figure and runs `gnuplot` from PATH on it; waits for it.
PlotResult draw_plot(const PlotRequest& request);

// Runs `gnuplot` from PATH on `script`, which writes `out_path`; waits for it. ok when
// gnuplot exited 0 and the file is there and not empty.
PlotResult run_gnuplot(const std::string& script, const std::string& out_path);

}  // namespace clamsim::tools
