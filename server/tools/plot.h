// Draws an offline run's CSV as one multi-panel figure, the quantities of thesis
// chapter 5.1: control voltages, crane joints and their rates, cable tensions, the clam's
// theta2 with its working state, and the vertical speeds of points A and C.
// gnuplot does the drawing, run as a child process; SVG or PNG by the output's extension.
#pragma once

#include <string>

namespace clamsim::tools {

struct PlotRequest {
  std::string csv_path;   // written by CsvWriter (its column names are looked up)
  std::string out_path;   // ends in .svg or .png
  std::string title;      // figure title, e.g. the control script's name
};

struct PlotResult {
  bool ok = false;
  bool gnuplot_missing = false;
  std::string message;    // why it failed; gnuplot's warnings when it worked
};

// The gnuplot commands (exposed so they can be read or saved alongside the figure).
std::string gnuplot_script(const PlotRequest& request);

// Runs `gnuplot` from PATH with the script on its stdin; waits for it.
PlotResult draw_plot(const PlotRequest& request);

}  // namespace clamsim::tools
