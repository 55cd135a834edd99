// What the keys typed on the receiver's terminal do, by the shared layout
// (config/keyboard.json, model/keyboard_file.h). Pure: bytes in, latched volts and requests
// out, so it is tested without a terminal. A terminal reports presses, not releases, so each
// press of a signal key moves its channel one step and the value holds (a latched lever),
// clamped to -5..+5 V. Arrow keys arrive as escape sequences, possibly split across reads.
#pragma once

#include <array>
#include <map>
#include <string>
#include <string_view>

#include "model/keyboard_file.h"

namespace clamsim::receiver {

class KeyboardKeys {
 public:
  KeyboardKeys(const model::KeyboardLayout& layout, float step_v);

  void feed(std::string_view bytes);
  const std::array<float, 5>& volts() const { return volts_; }
  bool quit() const { return quit_; }
  // A restart was asked for and confirmed since the last call: the restart key asks (a
  // stray press must not throw an attempt away, as in the browser), and the restart key
  // again or y confirms; any other key keeps the attempt and does what it does.
  bool take_restart();
  // The help key was pressed since the last call.
  bool take_help();
  // What the trainee must be told since the last call: the restart's question, or that it
  // was not confirmed; "" when nothing.
  std::string take_notice();
  // A new attempt starts from neutral: the held volts do not carry into it.
  void zero() { volts_.fill(0.0f); }

 private:
  struct Target {
    int channel = -1;  // ControlSignal index, or -1 for an action
    float sign = 0.0f;
    model::KeyAction action = model::KeyAction::Quit;
  };
  void apply(const Target& t);
  // How `pending_` relates to the known sequences: 2 complete, 1 a prefix, 0 neither.
  int match() const;

  std::map<std::string, Target> sequences_;
  float step_v_;
  std::string pending_;
  std::array<float, 5> volts_{};
  bool quit_ = false;
  bool restart_ = false;
  bool help_ = false;
  bool confirming_ = false;   // the restart key was pressed: the next key answers
  std::string notice_;
  std::string restart_label_;
};

// The legend printed at start and on the help key, e.g.
//   keys: ←/→ swing  ↑/↓ boom  W/S telescope  Q/A cable 1  E/D cable 2
//         Space all to 0 V  R restart task (R again or y confirms)  ? help  X quit
std::string keyboard_legend(const model::KeyboardLayout& layout);

}  // namespace clamsim::receiver
