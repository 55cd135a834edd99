#include "tools/plot.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <ctime>
#include <optional>
#include <sstream>

#include "core/state.h"

extern char** environ;

namespace clamsim::tools {
namespace {

// gnuplot single-quoted string: a quote is written twice
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    q += c;
    if (c == '\'') q += '\'';
  }
  return q + "'";
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

constexpr const char* kGripColour = "#00773a";   // both 4.5:1 or more on white
constexpr const char* kReleaseColour = "#d73027";

// The figure's size in pixels: two panels a row.
constexpr int kWidthPx = 1800;
constexpr int kRowPx = 330;
constexpr int kTopPx = 20;
constexpr int kCaptionPx = 120;   // the title, the thesis's caption, the note

// The datablock that holds an unwrapped curve (gnuplot cannot unwrap as it reads).
std::string block_name(std::size_t panel, std::size_t series) {
  return "$unwrapped_" + std::to_string(panel) + "_" + std::to_string(series);
}

// The curve's time and value, one row a line, as a gnuplot datablock.
std::string datablock(const std::string& name, const CsvTable& t, const std::string& time_column,
                      const Series& s) {
  const std::vector<double> v = series_values(t, s);
  std::string out = name + " << EOD\n";
  char line[64];
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const double time = t.number(r, time_column);
    if (!std::isfinite(time) || !std::isfinite(v[r])) continue;
    std::snprintf(line, sizeof line, "%.9g,%.9g\n", time, v[r]);   // the CSV's separator
    out += line;
  }
  return out + "EOD\n";
}

// gnuplot's "using" for one curve: the time column, then the value.
std::string using_clause(const CsvTable& t, int time_col, const Series& s) {
  const std::string x = std::to_string(time_col) + ":";
  switch (s.kind) {
    case Series::Kind::Value: {
      const std::string c = std::to_string(t.column(s.column));
      return s.scale == 1.0 ? x + c : x + "($" + c + "*" + number(s.scale) + ")";
    }
    case Series::Kind::WorkingLevel: {
      // the state's name (core/names.cc) to its level: Free 0, Distributed 1, Full 2
      const std::string w = "strcol(" + std::to_string(t.column(s.column)) + ")";
      std::string e = "(";
      for (int level = 0; level < 3; ++level) {
        e += w + " eq " + quoted(core::to_string(static_cast<core::WorkingState>(level))) +
             " ? " + std::to_string(level) + " : ";
      }
      return x + e + "NaN)";
    }
    case Series::Kind::Distance:
      return x + "(sqrt(($" + std::to_string(t.column(s.column)) + "-(" + number(s.x0) +
             "))**2 + ($" + std::to_string(t.column(s.column_y)) + "-(" + number(s.y0) +
             "))**2))";
  }
  return x + "(NaN)";
}

// Where panel `index` sits, in screen fractions: two columns, the key to the right of
// each plot (outside the data), the figure's caption under the last row.
void place_panel(std::ostringstream& g, std::size_t index, std::size_t rows, bool right_axis) {
  const double height_px = static_cast<double>(rows * kRowPx + kTopPx + kCaptionPx);
  const std::size_t row = index / 2;
  const double left = index % 2 == 0 ? 0.05 : 0.55;
  const double right = left + 0.28;
  const double top_px = kTopPx + static_cast<double>(row) * kRowPx + 34;   // title above
  const double bottom_px = kTopPx + static_cast<double>(row + 1) * kRowPx - 48;   // x tics, label
  g << "set lmargin at screen " << left << "\n"
    << "set rmargin at screen " << right << "\n"
    << "set tmargin at screen " << 1.0 - top_px / height_px << "\n"
    << "set bmargin at screen " << 1.0 - bottom_px / height_px << "\n"
    // the key in the gap right of the plot (past the right axis' tics and label)
    << "set key at screen " << right + (right_axis ? 0.058 : 0.012) << ", screen "
    << 1.0 - top_px / height_px
    << " left top vertical Left reverse box opaque samplen 2 spacing 1.1 width 1\n";
}

void axis_range(std::ostringstream& g, const char* axis, const std::optional<Range>& r) {
  if (r) {
    g << "set " << axis << "range [" << number(r->lo) << ":" << number(r->hi) << "]\n";
  } else {
    g << "set " << axis << "range [*:*]\n";
  }
}

void draw_panel(std::ostringstream& g, const PlotPlan& plan, const CsvTable& t, const Panel& p,
                std::size_t index) {
  const bool right = std::any_of(p.series.begin(), p.series.end(),
                                 [](const Series& s) { return s.right_axis; });
  place_panel(g, index, (plan.panels.size() + 1) / 2, right);
  g << "set title " << quoted(p.caption) << "\n"
    << "set ylabel " << quoted(p.ylabel) << "\n";
  if (right) {
    g << "set ytics nomirror\nset y2tics\nset y2label " << quoted(p.y2label) << "\n";
  } else {
    g << "set ytics mirror\nunset y2tics\nunset y2label\n";
  }
  if (p.working_tics) {
    g << "set ytics (";
    for (int level = 0; level < 3; ++level) {
      g << (level ? ", " : "")
        << quoted(core::to_string(static_cast<core::WorkingState>(level))) << " " << level;
    }
    g << ")\n";
  }
  axis_range(g, "y", p.y);
  axis_range(g, "y2", right ? p.y2 : std::optional<Range>());

  const int time_col = t.column(plan.time_column);
  g << "plot ";
  for (std::size_t i = 0; i < p.series.size(); ++i) {
    const Series& s = p.series[i];
    const CurveLook look = curve_look(i);
    g << (i ? ", \\\n     " : "")
      << (s.unwrap ? block_name(index, i) + " using 1:2" : "f skip 1 using " + using_clause(t, time_col, s))
      << (s.right_axis ? " axes x1y2" : "") << " title " << quoted(s.title) << " " << s.style
      << " lc rgb '" << look.colour << "' dt " << look.dash;
  }
  // the markers' key entries (the lines themselves are arrows, which have none)
  const auto has = [&](Marker::Kind k) {
    return std::any_of(plan.markers.begin(), plan.markers.end(),
                       [&](const Marker& m) { return m.kind == k; });
  };
  if (has(Marker::Kind::Grip))
    g << ", \\\n     NaN title 'grip' with lines lc rgb '" << kGripColour << "' dt 2 lw 2";
  if (has(Marker::Kind::Release))
    g << ", \\\n     NaN title 'release' with lines lc rgb '" << kReleaseColour
      << "' dt 2 lw 2";
  g << "\n";
  if (p.working_tics) g << "set ytics autofreq\n";
}

}  // namespace

std::string utc_minute(const std::string& iso) {
  // "YYYY-MM-DDTHH:MM..." as written by the recorder
  if (iso.size() < 16 || iso[10] != 'T' || iso[13] != ':') return iso;
  return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}

std::string utc_minute(long long t) {
  const std::time_t when = static_cast<std::time_t>(t);
  std::tm utc{};
  gmtime_r(&when, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
  return text;
}

std::string gnuplot_script(const PlotPlan& plan, const CsvTable& table, const PlotRequest& r) {
  const std::size_t rows = (plan.panels.size() + 1) / 2;
  const int height_px = static_cast<int>(rows) * kRowPx + kTopPx + kCaptionPx;
  const std::string size = std::to_string(kWidthPx) + "," + std::to_string(height_px);
  std::ostringstream g;
  if (ends_with(r.out_path, ".png")) {
    // pngcairo draws anti-aliased; plain libgd png is the fallback on minimal builds
    g << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
         "  set terminal pngcairo size " << size << " font 'sans,10' noenhanced\n"
         "} else {\n"
         "  set terminal png size " << size << " noenhanced\n"
         "}\n";
  } else {
    g << "set terminal svg size " << size
      << " font 'sans,11' noenhanced background rgb 'white'\n";
  }
  g << "set output " << quoted(r.out_path) << "\n"
    << "set datafile separator comma\n"
    << "f = " << quoted(r.csv_path) << "\n"
    << "set grid\n"
    << "set xlabel " << quoted(plan.xlabel) << "\n"
    // the axis ends where the run does (autoscale would round it up to the next tic)
    << (plan.x ? "set xrange [" + number(plan.x->lo) + ":" + number(plan.x->hi) + "]\n" : "")
    << "set style data lines\n"
    << "set multiplot\n";
  // under the figure: which run it is, the thesis's figure it resembles, what was run
  const auto line_y = [&](double px_from_bottom) { return px_from_bottom / height_px; };
  const bool titled = !r.title.empty();
  g << "set label 1 " << quoted(titled ? r.title : plan.caption) << " at screen 0.5, screen "
    << line_y(kCaptionPx * 0.72) << " center font ',14'\n";
  if (titled) {
    g << "set label 2 " << quoted(plan.experiment == Experiment::Run ? plan.caption : "cf. thesis " + plan.caption)
      << " at screen 0.5, screen " << line_y(kCaptionPx * 0.45) << " center font ',11'\n";
  }
  if (!r.note.empty()) {
    g << "set label 3 " << quoted(r.note) << " at screen 0.5, screen "
      << line_y(kCaptionPx * (titled ? 0.2 : 0.4)) << " center font ',10' textcolor rgb '#555555'\n";
  }
  // the unwrapped curves' data
  for (std::size_t p = 0; p < plan.panels.size(); ++p)
    for (std::size_t i = 0; i < plan.panels[p].series.size(); ++i)
      if (plan.panels[p].series[i].unwrap)
        g << datablock(block_name(p, i), table, plan.time_column, plan.panels[p].series[i]);
  int arrow = 1;
  for (const Marker& m : plan.markers) {
    g << "set arrow " << arrow++ << " from " << number(m.time_s) << ", graph 0 to "
      << number(m.time_s) << ", graph 1 nohead back lw 2 dt 2 lc rgb '"
      << (m.kind == Marker::Kind::Grip ? kGripColour : kReleaseColour) << "'\n";
  }
  for (std::size_t i = 0; i < plan.panels.size(); ++i) {
    draw_panel(g, plan, table, plan.panels[i], i);
    if (i == 0) g << "unset label 1\nunset label 2\nunset label 3\n";   // drawn once
  }
  g << "unset multiplot\n"
    << "set output\n";
  return g.str();
}

PlotResult draw_plot(const PlotRequest& request) {
  std::string script;
  try {
    const CsvTable table = CsvTable::read(request.csv_path);
    script = gnuplot_script(plan_plot(table), table, request);
  } catch (const std::exception& e) {
    PlotResult result;
    result.bad_input = true;
    result.message = e.what();
    return result;
  }
  return run_gnuplot(script, request.out_path);
}

namespace {

// gnuplot with its stdin and stderr on the given pipes' ends and its stdout on /dev/null;
// posix_spawnp's result (glibc reports a failed exec, not installed, there).
int spawn_gnuplot(const int in_pipe[2], const int err_pipe[2], pid_t* pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  for (int fd : {in_pipe[0], in_pipe[1], err_pipe[0], err_pipe[1]}) {
    posix_spawn_file_actions_addclose(&actions, fd);
  }
  char prog[] = "gnuplot";
  char* argv[] = {prog, nullptr};
  const int rc = posix_spawnp(pid, prog, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc;
}

// The script into gnuplot's stdin, then closed. It is a few kB: it fits the pipe, so
// writing cannot wait on gnuplot's stderr.
void write_script(int fd, const std::string& script) {
  std::size_t written = 0;
  while (written < script.size()) {
    const ssize_t n = write(fd, script.data() + written, script.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;   // gnuplot quit early; its stderr says why
    written += static_cast<std::size_t>(n);
  }
  close(fd);
}

// Everything gnuplot wrote on stderr until it closed it; the pipe is closed after.
std::string read_errors(int fd) {
  std::string errors;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    errors.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  return errors;
}

// Done when gnuplot exited 0 and left a non-empty out_path; its warnings are the message.
PlotResult gnuplot_outcome(int status, std::string errors, const std::string& out_path) {
  PlotResult result;
  while (!errors.empty() && (errors.back() == '\n' || errors.back() == ' ')) errors.pop_back();

  struct stat st {};
  const bool exited_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!exited_ok) {
    result.message = "gnuplot failed" + (errors.empty() ? std::string() : ":\n" + errors);
    return result;
  }
  if (stat(out_path.c_str(), &st) != 0 || st.st_size == 0) {
    result.message = "gnuplot wrote no '" + out_path + "'" +
                     (errors.empty() ? std::string() : ":\n" + errors);
    return result;
  }
  result.ok = true;
  result.message = errors;
  return result;
}

}  // namespace

PlotResult run_gnuplot(const std::string& script, const std::string& out_path) {
  PlotResult result;
  int in_pipe[2];
  int err_pipe[2];
  if (pipe(in_pipe) != 0) {
    result.message = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  if (pipe(err_pipe) != 0) {
    result.message = std::string("pipe: ") + std::strerror(errno);
    close(in_pipe[0]);
    close(in_pipe[1]);
    return result;
  }

  pid_t pid = 0;
  const int rc = spawn_gnuplot(in_pipe, err_pipe, &pid);
  close(in_pipe[0]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(in_pipe[1]);
    close(err_pipe[0]);
    result.gnuplot_missing = rc == ENOENT;
    result.message = rc == ENOENT ? "gnuplot is not installed (not found on PATH); "
                                    "install it (Debian: gnuplot-nox) to get plots"
                                  : std::string("cannot start gnuplot: ") + std::strerror(rc);
    return result;
  }

  write_script(in_pipe[1], script);
  const std::string errors = read_errors(err_pipe[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return gnuplot_outcome(status, errors, out_path);
}

}  // namespace clamsim::tools
