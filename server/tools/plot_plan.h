// What a run's figure shows, decided from its CSV alone (clamsim-sim's table or the
// receiver's frame record): which experiment of thesis chapter 5 it looks like, the panels
// whose columns exist, each captioned like the thesis's figure, the axis ranges, and the
// grip and release markers. plot.h turns a plan into gnuplot commands; keeping the
// decisions here lets the tests check them without drawing.
#pragma once

#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "tools/csv_table.h"

namespace clamsim::tools {

// Which of the thesis's experiments the run repeats, judged from its controls and loads.
enum class Experiment {
  ClamSteps,    // 5.1.1: only the winches driven (Figs 5.1-5.4)
  CraneSteps,   // 5.1.2: only swing, boom and telescope driven (Figs 5.5-5.11)
  PickPlace,    // 5.1.3: a load gripped and carried (Figs 5.12-5.18)
  Run,          // anything else
};
const char* to_string(Experiment e);

struct Range {
  double lo = 0.0, hi = 0.0;
};

// One curve. Its value is a column (times `scale`), the working state as a level
// (Free 0, Distributed 1, Full 2), or the horizontal distance of a load from where it
// started (columns x and y, start x0 y0).
struct Series {
  enum class Kind { Value, WorkingLevel, Distance } kind = Kind::Value;
  std::string title;
  std::string column;           // Value, WorkingLevel: the column; Distance: the x column
  std::string column_y;         // Distance: the y column
  double scale = 1.0;           // Value
  double x0 = 0.0, y0 = 0.0;    // Distance
  bool right_axis = false;
  // An angle that may go round (the swing): drawn unwrapped, from its first value in
  // (-180, 180], so a turn through 0 or 360 is no jump across the panel.
  bool unwrap = false;
  std::string style;            // gnuplot style words besides colour and dash, e.g. "lw 3"
};

// A curve's value at each row of the table (unwrapped when the series says so); NaN where
// the row has none.
std::vector<double> series_values(const CsvTable& table, const Series& s);

// An angle in (-180, 180] [deg].
double wrap_degrees(double deg);
// The angles as one continuous curve: the first in (-180, 180], each next one the nearest
// to its predecessor of the values equal to it modulo 360. Non-finite values stay and do
// not break the curve.
std::vector<double> unwrap_degrees(const std::vector<double>& deg);

// The ranges of a panel's two y-axes, widened so that 0 sits at the same height on both
// (and is on both): a curve at 0 on the right axis meets one at 0 on the left. Each range
// keeps what it had, with 5 % room above and below.
std::pair<Range, Range> align_zeros(Range left, Range right);

// The look of a panel's i-th curve: a colour that reads on white (contrast at least 4.5:1)
// and a dash pattern of its own, so the curves stay apart printed in greyscale too.
struct CurveLook {
  const char* colour;   // "#rrggbb"
  int dash;             // gnuplot's dashtype: 1 solid, 2 dashes, ...
};
CurveLook curve_look(std::size_t index);
constexpr std::size_t kCurveLooks = 5;

struct Panel {
  std::string key;       // "controls", "joints", "rates", "tensions", "theta2", "working",
                         // "speeds", "load_path": what tests look for
  std::string caption;   // "Fig. 5.2: Tensions applied on cables"
  std::string ylabel, y2label;
  std::vector<Series> series;
  // Set when the panel needs a fixed range: a quantity that barely moves would otherwise
  // get tics from numerical noise; the working state has fixed levels.
  std::optional<Range> y, y2;
  bool working_tics = false;   // y tics named Free, Distributed, Full
};

// The jaws closing on a load (grip) or letting it go (release), from the Load-Status flag.
struct Marker {
  enum class Kind { Grip, Release } kind;
  double time_s = 0.0;
};

struct PlotPlan {
  Experiment experiment = Experiment::Run;
  std::string time_column;   // "time_s" (clamsim-sim) or "arrival_s" (receiver)
  std::string xlabel;
  std::optional<Range> x;    // first to last time; none for fewer than two times
  std::string caption;       // the figure's caption: "Figures 5.1-5.4: ..."
  std::vector<Panel> panels;
  std::vector<Marker> markers;
  const Panel* panel(const std::string& key) const;
};

// Throws std::runtime_error when the table has no time column to plot against.
PlotPlan plan_plot(const CsvTable& table);

}  // namespace clamsim::tools
