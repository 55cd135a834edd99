#include "driver.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <exception>

#include "mutator.h"
#include "targets.h"

namespace clamsim::fuzz {

const std::vector<std::pair<std::string, Target>>& target_names() {
  static const std::vector<std::pair<std::string, Target>> names = {
      {"http", Target::Http}, {"ws-message", Target::WsMessage}, {"ws-frames", Target::WsFrames},
      {"recording", Target::Recording}};
  return names;
}

namespace {

Mutator mutator_for(Target target, std::uint64_t seed) {
  switch (target) {
    case Target::Http: return Mutator(seed, http_seeds(), http_tokens());
    case Target::WsMessage: return Mutator(seed, ws_message_seeds(), ws_message_tokens());
    case Target::WsFrames: return Mutator(seed, ws_frame_seeds(), {"\x81", "\xff", "\x7f"});
    case Target::Recording: return Mutator(seed, recording_seeds(), recording_tokens());
  }
  return Mutator(seed, {}, {});
}

// A crash (an assertion in a library, a sanitizer report) ends the process before run()
// can return the input: the handlers write it to kCrashFile first.
constexpr const char* kCrashFile = "fuzz-crash-input.bin";
const std::string* volatile g_current = nullptr;

void save_current_input() {
  const std::string* input = g_current;
  if (!input) return;
  const int fd = ::open(kCrashFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const ssize_t ignored = ::write(fd, input->data(), input->size());
  (void)ignored;
  ::close(fd);
  static const char note[] = "clamsim-fuzz: crashed; the input is in fuzz-crash-input.bin\n";
  const ssize_t ignored2 = ::write(2, note, sizeof note - 1);
  (void)ignored2;
}

extern "C" void on_crash_signal(int sig) {
  save_current_input();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

RunResult run(Target target, std::uint64_t inputs, std::uint64_t seed,
              const std::function<void(std::uint64_t)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const WebRootFixture fixture;
  Mutator mutator = mutator_for(target, seed);
  RunResult result;
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE}) std::signal(sig, on_crash_signal);
  std::string input;
  g_current = &input;
  for (std::uint64_t i = 0; i < inputs; ++i) {
    input = mutator.next();
    const std::uint64_t split_seed = mutator.random();
    try {
      std::string label;
      switch (target) {
        case Target::Http: label = http_request(input, split_seed, fixture); break;
        case Target::WsMessage: label = ws_message(input); break;
        case Target::WsFrames: label = ws_frames(input, split_seed); break;
        case Target::Recording: label = recording(input, (fixture.root() / "recording.mcap").string()); break;
      }
      ++result.outcomes[label];
    } catch (const std::exception& e) {
      result.failure = Failure{i, input, e.what()};
    } catch (...) {
      result.failure = Failure{i, input, "an exception of unknown type"};
    }
    result.inputs = i + 1;
    if (result.failure) break;
    if (progress && (i + 1) % 4096 == 0) progress(i + 1);
  }
  g_current = nullptr;
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace clamsim::fuzz
