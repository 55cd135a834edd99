#include "model/json_fields.h"

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

std::string Bounds::describe(double scale) const {
  const bool has_lo = std::isfinite(lo);
  const bool has_hi = std::isfinite(hi);
  const std::string l = format_number(lo / scale);
  const std::string h = format_number(hi / scale);
  if (has_lo && has_hi) {
    return "a number in " + std::string(lo_open ? "(" : "[") + l + ", " + h + (hi_open ? ")" : "]");
  }
  if (has_lo) return "a number " + std::string(lo_open ? "> " : ">= ") + l;
  if (has_hi) return "a number " + std::string(hi_open ? "< " : "<= ") + h;
  return "a finite number";
}

std::string format_number(double v) {
  std::ostringstream os;
  os.precision(10);  // enough to show what was written, without 1e-16 noise from unit scaling
  os << v;
  return os.str();
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

bool Section::has(const std::string& key) const { return object_->contains(key); }

void Section::allow(const std::string& key) { read_.insert(key); }

void Section::finish() const {
  for (const auto& item : object_->items()) {
    if (read_.count(item.key()) == 0) fail(item.key(), "unknown key");
  }
}

const json& Section::leaf(const std::string& key) {
  const auto it = object_->find(key);
  if (it == object_->end()) fail(key, "missing");
  read_.insert(key);
  if (!it->is_object()) return *it;
  // {"value": ..., "source": "..."}: the source is documentation, but it must be text.
  Section wrapped(*it, origin_, path_of(key));
  const auto v = it->find("value");
  if (v == it->end()) wrapped.fail("value", "missing");
  wrapped.allow("value");
  if (wrapped.has("source")) wrapped.text("source");
  wrapped.finish();
  return *v;
}

double Section::checked(const json& v, const std::string& where, double scale,
                        const Bounds& bounds) const {
  // is_number() is false for booleans, so true/false are rejected too.
  if (v.is_number()) {
    const double si = v.get<double>() * scale;
    if (bounds.contains(si)) return si;
  }
  throw_at(origin_, where, "expected " + bounds.describe(scale) + ", got " + shown(v));
}

double Section::number(const std::string& key, double scale, const Bounds& bounds) {
  return checked(leaf(key), path_of(key), scale, bounds);
}

std::array<double, 3> Section::vec3(const std::string& key, double scale, const Bounds& bounds) {
  const json& v = leaf(key);
  if (!v.is_array() || v.size() != 3) fail(key, "expected an array of 3 numbers, got " + shown(v));
  std::array<double, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) {
    out[i] = checked(v[i], path_of(key) + "[" + std::to_string(i) + "]", scale, bounds);
  }
  return out;
}

std::string Section::text(const std::string& key) {
  const auto it = object_->find(key);
  if (it == object_->end()) fail(key, "missing");
  if (!it->is_string()) fail(key, "expected a string, got " + shown(*it));
  read_.insert(key);
  return it->get<std::string>();
}

Section Section::child(const std::string& key) {
  const auto it = object_->find(key);
  if (it == object_->end()) fail(key, "missing");
  read_.insert(key);
  return Section(*it, origin_, path_of(key));
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
  const auto it = object_->find(key);
  if (it == object_->end()) fail(key, "missing");
  read_.insert(key);
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
}

std::vector<std::string> Section::texts(const std::string& key, std::size_t min_count,
                                        std::size_t max_count) {
  const auto it = object_->find(key);
  if (it == object_->end()) fail(key, "missing");
  read_.insert(key);
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
