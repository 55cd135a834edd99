// Inputs for the bounded random fuzz driver (docs/security.md, "Fuzzing"): each input is a
// seed (a valid request or message) or an earlier input, changed by a few random edits
// that tend to reach parser corners (bit flips, cut and repeated ranges, boundary numbers,
// separators, percent escapes), plus some pure noise. Deterministic for a given seed, so a
// failure is reproduced by its seed and input number.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace clamsim::fuzz {

class Mutator {
 public:
  // seeds: well-formed inputs of the target; tokens: fragments its grammar cares about.
  Mutator(std::uint64_t seed, std::vector<std::string> seeds, std::vector<std::string> tokens);

  std::string next();

  std::uint64_t random() { return rng_(); }   // for callers that need more randomness

 private:
  std::size_t below(std::size_t n);           // uniform in [0, n), 0 when n == 0
  void edit(std::string& s);                  // one random edit
  const std::string& pick_seed();

  std::mt19937_64 rng_;
  std::vector<std::string> seeds_;
  std::vector<std::string> tokens_;
  std::vector<std::string> pool_;             // recent inputs, mutated again (bounded)
};

}  // namespace clamsim::fuzz
