#include "mutator.h"

#include <algorithm>

namespace clamsim::fuzz {

namespace {

constexpr std::size_t kPoolSize = 64;
constexpr std::size_t kMaxInput = 16 * 1024;   // past the parsers' limits, bounded work

// Numbers at the edges of the integer types and of "small" sizes.
const char* const kNumbers[] = {"0",           "-1",         "1",
                                "127",         "128",        "255",
                                "256",         "65535",      "65536",
                                "2147483647",  "2147483648", "4294967295",
                                "4294967296",  "18446744073709551615",
                                "18446744073709551616",      "99999999999999999999999",
                                "1e308",       "1e999",      "-1e999",
                                "1.7976931348623157e308",    "NaN",
                                "-0",          "0x10",       "010"};

}  // namespace

Mutator::Mutator(std::uint64_t seed, std::vector<std::string> seeds,
                 std::vector<std::string> tokens)
    : rng_(seed), seeds_(std::move(seeds)), tokens_(std::move(tokens)) {
  if (seeds_.empty()) seeds_.emplace_back();
  for (const char* n : kNumbers) tokens_.emplace_back(n);
}

std::size_t Mutator::below(std::size_t n) { return n == 0 ? 0 : rng_() % n; }

const std::string& Mutator::pick_seed() {
  if (!pool_.empty() && below(3) == 0) return pool_[below(pool_.size())];
  return seeds_[below(seeds_.size())];
}

std::string Mutator::next() {
  std::string s;
  if (below(20) == 0) {   // pure noise, any byte
    s.resize(below(2048));
    for (char& c : s) c = static_cast<char>(rng_());
  } else {
    s = pick_seed();
    const std::size_t edits = 1 + below(below(4) == 0 ? 16 : 4);
    for (std::size_t i = 0; i < edits; ++i) edit(s);
  }
  if (s.size() > kMaxInput) s.resize(kMaxInput);
  if (pool_.size() < kPoolSize)
    pool_.push_back(s);
  else
    pool_[below(kPoolSize)] = s;
  return s;
}

void Mutator::edit(std::string& s) {
  const std::size_t at = below(s.size() + 1);
  switch (below(10)) {
    case 0:  // flip one bit
      if (!s.empty()) s[below(s.size())] ^= static_cast<char>(1u << below(8));
      break;
    case 1:  // set a byte to anything
      if (!s.empty()) s[below(s.size())] = static_cast<char>(rng_());
      break;
    case 2:  // insert a few random bytes
      s.insert(at, std::string(1 + below(4), static_cast<char>(rng_())));
      break;
    case 3:  // delete a range
      s.erase(at, 1 + below(std::max<std::size_t>(1, s.size() / 4)));
      break;
    case 4: {  // repeat a range (long headers, deep nesting, many frames)
      const std::size_t len = 1 + below(std::min<std::size_t>(64, s.size() - at + 1));
      const std::string piece = s.substr(at, len);
      std::string copies;
      for (std::size_t n = 1 + below(below(8) == 0 ? 200 : 8); n > 0; --n) copies += piece;
      s.insert(at, copies);
      break;
    }
    case 5:
    case 6:  // insert a token of the grammar or a boundary number
      s.insert(at, tokens_[below(tokens_.size())]);
      break;
    case 7: {  // replace a run of digits with a boundary number
      const std::size_t d = s.find_first_of("0123456789", at);
      if (d == std::string::npos) break;
      const std::size_t end = s.find_first_not_of("0123456789", d);
      s.replace(d, (end == std::string::npos ? s.size() : end) - d,
                kNumbers[below(std::size(kNumbers))]);
      break;
    }
    case 8: {  // splice: this input's head, another's tail
      const std::string& other = seeds_[below(seeds_.size())];
      s = s.substr(0, at) + other.substr(below(other.size() + 1));
      break;
    }
    default:  // truncate
      s.resize(at);
      break;
  }
}

}  // namespace clamsim::fuzz
