// The one command-line reader of every clamsim program (the server and each tool): "--flag
// value" and "--flag=value", each flag at most once unless declared repeatable, a value never
// taken from the next flag ("--csv --world x" is "--csv needs a value"), positional
// arguments only where a program has them, and, for the CORBA clients, omniORB's own
// "-ORBname value" options collected untouched for ORB_init. What each flag means, its
// environment variable or config key, stays with each program.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace clamsim::cli {

// A bad command line; what() is one line naming the offending argument. Every program
// exits with kExitUsage for it (cli/exit_codes.h).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FlagSet {
  std::set<std::string> valued;      // take a value
  std::set<std::string> switches;    // take none ("-h" and "-q" style aliases too)
  std::set<std::string> repeatable;  // valued flags whose values accumulate
  std::set<std::string> verbatim;    // valued flags whose value may itself start with "--"
                                     // (--server-arg passes a flag to a spawned server)
  bool positionals = false;          // plain arguments are the program's operands
  bool orb_options = false;          // "-ORBname value" pairs are kept for ORB_init
  // A flag this program does not have but a user may well try, and what to use instead
  // (the receiver's "--port": the port goes in --server's reference).
  std::map<std::string, std::string> hints;
};

// The flags of `flags` an unknown one most likely meant: those it begins ("--dur" ->
// --duration), else those having all its words ("--port" -> --corba-port, --http-port),
// else those whose words it has ("--csv-file" -> --csv), else the nearest by edit distance,
// within a third of its length (at least 2). Empty when none is near.
std::vector<std::string> nearest_flags(const std::string& unknown, const FlagSet& flags);
// "unknown option '--port'; did you mean --corba-port or --http-port? (see --help)"
std::string unknown_option_message(const std::string& unknown, const FlagSet& flags);

class Args {
 public:
  // Throws UsageError for an unknown flag (with unknown_option_message), a missing value or
  // a repeated flag.
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
  // The valued flags given, each with its (last) value, in command-line order.
  const std::vector<std::pair<std::string, std::string>>& given() const { return given_; }

  // The plain arguments, in order (FlagSet::positionals).
  const std::vector<std::string>& positionals() const { return positionals_; }
  // "-ORBname value" pairs, in order, for ORB_init (FlagSet::orb_options).
  const std::vector<std::string>& orb_args() const { return orb_args_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::pair<std::string, std::string>> given_;
  std::set<std::string> switches_;
  std::vector<std::string> positionals_;
  std::vector<std::string> orb_args_;
};

// A decimal number within [lo, hi]; throws UsageError "FLAG: 'x' is not a number".
double parse_number(const std::string& flag, const std::string& text, double lo, double hi);

}  // namespace clamsim::cli
