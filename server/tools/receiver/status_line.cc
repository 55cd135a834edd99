#include "tools/receiver/status_line.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

namespace clamsim::receiver {
namespace {

std::string fmt(const char* format, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, a);
  return buf;
}

// Cuts to `columns` terminal cells, counting UTF-8 sequences as one cell each.
std::string fit(const std::string& s, std::size_t columns) {
  std::size_t cells = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    if (cells == columns) return s.substr(0, i);
    ++cells;
  }
  return s;
}

std::size_t terminal_columns() {
  struct winsize w {};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return 80;
}

// "task 87 pts 1/3 42/450s", "task done 87 pts", "task timed out 0 pts"
std::string format_score(const client::ReceivedScore& t) {
  std::string s = "task";
  if (t.finished) s += t.completed ? " done" : " timed out";
  s += fmt(" %.0f pts", t.total);
  if (!t.finished) {
    s += " " + std::to_string(t.delivered) + "/" + std::to_string(t.required) +
         fmt(" %.0f", t.elapsed_s) + fmt("/%.0fs", t.limit_s);
  }
  if (t.penalty_points > 0.0) s += fmt(" (-%.0f)", t.penalty_points);
  return s;
}

}  // namespace

std::string format_status(const MonitorSnapshot& s, const std::array<float, 5>& v,
                          const std::string& source_label) {
  std::string line;
  if (!s.latest) {
    line = fmt("waiting for the first frame (%.1f s)", s.since_last_s);
  } else {
    const auto& d = s.latest->display;
    auto x = [&](std::size_t i) { return static_cast<double>(d[i]); };
    line = fmt("swing %.1f°", x(0)) + fmt(" boom %.1f°", x(1)) + fmt(" tele %.2fm", x(2)) +
           fmt(" clam %.2fm", x(3)) + fmt(" open %.1f°", x(4)) + fmt(" c1 %.2fm", x(5)) +
           fmt(" c2 %.2fm", x(6)) + fmt(" load %.0fkg", x(7));
    if (s.latest->extended) {
      line += std::string(" | ") + core::to_string(s.latest->working) +
              fmt(" T %.1f", static_cast<double>(s.latest->tension_N[0]) / 1000.0) +
              fmt("/%.1fkN", static_cast<double>(s.latest->tension_N[1]) / 1000.0);
      if (s.latest->score.enabled) line += " | " + format_score(s.latest->score);
    }
    line += fmt(" | %.0f fps", s.rate_hz);
    if (s.latest->extended) line += " " + std::to_string(s.gaps) + " gaps";
    if (s.since_last_s > 1.0) line += fmt(" | NO FRAMES FOR %.0f s", s.since_last_s);
  }
  line += fmt(" | V %+.1f", static_cast<double>(v[0]));
  for (std::size_t i = 1; i < v.size(); ++i) line += fmt(" %+.1f", static_cast<double>(v[i]));
  line += " | " + source_label;
  return line;
}

StatusLine::StatusLine(bool quiet) : enabled_(!quiet && isatty(STDERR_FILENO) != 0) {}

void StatusLine::update(double now_s, const MonitorSnapshot& s, const std::array<float, 5>& volts,
                        const std::string& source_label) {
  if (!enabled_ || now_s < next_draw_s_) return;
  next_draw_s_ = now_s + 0.2;
  const std::string text = fit(format_status(s, volts, source_label), terminal_columns() - 1);
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void StatusLine::finish() {
  if (drawn_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace clamsim::receiver
