#include "cli/args.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace clamsim::cli {

namespace {

// "--name=value" -> ("--name", "value"); anything else unchanged, without a value.
std::pair<std::string, std::optional<std::string>> split_flag(const std::string& arg) {
  if (arg.rfind("--", 0) == 0) {
    const auto eq = arg.find('=');
    if (eq != std::string::npos) return {arg.substr(0, eq), arg.substr(eq + 1)};
  }
  return {arg, std::nullopt};
}


// A bound in a message: "5", "0.1", "1e+06".
std::string shown(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

double parse_number(const std::string& flag, const std::string& text, double lo, double hi) {
  double v = 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;  // from_chars rejects a leading '+'
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (text.empty() || ec != std::errc() || ptr != last || !std::isfinite(v)) {
    throw UsageError(flag + ": '" + text + "' is not a number");
  }
  if (v < lo || v > hi) {
    throw UsageError(flag + ": " + text + " is outside " + shown(lo) + ".." + shown(hi));
  }
  return v;
}

Args::Args(int argc, const char* const* argv, const FlagSet& flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string whole = argv[i];
    // omniORB options pass through to ORB_init, which consumes "-ORBname value"
    if (flags.orb_options && whole.rfind("-ORB", 0) == 0) {
      if (i + 1 >= argc) throw UsageError(whole + " needs a value");
      orb_args_.push_back(whole);
      orb_args_.push_back(argv[++i]);
      continue;
    }
    const auto [arg, inline_value] = split_flag(whole);
    if (flags.switches.count(arg) != 0) {
      if (inline_value) throw UsageError(arg + " takes no value");
      if (!switches_.insert(arg).second) throw UsageError(arg + " given twice");
      continue;
    }
    if (flags.valued.count(arg) == 0) {
      if (flags.positionals && arg.rfind('-', 0) != 0) {
        positionals_.push_back(arg);
        continue;
      }
      throw UsageError("unknown option '" + arg + "' (see --help)");
    }
    if (values_.count(arg) != 0 && flags.repeatable.count(arg) == 0) {
      throw UsageError(arg + " given twice");
    }
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else {
      // the next flag is not this one's value ("-" and "-3" are values, "-h" is not)
      const std::string next = i + 1 < argc ? argv[i + 1] : "";
      const bool next_is_flag = (next.rfind("--", 0) == 0 || flags.switches.count(next) != 0) &&
                                flags.verbatim.count(arg) == 0;
      if (i + 1 >= argc || next_is_flag) throw UsageError(arg + " needs a value");
      value = argv[++i];
    }
    values_[arg].push_back(value);
    given_.emplace_back(arg, value);
  }
}

bool Args::has(const std::string& flag) const {
  return switches_.count(flag) != 0 || values_.count(flag) != 0;
}

std::optional<std::string> Args::text(const std::string& flag) const {
  const auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second.back();
}

std::string Args::required(const std::string& flag) const {
  const auto v = text(flag);
  if (!v) throw UsageError(flag + " is required (see --help)");
  return *v;
}

std::optional<double> Args::number(const std::string& flag, double lo, double hi) const {
  const auto v = text(flag);
  if (!v) return std::nullopt;
  return parse_number(flag, *v, lo, hi);
}

std::optional<long> Args::integer(const std::string& flag, long lo, long hi) const {
  const auto v = text(flag);
  if (!v) return std::nullopt;
  long n = 0;
  const char* first = v->data();
  const char* last = v->data() + v->size();
  const auto [ptr, ec] = std::from_chars(first, last, n);
  if (v->empty() || ec != std::errc() || ptr != last) {
    throw UsageError(flag + ": '" + *v + "' is not a whole number");
  }
  if (n < lo || n > hi) {
    throw UsageError(flag + ": " + *v + " is outside " + std::to_string(lo) + ".." +
                     std::to_string(hi));
  }
  return n;
}

std::vector<std::string> Args::all(const std::string& flag) const {
  const auto it = values_.find(flag);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace clamsim::cli
