#include "tools/receiver/keyboard_source.h"

#include <termios.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <stdexcept>

namespace clamsim::receiver {
namespace {

// The terminal as we found it; static so a signal handler can reach it.
struct termios g_saved;
volatile std::sig_atomic_t g_raw = 0;

}  // namespace

KeyboardSource::KeyboardSource(const model::KeyboardLayout& layout, float step_v)
    : keys_(layout, step_v), legend_(keyboard_legend(layout)) {
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

std::array<float, 5> KeyboardSource::sample(double) {
  char buf[64];
  for (;;) {
    const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0) break;
    keys_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
  }
  return keys_.volts();
}

std::string default_keyboard_file(const std::string& argv0) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path checkout = "config/keyboard.json";
  if (fs::is_regular_file(checkout, ec)) return checkout.string();
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0, ec);
  const fs::path installed = exe.parent_path().parent_path() / "share/clamsim/keyboard.json";
  if (fs::is_regular_file(installed, ec)) return installed.string();
  throw std::runtime_error("--keyboard: no key layout: neither " + checkout.string() + " (from " +
                           fs::current_path(ec).string() + ") nor " + installed.string() +
                           " exists; give one with --keys FILE");
}

}  // namespace clamsim::receiver
