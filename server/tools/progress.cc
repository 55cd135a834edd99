#include "tools/progress.h"

#include <unistd.h>

#include <cstdio>

namespace clamsim::tools {
namespace {

constexpr auto kRedrawEvery = std::chrono::milliseconds(200);
constexpr double kLongRunWall_s = 1.0;   // Lines mode stays silent for runs shorter than this

}  // namespace

Progress::Mode Progress::detect(bool quiet) {
  if (quiet) return Mode::Off;
  return isatty(STDERR_FILENO) ? Mode::Terminal : Mode::Lines;
}

Progress::Progress(Mode mode, double total_s)
    : mode_(mode), total_s_(total_s), start_(Clock::now()), next_draw_(start_ + kRedrawEvery) {}

double Progress::wall_s() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void Progress::update(double simulated_s) {
  if (mode_ == Mode::Off || total_s_ <= 0.0) return;
  const double fraction = simulated_s / total_s_;
  if (mode_ == Mode::Terminal) {
    const auto now = Clock::now();
    if (now < next_draw_) return;
    next_draw_ = now + kRedrawEvery;
    const double wall = wall_s();
    std::fprintf(stderr, "\rclamsim-sim: %3.0f %%  %.1f of %.1f s simulated  (%.1fx real time)  ",
                 100.0 * fraction, simulated_s, total_s_, wall > 0.0 ? simulated_s / wall : 0.0);
    std::fflush(stderr);
    drawn_ = true;
    return;
  }
  if (next_quarter_ > 3 || fraction < 0.25 * next_quarter_) return;
  const double wall = wall_s();
  while (next_quarter_ <= 3 && fraction >= 0.25 * next_quarter_) ++next_quarter_;
  if (wall < kLongRunWall_s) return;
  std::fprintf(stderr, "clamsim-sim: %.0f %% (%.1f of %.1f s simulated, %.1f s wall)\n",
               100.0 * fraction, simulated_s, total_s_, wall);
}

void Progress::finish() {
  if (mode_ == Mode::Terminal && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
}

}  // namespace clamsim::tools
