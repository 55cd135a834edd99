#include "tools/receiver/status_line.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

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

// One field of the line and when it goes for want of room: 0 never, else the lower the
// sooner. Fields of a group are joined by " ", groups by " | ".
struct Field {
  std::string text;
  int drop = 0;
};
using Group = std::vector<Field>;

std::string joined(const std::vector<Group>& groups) {
  std::string line;
  for (const Group& g : groups) {
    std::string part;
    for (const Field& f : g) part += (part.empty() ? "" : " ") + f.text;
    if (!part.empty()) line += (line.empty() ? "" : " | ") + part;
  }
  return line;
}

}  // namespace

std::size_t terminal_cells(const std::string& text) {
  std::size_t cells = 0;
  for (const char c : text) cells += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return cells;
}

std::string format_status(const MonitorSnapshot& s, const std::array<float, 5>& v,
                          const std::string& source_label, std::size_t columns) {
  // the drop order: what a trainee at the controls misses least goes first; the swing, the
  // boom, the telescope and the cables' lengths are what the volts move, so they stay longest
  enum : int { kLabel = 1, kGaps, kTension, kOpen, kClam, kLoad, kWorking, kFps, kTele,
               kCable2, kCable1, kBoom, kSwing };
  std::vector<Group> groups;
  if (!s.latest) {
    groups.push_back({{fmt("waiting for the first frame (%.1f s)", s.since_last_s), 0}});
  } else {
    const auto& d = s.latest->display;
    auto x = [&](std::size_t i) { return static_cast<double>(d[i]); };
    groups.push_back({{fmt("swing %.1f°", x(0)), kSwing}, {fmt("boom %.1f°", x(1)), kBoom},
                      {fmt("tele %.2fm", x(2)), kTele}, {fmt("clam %.2fm", x(3)), kClam},
                      {fmt("open %.1f°", x(4)), kOpen}, {fmt("c1 %.2fm", x(5)), kCable1},
                      {fmt("c2 %.2fm", x(6)), kCable2}, {fmt("load %.0fkg", x(7)), kLoad}});
    if (s.latest->extended) {
      groups.push_back({{core::to_string(s.latest->working), kWorking},
                        {fmt("T %.1f", static_cast<double>(s.latest->tension_N[0]) / 1000.0) +
                             fmt("/%.1fkN", static_cast<double>(s.latest->tension_N[1]) / 1000.0),
                         kTension}});
      if (s.latest->score.enabled) groups.push_back({{format_score(s.latest->score), 0}});
    }
    Group rate{{fmt("%.0f fps", s.rate_hz), kFps}};
    if (s.latest->extended) rate.push_back({std::to_string(s.gaps) + " gaps", kGaps});
    groups.push_back(rate);
    if (s.since_last_s > 1.0) groups.push_back({{fmt("NO FRAMES FOR %.0f s", s.since_last_s), 0}});
  }
  std::string volts = fmt("V %+.1f", static_cast<double>(v[0]));
  for (std::size_t i = 1; i < v.size(); ++i) volts += fmt(" %+.1f", static_cast<double>(v[i]));
  groups.push_back({{volts, 0}});
  groups.push_back({{source_label, kLabel}});

  std::string line = joined(groups);
  while (terminal_cells(line) > columns) {
    Field* next = nullptr;  // the remaining field to drop first
    Group* in = nullptr;
    for (Group& g : groups)
      for (Field& f : g)
        if (f.drop > 0 && (next == nullptr || f.drop < next->drop)) next = &f, in = &g;
    if (next == nullptr) return fit(line, columns);  // only what always stays, and too wide
    in->erase(in->begin() + (next - in->data()));
    line = joined(groups);
  }
  return line;
}

StatusLine::StatusLine(bool quiet) : enabled_(!quiet && isatty(STDERR_FILENO) != 0) {}

void StatusLine::update(double now_s, const MonitorSnapshot& s, const std::array<float, 5>& volts,
                        const std::string& source_label) {
  if (!enabled_ || now_s < next_draw_s_) return;
  next_draw_s_ = now_s + 0.2;
  // one cell short of the width: a full last cell would wrap the cursor onto a new line
  const std::string text = format_status(s, volts, source_label, terminal_columns() - 1);
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
