// A small command-line reader shared by clamsim-receiver and clamsim-loadgen: "--flag value"
// and "--flag=value", each flag at most once unless declared repeatable, and omniORB's own
// "-ORBname value" options collected untouched so they can go to ORB_init.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace clamsim::client {

// A bad command line; what() is one line naming the offending argument.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FlagSet {
  std::set<std::string> valued;      // take a value
  std::set<std::string> switches;    // take none
  std::set<std::string> repeatable;  // valued flags whose values accumulate
};

class Args {
 public:
  // Throws UsageError for an unknown flag, a missing value or a repeated flag.
  Args(int argc, const char* const* argv, const FlagSet& flags);

  bool has(const std::string& flag) const;
  std::optional<std::string> text(const std::string& flag) const;
  // Throws "FLAG is required" when absent.
  std::string required(const std::string& flag) const;
  // Checked against [lo, hi]; throws UsageError naming the flag.
  std::optional<double> number(const std::string& flag, double lo, double hi) const;
  std::optional<long> integer(const std::string& flag, long lo, long hi) const;
  // Every value of a repeatable flag, in order (empty when never given).
  std::vector<std::string> all(const std::string& flag) const;

  // "-ORBname value" pairs, in order, for ORB_init.
  const std::vector<std::string>& orb_args() const { return orb_args_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> switches_;
  std::vector<std::string> orb_args_;
};

// A decimal number within [lo, hi]; throws UsageError "FLAG: 'x' is not a number".
double parse_number(const std::string& flag, const std::string& text, double lo, double hi);

}  // namespace clamsim::client
