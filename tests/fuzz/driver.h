// Runs a fuzz target over N mutated inputs (the clamsim-fuzz command and the smoke test).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clamsim::fuzz {

enum class Target { Http, WsMessage, WsFrames, Recording };
const std::vector<std::pair<std::string, Target>>& target_names();   // "http", ...

struct Failure {
  std::uint64_t input_number = 0;
  std::string input;     // the bytes that broke it
  std::string what;      // the broken property, or the exception that escaped
};

struct RunResult {
  std::uint64_t inputs = 0;
  double seconds = 0.0;
  std::map<std::string, std::uint64_t> outcomes;   // label -> inputs
  std::optional<Failure> failure;                   // the first one; the run stops there
};

// progress(inputs done so far) is called about every 4096 inputs.
RunResult run(Target target, std::uint64_t inputs, std::uint64_t seed,
              const std::function<void(std::uint64_t)>& progress = {});

}  // namespace clamsim::fuzz
