// The live one-line status on stderr, redrawn in place at most 5 times a second, only when
// stderr is a terminal (a log file should not fill with carriage returns).
#pragma once

#include <array>
#include <string>

#include "tools/receiver/frame_monitor.h"

namespace clamsim::receiver {

// The line's text, without control characters: the eight DisplayData values with units,
// then (extended frames) the working state and the cable tensions, the training task's
// live score and clock when the world has a task, the frame rate, the number of sequence
// gaps, the volts being sent and the input's name. At most `columns` terminal cells: the
// least useful fields go first (the input's name, the gaps, the tensions, the jaws'
// opening, ... the swing last: the joints the volts move stay longest); the volts, the score
// with its clock and a "no frames" warning always stay.
std::string format_status(const MonitorSnapshot& s, const std::array<float, 5>& volts,
                          const std::string& source_label, std::size_t columns = 1000);

// Terminal cells of a UTF-8 text (each code point one cell; the line's degree signs are).
std::size_t terminal_cells(const std::string& text);

class StatusLine {
 public:
  // Enabled when stderr is a terminal and not `quiet`.
  explicit StatusLine(bool quiet);
  void update(double now_s, const MonitorSnapshot& s, const std::array<float, 5>& volts,
              const std::string& source_label);
  // Clears the line so what follows starts clean.
  void finish();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  double next_draw_s_ = 0.0;
  bool drawn_ = false;
};

}  // namespace clamsim::receiver
