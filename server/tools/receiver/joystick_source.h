// Controls from a Linux joystick (/dev/input/jsN, the joystick API of linux/joystick.h):
// axis events update the stick positions and the mapping turns them into volts; pressing
// the mapping's restart button asks for a new attempt at the task. When the device goes
// away the volts fall to 0 (a released stick), the button counts as released, and the
// device is reopened once a second.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tools/receiver/control_source.h"
#include "tools/receiver/joystick_mapping.h"

namespace clamsim::receiver {

class JoystickSource : public ControlSource {
 public:
  // Throws std::runtime_error when the device cannot be opened.
  JoystickSource(std::string device, JoystickMapping mapping);
  ~JoystickSource() override;
  JoystickSource(const JoystickSource&) = delete;
  JoystickSource& operator=(const JoystickSource&) = delete;

  std::array<float, 5> sample(double t_s) override;
  // A press of the restart button read by sample() since the last call. Only a real
  // event's 0 -> 1 counts: the JS_EVENT_INIT events sent at (re)open report a button held
  // then, which is not a press.
  bool take_restart_request() override;
  std::string label() const override;
  // Axes and buttons the device reports (JSIOCGAXES, JSIOCGBUTTONS); 0 when it does not
  // say (e.g. a recorded file).
  int axis_count() const { return axis_count_; }
  int button_count() const { return button_count_; }
  const std::string& name() const { return name_; }
  const JoystickMapping& mapping() const { return mapping_; }

 private:
  bool open_device();
  void drain();

  std::string device_;
  JoystickMapping mapping_;
  int fd_ = -1;
  int axis_count_ = 0;
  int button_count_ = 0;
  std::string name_;
  std::array<std::int16_t, 64> axes_{};
  bool restart_held_ = false;     // the restart button's last known state
  bool restart_pressed_ = false;  // a press not yet taken
  double retry_at_s_ = 0.0;
};

}  // namespace clamsim::receiver
