// Controls from the keyboard, for a classroom PC without joysticks. The terminal goes into
// raw mode (no echo, no line buffering; Ctrl-C still interrupts) and is restored on exit,
// on SIGINT/SIGTERM/SIGHUP (the receiver's main loop ends normally) and, as a last resort,
// from a second signal via restore_from_signal().
//
// A terminal reports key presses, not releases, so each press moves its channel one step
// and the value holds (a latched lever), clamped to -5..+5 V:
//   a / d  swing  + / -  (counter-clockwise / clockwise seen from above)
//   w / s  boom   + / -  (up / down)
//   r / f  telescope + / - (out / in)
//   i / k  cable 1 (main hoist) + / -  (reel in / pay out)
//   o / l  cable 2 (aux hoist)  + / -
//   space  all channels to 0 V          n  new attempt at the task     q  quit
#pragma once

#include <termios.h>

#include <array>
#include <string>

#include "tools/receiver/control_source.h"

namespace clamsim::receiver {

class KeyboardSource : public ControlSource {
 public:
  // Throws std::runtime_error when standard input is not a terminal.
  explicit KeyboardSource(float step_v);
  ~KeyboardSource() override;
  KeyboardSource(const KeyboardSource&) = delete;
  KeyboardSource& operator=(const KeyboardSource&) = delete;

  std::array<float, 5> sample(double t_s) override;
  bool quit_requested() const override { return quit_; }
  bool take_restart_request() override;
  std::string label() const override { return "keyboard"; }

  // Applies one key to the latched volts (or sets quit / restart); public so it can be
  // tested without a terminal.
  static void apply_key(char key, float step_v, std::array<float, 5>& volts, bool& quit,
                        bool& restart);

  // Async-signal-safe: puts the terminal back as it was (no-op when not in raw mode).
  static void restore_from_signal();

 private:
  float step_v_;
  std::array<float, 5> volts_{};
  bool quit_ = false;
  bool restart_ = false;
};

// The key help line for --help and the status line.
const char* keyboard_help();

}  // namespace clamsim::receiver
