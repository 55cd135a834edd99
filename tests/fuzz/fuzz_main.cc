// clamsim-fuzz: the bounded random fuzz driver for the web front end's parsers
// (docs/security.md, "Fuzzing"). Outside the test suite for long runs:
//   clamsim-fuzz --inputs 1000000 [--target http|ws-message|ws-frames|recording|all] [--seed N]
// Prints progress on stderr and a summary per target; exit 1 on the first broken property,
// with the input written to a file named in the message.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "driver.h"

namespace {

using clamsim::fuzz::RunResult;
using clamsim::fuzz::Target;

namespace cli = clamsim::cli;

constexpr const char* kUsage =
    "usage: clamsim-fuzz [--inputs N] [--target http|ws-message|ws-frames|recording|all] [--seed N]\n";

int usage(const std::string& why) {
  std::cerr << "clamsim-fuzz: " << why << "\n" << kUsage;
  return cli::kExitUsage;
}

int help() {
  std::cout << "Fuzzes the HTTP request and WebSocket parsers and the recording reader (docs/security.md, \"Fuzzing\").\n"
            << kUsage
            << "  --inputs N     inputs per target (default 100000)\n"
               "  --target T     http, ws-message, ws-frames, recording or all (default all)\n"
               "  --seed N       the random seed (default 1)\n"
               "  --help         this text\n"
            << cli::kVersionHelp
            << "An input that breaks a property is saved and is a failure (1 below).\n\n"
            << cli::exit_codes_help();
  return cli::kExitOk;
}

bool parse_count(const char* text, std::uint64_t* out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || text[0] == '-') return false;
  *out = v;
  return true;
}

void print_summary(const std::string& name, const RunResult& r) {
  std::printf("%-10s %10llu inputs in %7.1f s (%.0f/s), %zu distinct outcomes\n", name.c_str(),
              static_cast<unsigned long long>(r.inputs), r.seconds,
              r.seconds > 0 ? static_cast<double>(r.inputs) / r.seconds : 0.0, r.outcomes.size());
  std::multimap<std::uint64_t, std::string, std::greater<>> by_count;
  for (const auto& [label, n] : r.outcomes) by_count.emplace(n, label);
  int shown = 0;
  for (const auto& [n, label] : by_count) {
    if (++shown > 8) break;
    std::printf("    %10llu  %s\n", static_cast<unsigned long long>(n), label.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t inputs = 100000, seed = 1;
  std::string which = "all";
  if (cli::print_version_if_asked(argc, argv, "clamsim-fuzz")) return cli::kExitOk;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help") return help();
    if (i + 1 >= argc) return usage(a + " needs a value");
    const char* v = argv[++i];
    if (a == "--inputs") {
      if (!parse_count(v, &inputs) || inputs == 0) return usage("--inputs: '" + std::string(v) +
                                                                "' is not a count > 0");
    } else if (a == "--seed") {
      if (!parse_count(v, &seed)) return usage("--seed: '" + std::string(v) + "' is not a count");
    } else if (a == "--target") {
      which = v;
    } else {
      return usage("unknown option " + a);
    }
  }
  bool known = which == "all";
  for (const auto& [name, t] : clamsim::fuzz::target_names()) known = known || which == name;
  if (!known) return usage("--target: '" + which + "' is not http, ws-message, ws-frames, recording or all");

  for (const auto& [name, target] : clamsim::fuzz::target_names()) {
    if (which != "all" && which != name) continue;
    const std::string label = name;
    const std::uint64_t total = inputs;
    const RunResult r = clamsim::fuzz::run(target, inputs, seed, [&](std::uint64_t done) {
      if (done % (64 * 4096) == 0)
        std::fprintf(stderr, "%s: %llu of %llu\n", label.c_str(),
                     static_cast<unsigned long long>(done), static_cast<unsigned long long>(total));
    });
    print_summary(name, r);
    if (r.failure) {
      const std::string file = "fuzz-failure-" + name + "-seed" + std::to_string(seed) + "-" +
                               std::to_string(r.failure->input_number) + ".bin";
      std::ofstream(file, std::ios::binary) << r.failure->input;
      std::cerr << "clamsim-fuzz: " << name << " input " << r.failure->input_number
                << " broke a property: " << r.failure->what << "\n  input saved to " << file
                << "\n";
      return cli::kExitFailure;
    }
  }
  return cli::kExitOk;
}
