#include "tools/receiver/keyboard_source.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <stdexcept>

namespace clamsim::receiver {
namespace {

// The terminal as we found it; static so a signal handler can reach it.
struct termios g_saved;
volatile std::sig_atomic_t g_raw = 0;

}  // namespace

const char* keyboard_help() {
  return "a/d swing  w/s boom  r/f telescope  i/k cable 1  o/l cable 2  space zero  "
         "n restart task  q quit";
}

KeyboardSource::KeyboardSource(float step_v) : step_v_(step_v) {
  if (isatty(STDIN_FILENO) == 0) {
    throw std::runtime_error("--keyboard needs a terminal on standard input");
  }
  if (tcgetattr(STDIN_FILENO, &g_saved) != 0) {
    throw std::runtime_error("--keyboard: cannot read the terminal's settings");
  }
  struct termios raw = g_saved;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);  // ISIG stays: Ctrl-C interrupts
  raw.c_cc[VMIN] = 0;  // read() returns at once with what is there
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) {
    throw std::runtime_error("--keyboard: cannot put the terminal in raw mode");
  }
  g_raw = 1;
}

KeyboardSource::~KeyboardSource() { restore_from_signal(); }

void KeyboardSource::restore_from_signal() {
  if (g_raw != 0) {
    tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);  // async-signal-safe
    g_raw = 0;
  }
}

void KeyboardSource::apply_key(char key, float step_v, std::array<float, 5>& volts, bool& quit,
                               bool& restart) {
  struct Binding {
    char key;
    std::size_t channel;   // ControlSignal index
    float sign;
  };
  static constexpr Binding kBindings[] = {
      {'a', 0, +1.0f}, {'d', 0, -1.0f},   // swing
      {'w', 1, +1.0f}, {'s', 1, -1.0f},   // boom
      {'r', 2, +1.0f}, {'f', 2, -1.0f},   // telescope
      {'i', 3, +1.0f}, {'k', 3, -1.0f},   // cable 1
      {'o', 4, +1.0f}, {'l', 4, -1.0f},   // cable 2
  };
  const char k = static_cast<char>(std::tolower(static_cast<unsigned char>(key)));
  if (k == ' ') {
    volts.fill(0.0f);
    return;
  }
  if (k == 'q') {
    quit = true;
    return;
  }
  if (k == 'n') {
    restart = true;
    return;
  }
  for (const Binding& b : kBindings) {
    if (b.key == k) {
      volts[b.channel] = std::clamp(volts[b.channel] + b.sign * step_v, -5.0f, 5.0f);
      return;
    }
  }
  // other keys (and the bytes of escape sequences) do nothing
}

std::array<float, 5> KeyboardSource::sample(double) {
  char buf[64];
  for (;;) {
    const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) apply_key(buf[i], step_v_, volts_, quit_, restart_);
  }
  return volts_;
}

bool KeyboardSource::take_restart_request() {
  const bool r = restart_;
  restart_ = false;
  return r;
}

}  // namespace clamsim::receiver
