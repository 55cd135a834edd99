// Controls from the keyboard, for a classroom PC without joysticks. The terminal goes into
// raw mode (no echo, no line buffering; Ctrl-C still interrupts) and is restored on exit,
// on SIGINT/SIGTERM/SIGHUP (the receiver's main loop ends normally) and, as a last resort,
// from a second signal via restore_from_signal(). The keys are the browser's, from the
// shared layout file (keyboard_keys.h).
#pragma once

#include <string>

#include "model/keyboard_file.h"
#include "tools/receiver/control_source.h"
#include "tools/receiver/keyboard_keys.h"

namespace clamsim::receiver {

class KeyboardSource : public ControlSource {
 public:
  // Throws std::runtime_error when standard input is not a terminal.
  KeyboardSource(const model::KeyboardLayout& layout, float step_v);
  ~KeyboardSource() override;
  KeyboardSource(const KeyboardSource&) = delete;
  KeyboardSource& operator=(const KeyboardSource&) = delete;

  std::array<float, 5> sample(double t_s) override;
  bool quit_requested() const override { return keys_.quit(); }
  bool take_restart_request() override { return keys_.take_restart(); }
  void on_restart() override { keys_.zero(); }
  std::string label() const override { return "keyboard"; }
  // The help key was pressed since the last call.
  bool take_help_request() { return keys_.take_help(); }
  // The restart's question or its answer, to print; "" when none (keyboard_keys.h).
  std::string take_notice() { return keys_.take_notice(); }
  // keyboard_legend() of the layout.
  const std::string& legend() const { return legend_; }

  // Async-signal-safe: puts the terminal back as it was (no-op when not in raw mode).
  static void restore_from_signal();

 private:
  KeyboardKeys keys_;
  std::string legend_;
};

// Where --keyboard finds the layout without --keys: config/keyboard.json under the working
// directory (a checkout), else share/clamsim/keyboard.json beside the binary's bin/
// (an installed receiver). Throws std::runtime_error naming both when neither exists.
std::string default_keyboard_file(const std::string& argv0);

}  // namespace clamsim::receiver
