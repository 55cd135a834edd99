// Where a receiver's five voltages come from: a control script, the keyboard or a
// joystick. The receiver samples its source at 20 Hz and sends each sample as one oneway
// GetControlInput, as the thesis's receiver sampled its joysticks on a multimedia timer.
#pragma once

#include <array>
#include <string>

namespace clamsim::receiver {

class ControlSource {
 public:
  virtual ~ControlSource() = default;
  // The volts to send at t seconds after the subscription, ControlSignal order.
  virtual std::array<float, 5> sample(double t_s) = 0;
  // The user asked to stop (the keyboard's 'q').
  virtual bool quit_requested() const { return false; }
  // The user asked for a new attempt at the task (the keyboard's 'n') since the last call.
  virtual bool take_restart_request() { return false; }
  // The server began a new attempt: controls that latch (the keyboard's) go back to neutral,
  // so the new attempt does not start with the old one's levers held.
  virtual void on_restart() {}
  // A short note for the status line ("script demo.ctl", "keyboard", "js0"), or a warning.
  virtual std::string label() const = 0;
};

// Neutral sticks: 0 V on every channel (a receiver that only watches).
class NeutralSource : public ControlSource {
 public:
  std::array<float, 5> sample(double) override { return {}; }
  std::string label() const override { return "neutral"; }
};

}  // namespace clamsim::receiver
