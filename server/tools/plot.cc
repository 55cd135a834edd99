#include "tools/plot.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <sstream>

#include "tools/csv_writer.h"

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

// "column 7" in gnuplot's own numbering, from the writer's column list
std::string col(const char* name) { return std::to_string(csv_column_number(name)); }

// using clause "1:N" for a numeric column, optionally scaled
std::string use(const char* name, const char* scale = nullptr) {
  if (scale == nullptr) return "1:" + col(name);
  return "1:($" + col(name) + scale + ")";
}

// Autoscale `axis` (y or y2) over the columns, but never narrower than `span`: a quantity
// that barely moves (telescope at rest) would otherwise get tics like 12, 12, 12.0001 from
// numerical noise. Uses the statistics gathered before the multiplot (stats_for).
std::string min_span(const char* axis, std::initializer_list<const char*> names, double span,
                     double factor = 1.0) {
  std::ostringstream g;
  g << "lo = 1e300; hi = -1e300\n";
  for (const char* name : names) {
    const std::string c = "c" + col(name);
    g << "lo = " << c << "_min * " << factor << " < lo ? " << c << "_min * " << factor
      << " : lo; hi = " << c << "_max * " << factor << " > hi ? " << c << "_max * " << factor
      << " : hi\n";
  }
  g << "if (hi - lo < " << span << ") {\n"
    << "  set " << axis << "range [(hi + lo) / 2 - " << span / 2 << ":(hi + lo) / 2 + "
    << span / 2 << "]\n"
    << "} else {\n"
    << "  set " << axis << "range [*:*]\n"
    << "}\n";
  return g.str();
}

// stats obeys whatever ranges are set, so it runs once up front, before any panel sets one
std::string stats_for(std::initializer_list<const char*> names) {
  std::ostringstream g;
  for (const char* name : names) {
    g << "stats f skip 1 using " << col(name) << " nooutput name 'c" << col(name) << "'\n";
  }
  return g.str();
}

}  // namespace

std::string gnuplot_script(const PlotRequest& r) {
  std::ostringstream g;
  if (ends_with(r.out_path, ".png")) {
    // pngcairo draws anti-aliased; plain libgd png is the fallback on minimal builds
    g << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
         "  set terminal pngcairo size 1600,1200 font 'sans,10' noenhanced\n"
         "} else {\n"
         "  set terminal png size 1600,1200 noenhanced\n"
         "}\n";
  } else {
    g << "set terminal svg size 1600,1200 font 'sans,11' noenhanced background rgb 'white'\n";
  }
  g << "set output " << quoted(r.out_path) << "\n"
    << "set datafile separator comma\n"
    << "f = " << quoted(r.csv_path) << "\n"
    << "set grid\n"
    << "set key top right box opaque samplen 2\n"
    << "set xlabel 'time [s]'\n"
    << "set style data lines\n"
    << stats_for({"swing_deg", "boom_deg", "telescope_m", "swing_rate_deg_s", "boom_rate_deg_s",
                  "telescope_rate_m_s", "T1_N", "T2_N", "theta2_clam_deg", "vA_up_m_s",
                  "vC_up_m_s"})
    << "set multiplot layout 3,2 title " << quoted(r.title) << " font ',13'\n";

  // 1: what the operator commanded
  g << "set title 'Control signals to the servo valves'\n"
    << "set ylabel 'voltage [V]'\n"
    << "set yrange [-5.5:5.5]\n"
    // widths step down so channels driven with the same signal (5.1.2) stay visible
    << "plot f skip 1 using " << use("swing_V") << " title 'swing' lw 5, \\\n"
    << "     f skip 1 using " << use("boom_V") << " title 'boom' lw 3, \\\n"
    << "     f skip 1 using " << use("telescope_V") << " title 'telescope' lw 1, \\\n"
    << "     f skip 1 using " << use("hoist1_V") << " title 'cable 1 (main hoist)' lw 3, \\\n"
    << "     f skip 1 using " << use("hoist2_V") << " title 'cable 2 (aux hoist)' lw 1.5 dt 2\n"
    << "set yrange [*:*]\n";

  // 2: crane joints, angles left, telescope length right (thesis Figs 5.6, 5.8, 5.10)
  g << "set title 'Crane joints'\n"
    << "set ylabel 'angle [deg]'\n"
    << "set y2label 'telescope length [m]'\n"
    << "set ytics nomirror\n"
    << "set y2tics\n"
    << min_span("y", {"swing_deg", "boom_deg"}, 2.0)
    << min_span("y2", {"telescope_m"}, 0.5)
    << "plot f skip 1 using " << use("swing_deg") << " title 'swing [deg]', \\\n"
    << "     f skip 1 using " << use("boom_deg") << " title 'boom [deg]', \\\n"
    << "     f skip 1 using " << use("telescope_m") << " axes x1y2 title 'telescope [m]'\n";

  // 3: their rates (Figs 5.7, 5.9, 5.11)
  g << "set title 'Crane joint velocities'\n"
    << "set ylabel 'angular velocity [deg/s]'\n"
    << "set y2label 'telescope speed [m/s]'\n"
    << min_span("y", {"swing_rate_deg_s", "boom_rate_deg_s"}, 1.0)
    << min_span("y2", {"telescope_rate_m_s"}, 0.05)
    << "plot f skip 1 using " << use("swing_rate_deg_s") << " title 'swing [deg/s]', \\\n"
    << "     f skip 1 using " << use("boom_rate_deg_s") << " title 'boom [deg/s]', \\\n"
    << "     f skip 1 using " << use("telescope_rate_m_s")
    << " axes x1y2 title 'telescope [m/s]'\n"
    << "unset y2tics\n"
    << "unset y2label\n"
    << "set ytics mirror\n";

  // 4: cable tensions (Fig 5.2)
  g << "set title 'Cable tensions'\n"
    << "set ylabel 'tension [kN]'\n"
    << min_span("y", {"T1_N", "T2_N"}, 1.0, 1e-3)
    << "plot f skip 1 using " << use("T1_N", "/1000.0") << " title 'T1 (cable 1, point A)', \\\n"
    << "     f skip 1 using " << use("T2_N", "/1000.0") << " title 'T2 (cable 2, point C)'\n";

  // 5: clam bucket angle with the working state as a step line (Fig 5.3, Table 2.3)
  const std::string w = "strcol(" + col("working") + ")";
  g << "set title 'Clam bucket angle theta2 and working state'\n"
    << "set ylabel 'theta2 [deg]'\n"
    << "set y2label 'working state'\n"
    << "set ytics nomirror\n"
    << min_span("y", {"theta2_clam_deg"}, 5.0)
    << "set y2range [-0.3:2.3]\n"
    << "set y2tics ('Free' 0, 'Distributed' 1, 'Full' 2)\n"
    << "plot f skip 1 using " << use("theta2_clam_deg") << " title 'theta2 [deg]' lw 2, \\\n"
    << "     f skip 1 using 1:(" << w << " eq 'Free' ? 0 : " << w
    << " eq 'Distributed' ? 1 : 2) axes x1y2 with steps lc rgb '#808080' dt 2"
    << " title 'working state'\n"
    << "unset y2tics\n"
    << "unset y2label\n"
    << "set y2range [*:*]\n"
    << "set ytics mirror\n";

  // 6: vertical speeds of the clam's bodies (Fig 5.4)
  g << "set title 'Vertical speed of clam points A and C (up positive)'\n"
    << "set ylabel 'speed [m/s]'\n"
    << min_span("y", {"vA_up_m_s", "vC_up_m_s"}, 0.1)
    << "plot f skip 1 using " << use("vA_up_m_s") << " title 'A (top, cable 1)', \\\n"
    << "     f skip 1 using " << use("vC_up_m_s") << " title 'C (pulley, cable 2)'\n";

  g << "unset multiplot\n"
    << "set output\n";
  return g.str();
}

PlotResult draw_plot(const PlotRequest& request) {
  PlotResult result;
  const std::string script = gnuplot_script(request);

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
  pid_t pid = 0;
  // glibc reports a failed exec (not installed) as posix_spawnp's return value
  const int rc = posix_spawnp(&pid, prog, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
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

  // the script is a few kB: it fits the pipe, so writing cannot wait on gnuplot's stderr
  std::size_t written = 0;
  while (written < script.size()) {
    const ssize_t n = write(in_pipe[1], script.data() + written, script.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;   // gnuplot quit early; its stderr says why
    written += static_cast<std::size_t>(n);
  }
  close(in_pipe[1]);

  std::string errors;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(err_pipe[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    errors.append(buf, static_cast<std::size_t>(n));
  }
  close(err_pipe[0]);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  while (!errors.empty() && (errors.back() == '\n' || errors.back() == ' ')) errors.pop_back();

  struct stat st {};
  const bool exited_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!exited_ok) {
    result.message = "gnuplot failed" + (errors.empty() ? std::string() : ":\n" + errors);
    return result;
  }
  if (stat(request.out_path.c_str(), &st) != 0 || st.st_size == 0) {
    result.message = "gnuplot wrote no '" + request.out_path + "'" +
                     (errors.empty() ? std::string() : ":\n" + errors);
    return result;
  }
  result.ok = true;
  result.message = errors;
  return result;
}

}  // namespace clamsim::tools
