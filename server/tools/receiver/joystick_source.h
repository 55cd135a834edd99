// Controls from a Linux joystick (/dev/input/jsN, the joystick API of linux/joystick.h):
// axis events update the stick positions and the mapping turns them into volts. When the
// device goes away the volts fall to 0 (a released stick) and it is reopened once a second.
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
  std::string label() const override;
  // Axes the device reports (JSIOCGAXES); 0 when it does not say (e.g. a recorded file).
  int axis_count() const { return axis_count_; }
  const std::string& name() const { return name_; }

 private:
  bool open_device();
  void drain();

  std::string device_;
  JoystickMapping mapping_;
  int fd_ = -1;
  int axis_count_ = 0;
  std::string name_;
  std::array<std::int16_t, 64> axes_{};
  double retry_at_s_ = 0.0;
};

}  // namespace clamsim::receiver
