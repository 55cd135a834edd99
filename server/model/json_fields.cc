#include "model/json_fields.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

namespace clamsim::model {

namespace {

using nlohmann::json;

[[noreturn]] void throw_at(const std::string& origin, const std::string& path,
                           const std::string& what) {
  std::string msg = origin;
  if (!path.empty()) msg += ": " + path;
  throw ModelError(msg + ": " + what);
}

// The offending value as the user wrote it, kept short.
std::string shown(const json& v) {
  std::string s = v.dump();
  constexpr std::size_t kMax = 60;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

}  // namespace

bool Bounds::contains(double v) const {
  if (!std::isfinite(v)) return false;
  if (lo_open ? !(v > lo) : !(v >= lo)) return false;
  if (hi_open ? !(v < hi) : !(v <= hi)) return false;
  return true;
}

bool Bounds::bounded() const { return std::isfinite(lo) && std::isfinite(hi); }

std::string Bounds::describe(double scale, const std::string& unit_name) const {
  const bool has_lo = std::isfinite(lo);
  const bool has_hi = std::isfinite(hi);
  const std::string l = format_number(lo / scale);
  const std::string h = format_number(hi / scale);
  const std::string u = unit_name.empty() ? "" : " " + unit_name;
  if (has_lo && has_hi) {
    return "a number in " + std::string(lo_open ? "(" : "[") + l + ", " + h +
           (hi_open ? ")" : "]") + u;
  }
  if (has_lo) return "a number " + std::string(lo_open ? "> " : ">= ") + l + u;
  if (has_hi) return "a number " + std::string(hi_open ? "< " : "<= ") + h + u;
  return "a finite number";
}

std::string format_number(double v) {
  std::ostringstream os;
  os.precision(10);  // enough to show what was written, without 1e-16 noise from unit scaling
  os << v;
  return os.str();
}

namespace {

std::string lowered(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Edit distance counting a swap of two neighbours as one edit (optimal string alignment).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// Short keys tolerate one slip, long ones up to three (a unit suffix misspelt).
std::size_t slips_allowed(const std::string& key) {
  return key.size() <= 4 ? 1 : key.size() <= 10 ? 2 : 3;
}

}  // namespace

bool near_miss(const std::string& written, const std::string& known) {
  if (written == known) return false;
  return edit_distance(lowered(written), lowered(known)) <= slips_allowed(known);
}

std::string nearest(const std::string& written, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    if (!near_miss(written, c)) continue;
    const std::size_t d = edit_distance(lowered(written), lowered(c));
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

json read_json_file(const std::string& path) {
  std::error_code ec;
  // a directory opens fine on Linux and then reads as empty: say what it is instead
  if (std::filesystem::is_directory(path, ec)) {
    throw_at(path, "", "cannot open file: is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_at(path, "", std::string("cannot open file: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw_at(path, "", "cannot read file");
  try {
    return json::parse(text.str());
  } catch (const json::parse_error& e) {
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string what = e.what();
    const auto pos = what.find("] ");
    if (pos != std::string::npos) what = what.substr(pos + 2);
    throw_at(path, "", "invalid JSON: " + what);
  } catch (const json::out_of_range& e) {
    // a literal beyond a double, 1e999: "[json.exception.out_of_range.406] number overflow ..."
    std::string what = e.what();
    const auto pos = what.find("] ");
    if (pos != std::string::npos) what = what.substr(pos + 2);
    throw_at(path, "", "invalid JSON: " + what);
  }
}

Section::Section(const json& root, std::string origin) : Section(root, std::move(origin), "") {}

Section::Section(const json& object, std::string origin, std::string path)
    : object_(&object), origin_(std::move(origin)), path_(std::move(path)) {
  if (!object_->is_object()) {
    throw_at(origin_, path_, "expected an object, got " + shown(*object_));
  }
}

std::string Section::path_of(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

void Section::fail(const std::string& key, const std::string& what) const {
  throw_at(origin_, key.empty() ? path_ : path_of(key), what);
}

bool Section::has(const std::string& key) const {
  asked_.insert(key);
  return object_->contains(key);
}

void Section::allow(const std::string& key) {
  asked_.insert(key);
  read_.insert(key);
}

void Section::finish() const {
  const std::vector<std::string> known(asked_.begin(), asked_.end());
  for (const auto& item : object_->items()) {
    if (read_.count(item.key()) != 0) continue;
    const auto stood_in = stand_ins_.find(item.key());
    const std::string guess = stood_in != stand_ins_.end() ? stood_in->second
                                                           : nearest(item.key(), known);
    fail(item.key(), guess.empty() ? "unknown key" : "unknown key (did you mean \"" + guess + "\"?)");
  }
}

std::string Section::stand_in_for(const std::string& key) const {
  std::vector<std::string> unread;
  for (const auto& item : object_->items())
    if (read_.count(item.key()) == 0 && stand_ins_.count(item.key()) == 0)
      unread.push_back(item.key());
  return nearest(key, unread);
}

const json& Section::value_of(const std::string& key) {
  asked_.insert(key);
  const auto it = object_->find(key);
  if (it == object_->end()) {
    const std::string written = stand_in_for(key);
    if (written.empty()) fail(key, "missing");
    stand_ins_[written] = key;
    read_.insert(key);
    return object_->at(written);
  }
  // a key that stood in for a missing one is real after all: that one is missing
  const auto stood_in = stand_ins_.find(key);
  if (stood_in != stand_ins_.end()) fail(stood_in->second, "missing");
  read_.insert(key);
  return *it;
}

bool Section::borrowed(const std::string& key) const {
  for (const auto& [written, missing] : stand_ins_)
    if (missing == key) return true;
  return false;
}

// A borrowed value that does not fit the key it stood in for was no typo of it: the key
// asked for is simply missing.
template <typename Read>
auto Section::guarded(const std::string& key, Read read) {
  try {
    return read();
  } catch (const ModelError&) {
    if (borrowed(key)) fail(key, "missing");
    throw;
  }
}

const json& Section::leaf(const std::string& key) {
  const json& v = value_of(key);
  if (!v.is_object()) return v;
  // {"value": ..., "source": "..."}: the source is documentation, but it must be text.
  Section wrapped(v, origin_, path_of(key));
  const json& value = wrapped.value_of("value");
  if (wrapped.has("source")) wrapped.text("source");
  wrapped.finish();
  return value;
}

double Section::checked(const json& v, const std::string& where, const Quantity& q) const {
  // is_number() is false for booleans, so true/false are rejected too; a huge exponent
  // (1e999) reaches here as inf, which no bounds contain.
  if (v.is_number()) {
    const double si = v.get<double>() * q.scale;
    if (q.bounds.contains(si)) return si;
  }
  throw_at(origin_, where,
           "expected " + q.bounds.describe(q.scale, q.unit_name) + ", got " + shown(v));
}

namespace {

// A field's kind must bound it: a loader that forgets is a bug, not a user's error.
const Quantity& bounded(const Quantity& q, const std::string& where) {
  if (!q.bounds.bounded())
    throw std::logic_error(where + ": a file's number must have finite bounds");
  return q;
}

}  // namespace

double Section::number(const std::string& key, double scale, const Bounds& bounds) {
  return guarded(key, [&] {
    return checked(leaf(key), path_of(key), Quantity{"", scale, bounds});
  });
}

double Section::number(const std::string& key, const Quantity& q) {
  return guarded(key, [&] {
    return checked(leaf(key), path_of(key), bounded(q, path_of(key)));
  });
}

std::array<double, 3> Section::vec3(const std::string& key, const Quantity& q) {
  return guarded(key, [&] {
    const json& v = leaf(key);
    if (!v.is_array() || v.size() != 3) fail(key, "expected an array of 3 numbers, got " + shown(v));
    std::array<double, 3> out{};
    for (std::size_t i = 0; i < 3; ++i) {
      out[i] = checked(v[i], path_of(key) + "[" + std::to_string(i) + "]", bounded(q, path_of(key)));
    }
    return out;
  });
}

bool Section::flag(const std::string& key) {
  return guarded(key, [&] {
    const json& v = leaf(key);
    if (!v.is_boolean()) fail(key, "expected true or false, got " + shown(v));
    return v.get<bool>();
  });
}

std::string Section::text(const std::string& key) {
  return guarded(key, [&] {
    const json& v = value_of(key);
    if (!v.is_string()) fail(key, "expected a string, got " + shown(v));
    return v.get<std::string>();
  });
}

Section Section::child(const std::string& key) {
  return guarded(key, [&] {
    return Section(value_of(key), origin_, path_of(key));
  });
}

namespace {

// "an array of at most 16 objects", "an array of 1 to 16 strings"
std::string array_of(std::size_t min_count, std::size_t max_count, const char* what) {
  const bool bounded = max_count != std::numeric_limits<std::size_t>::max();
  std::string a = "an array of ";
  if (!bounded) {
    return min_count == 0 ? a + what : a + "at least " + std::to_string(min_count) + " " + what;
  }
  if (min_count == 0) return a + "at most " + std::to_string(max_count) + " " + what;
  if (min_count == max_count) return a + std::to_string(min_count) + " " + what;
  return a + std::to_string(min_count) + " to " + std::to_string(max_count) + " " + what;
}

}  // namespace

std::vector<Section> Section::objects(const std::string& key, std::size_t min_count,
                                      std::size_t max_count) {
  return guarded(key, [&] {
    const json* it = &value_of(key);
    if (!it->is_array() || it->size() < min_count || it->size() > max_count) {
      fail(key, "expected " + array_of(min_count, max_count, "objects") + ", got " +
                    (it->is_array() ? std::to_string(it->size()) + " elements" : shown(*it)));
    }
    std::vector<Section> out;
    out.reserve(it->size());
    for (std::size_t i = 0; i < it->size(); ++i) {
      out.push_back(Section((*it)[i], origin_, path_of(key) + "[" + std::to_string(i) + "]"));
    }
    return out;
  });
}

std::vector<double> Section::numbers(const std::string& key, std::size_t min_count,
                                     std::size_t max_count, const Quantity& q) {
  return guarded(key, [&] {
    const json& v = leaf(key);
    if (!v.is_array() || v.size() < min_count || v.size() > max_count) {
      fail(key, "expected " + array_of(min_count, max_count, "numbers") + ", got " +
                    (v.is_array() ? std::to_string(v.size()) + " elements" : shown(v)));
    }
    std::vector<double> out;
    for (std::size_t i = 0; i < v.size(); ++i)
      out.push_back(checked(v[i], path_of(key) + "[" + std::to_string(i) + "]",
                            bounded(q, path_of(key))));
    return out;
  });
}

std::vector<std::vector<double>> Section::number_rows(const std::string& key, std::size_t rows,
                                                     std::size_t columns, const Quantity& q) {
  return guarded(key, [&] {
    const json& v = leaf(key);
    if (!v.is_array() || v.size() != rows) {
      fail(key, "expected " + array_of(rows, rows, "rows") + ", got " +
                    (v.is_array() ? std::to_string(v.size()) + " elements" : shown(v)));
    }
    std::vector<std::vector<double>> out;
    for (std::size_t i = 0; i < rows; ++i) {
      const std::string row = key + "[" + std::to_string(i) + "]";
      const json& r = v[i];
      if (!r.is_array() || r.size() != columns) {
        fail(row, "expected " + array_of(columns, columns, "numbers") + ", got " +
                      (r.is_array() ? std::to_string(r.size()) + " elements" : shown(r)));
      }
      std::vector<double> values;
      for (std::size_t j = 0; j < columns; ++j)
        values.push_back(checked(r[j], path_of(row) + "[" + std::to_string(j) + "]",
                                 bounded(q, path_of(key))));
      out.push_back(std::move(values));
    }
    return out;
  });
}

std::vector<std::string> Section::texts(const std::string& key, std::size_t min_count,
                                        std::size_t max_count) {
  return guarded(key, [&] {
    const json* it = &value_of(key);
    if (!it->is_array() || it->size() < min_count || it->size() > max_count) {
      fail(key, "expected " + array_of(min_count, max_count, "strings") + ", got " +
                    (it->is_array() ? std::to_string(it->size()) + " elements" : shown(*it)));
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& v = (*it)[i];
      if (!v.is_string()) {
        fail(key + "[" + std::to_string(i) + "]", "expected a string, got " + shown(v));
      }
      out.push_back(v.get<std::string>());
    }
    return out;
  });
}

const json& Section::value(const std::string& key) {
  const auto it = object_->find(key);
  if (it == object_->end()) fail(key, "missing");
  read_.insert(key);
  return *it;
}

void Section::note() {
  if (has("note")) text("note");
}

}  // namespace clamsim::model
