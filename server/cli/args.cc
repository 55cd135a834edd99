#include "cli/args.h"

#include <algorithm>
#include <cctype>
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

// Edits (insert, delete, replace a character) that turn a into b.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// "--corba-port" -> {"corba", "port"}
std::vector<std::string> words(const std::string& flag) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : flag) {
    if (c == '-') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

}  // namespace

std::vector<std::string> nearest_flags(const std::string& unknown, const FlagSet& flags) {
  std::set<std::string> known;
  for (const auto* set : {&flags.valued, &flags.switches})
    for (const std::string& f : *set)
      if (f.rfind("--", 0) == 0) known.insert(f);
  const std::vector<std::string> asked = words(unknown);
  if (asked.empty()) return {};
  std::string bare;  // "--Port" and "-port" are --port
  for (const std::string& w : asked) bare += (bare.empty() ? "--" : "-") + w;
  for (char& c : bare) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::string> out;
  // a beginning: "--dur" -> --duration
  for (const std::string& f : known)
    if (f.rfind(bare, 0) == 0) out.push_back(f);
  if (!out.empty()) return out;
  // every word of it among a flag's words: "--port" -> --corba-port, --http-port
  const std::vector<std::string> lower = words(bare);
  for (const std::string& f : known) {
    const std::vector<std::string> have = words(f);
    if (std::all_of(lower.begin(), lower.end(), [&](const std::string& w) {
          return std::find(have.begin(), have.end(), w) != have.end();
        }))
      out.push_back(f);
  }
  if (!out.empty()) return out;
  // a flag's words all in it: "--csv-file" -> --csv
  for (const std::string& f : known) {
    const std::vector<std::string> have = words(f);
    if (std::all_of(have.begin(), have.end(), [&](const std::string& w) {
          return std::find(lower.begin(), lower.end(), w) != lower.end();
        }))
      out.push_back(f);
  }
  if (!out.empty()) return out;
  // a slip of the keyboard: the nearest within a third of its length (at least 2 edits)
  const std::size_t allowed = std::max<std::size_t>(2, (bare.size() - 2) / 3);
  std::size_t best = allowed + 1;
  for (const std::string& f : known) {
    const std::size_t d = edit_distance(bare, f);
    if (d > allowed) continue;
    if (d < best) out.clear(), best = d;
    if (d == best) out.push_back(f);
  }
  return out;
}

std::string unknown_option_message(const std::string& unknown, const FlagSet& flags) {
  std::string out = "unknown option '" + unknown + "'";
  if (const auto hint = flags.hints.find(unknown); hint != flags.hints.end())
    return out + ": " + hint->second + " (see --help)";
  const std::vector<std::string> near = nearest_flags(unknown, flags);
  // a beginning as short as "--c" fits many: the first few, then --help's word
  constexpr std::size_t kListed = 5;
  if (near.size() > kListed) {
    out += "; did you mean one of ";
    for (std::size_t i = 0; i < kListed; ++i) out += near[i] + ", ";
    return out + "...? (see --help)";
  }
  for (std::size_t i = 0; i < near.size(); ++i)
    out += (i == 0 ? "; did you mean " : i + 1 == near.size() ? " or " : ", ") + near[i];
  return out + (near.empty() ? "" : "?") + " (see --help)";
}

namespace {

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
      throw UsageError(unknown_option_message(arg, flags));
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
