#include "tools/receiver/joystick_source.h"

#include <fcntl.h>
#include <linux/joystick.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace clamsim::receiver {

JoystickSource::JoystickSource(std::string device, JoystickMapping mapping)
    : device_(std::move(device)), mapping_(std::move(mapping)) {
  if (!open_device()) {
    throw std::runtime_error("--joystick: cannot open '" + device_ + "': " + std::strerror(errno));
  }
}

JoystickSource::~JoystickSource() {
  if (fd_ >= 0) close(fd_);
}

bool JoystickSource::open_device() {
  fd_ = open(device_.c_str(), O_RDONLY | O_NONBLOCK);
  if (fd_ < 0) return false;
  // both ioctls fail harmlessly on something that is not a joystick (a recorded file)
  unsigned char axes = 0;
  if (ioctl(fd_, JSIOCGAXES, &axes) == 0) axis_count_ = axes;
  unsigned char buttons = 0;
  if (ioctl(fd_, JSIOCGBUTTONS, &buttons) == 0) button_count_ = buttons;
  char name[128] = {};
  if (ioctl(fd_, JSIOCGNAME(sizeof name - 1), name) >= 0) name_ = name;
  axes_.fill(0);
  restart_held_ = false;
  return true;
}

void JoystickSource::drain() {
  js_event e;
  for (;;) {
    const ssize_t n = read(fd_, &e, sizeof e);
    if (n == static_cast<ssize_t>(sizeof e)) {
      // JS_EVENT_INIT marks the synthetic events that report the state at open time
      const bool init = (e.type & JS_EVENT_INIT) != 0;
      const int type = e.type & ~JS_EVENT_INIT;
      if (type == JS_EVENT_AXIS && e.number < axes_.size()) {
        axes_[e.number] = e.value;
      } else if (type == JS_EVENT_BUTTON && mapping_.restart_button &&
                 e.number == *mapping_.restart_button) {
        const bool down = e.value != 0;
        if (down && !restart_held_ && !init) restart_pressed_ = true;
        restart_held_ = down;
      }
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n == 0) return;  // a regular file at its end: the sticks stay where they are
    // unplugged (ENODEV) or unreadable: release the sticks and try again later
    close(fd_);
    fd_ = -1;
    axes_.fill(0);
    restart_held_ = false;
    return;
  }
}

std::array<float, 5> JoystickSource::sample(double t_s) {
  if (fd_ < 0 && t_s >= retry_at_s_) {
    retry_at_s_ = t_s + 1.0;
    open_device();
  }
  if (fd_ >= 0) drain();
  if (fd_ < 0) return {};
  return apply_mapping(mapping_, axes_.data(), axes_.size());
}

bool JoystickSource::take_restart_request() {
  const bool r = restart_pressed_;
  restart_pressed_ = false;
  return r;
}

std::string JoystickSource::label() const {
  if (fd_ < 0) return "JOYSTICK LOST: " + device_;
  return name_.empty() ? device_ : name_;
}

}  // namespace clamsim::receiver
