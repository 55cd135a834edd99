#include "driver.h"

#include <chrono>
#include <exception>

#include "mutator.h"
#include "targets.h"

namespace clamsim::fuzz {

const std::vector<std::pair<std::string, Target>>& target_names() {
  static const std::vector<std::pair<std::string, Target>> names = {
      {"http", Target::Http}, {"ws-message", Target::WsMessage}, {"ws-frames", Target::WsFrames}};
  return names;
}

namespace {

Mutator mutator_for(Target target, std::uint64_t seed) {
  switch (target) {
    case Target::Http: return Mutator(seed, http_seeds(), http_tokens());
    case Target::WsMessage: return Mutator(seed, ws_message_seeds(), ws_message_tokens());
    case Target::WsFrames: return Mutator(seed, ws_frame_seeds(), {"\x81", "\xff", "\x7f"});
  }
  return Mutator(seed, {}, {});
}

}  // namespace

RunResult run(Target target, std::uint64_t inputs, std::uint64_t seed,
              const std::function<void(std::uint64_t)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const WebRootFixture fixture;
  Mutator mutator = mutator_for(target, seed);
  RunResult result;
  for (std::uint64_t i = 0; i < inputs; ++i) {
    const std::string input = mutator.next();
    const std::uint64_t split_seed = mutator.random();
    try {
      std::string label;
      switch (target) {
        case Target::Http: label = http_request(input, split_seed, fixture); break;
        case Target::WsMessage: label = ws_message(input); break;
        case Target::WsFrames: label = ws_frames(input, split_seed); break;
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
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace clamsim::fuzz
