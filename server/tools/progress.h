// Progress of a long offline run on stderr: one overwritten line on a terminal (at most
// ~5 updates per second), a few plain lines when stderr is a file or pipe, or nothing.
#pragma once

#include <chrono>

namespace clamsim::tools {

class Progress {
 public:
  enum class Mode { Off, Terminal, Lines };

  // Terminal when stderr is a TTY, else Lines; Off when quiet.
  static Mode detect(bool quiet);

  Progress(Mode mode, double total_s);
  // Cheap when nothing is due: a clock read and a compare.
  void update(double simulated_s);
  // Clears the terminal line so the summary starts on a clean one.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  double wall_s() const;

  Mode mode_;
  double total_s_;
  Clock::time_point start_;
  Clock::time_point next_draw_;
  int next_quarter_ = 1;      // Lines mode: the next 25 % mark to report
  bool drawn_ = false;
};

}  // namespace clamsim::tools
