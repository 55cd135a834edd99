// Reading validated numbers out of JSON files, with errors that name the full path.
//
// Conventions shared by every clamsim file (machine, scenario, ...):
//   - the unit is the last part of the key: "mass_kg", "boom_max_deg", "relief_pressure_MPa";
//     the reader is told the key's unit factor and returns SI;
//   - a numeric leaf is either a plain number, 25, or {"value": 25, "source": "Table 2.1"}
//     so that every value can say where it comes from;
//   - a key the reader never asked for is an error (a typo must not pass silently), named
//     as unknown with the nearest key the reader knows: `clam.link2_mas_kg: unknown key (did
//     you mean "link2_mass_kg"?)`, not as the correct key "missing".
// Messages read "<origin>: <path>: <what>", e.g.
//   models/t250.json: clam.link2_mass_kg: expected a number > 0, got "abc"
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace clamsim::model {

// Every loading or validation failure; what() is the whole user-facing message.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Factors from the unit in a key to SI.
namespace unit {
constexpr double kPi = 3.14159265358979323846;
constexpr double one = 1.0;
constexpr double deg = kPi / 180.0;                   // -> rad
constexpr double mm = 1e-3;                           // -> m
constexpr double ms = 1e-3;                           // -> s
constexpr double L = 1e-3;                            // litre -> m^3
constexpr double MPa = 1e6;                           // -> Pa
constexpr double L_per_min = 1e-3 / 60.0;             // -> m^3/s
constexpr double L_per_min_per_MPa = L_per_min / MPa; // -> m^3/(s Pa)
constexpr double cc_per_rev = 1e-6 / (2.0 * kPi);     // -> m^3/rad
}  // namespace unit

// Accepted interval of a value, in SI (after unit conversion). Non-finite is never accepted.
struct Bounds {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;

  static constexpr Bounds finite() { return {}; }
  static constexpr Bounds closed(double lo_si, double hi_si) { return {lo_si, hi_si, false, false}; }
  static constexpr Bounds half_open(double lo_si, double hi_si) { return {lo_si, hi_si, false, true}; }

  bool contains(double v_si) const;
  // Both ends finite: the value cannot be 1e308 however it is written.
  bool bounded() const;
  // "a number > 0", "a number in [0, 90]", with the bounds shown in the key's unit (and
  // that unit's name after them when one is given: "a number in [0, 90] deg").
  std::string describe(double scale, const std::string& unit_name = "") const;
};

// What kind of number a field holds: the unit its key is written in, the factor to SI,
// and the range physics allows, in SI and finite at both ends. Every number of a machine
// or scenario file is read as one (model/quantities.h lists them), so a field cannot be
// declared without its unit and bounds.
struct Quantity {
  const char* unit_name;  // "kg", "deg", "MPa"; "" for a pure number (a ratio, a count)
  double scale;           // the key's unit -> SI
  Bounds bounds;          // SI

  // [lo, hi] and (lo, hi] in the key's unit, e.g. closed("deg", unit::deg, 0, 90).
  static constexpr Quantity closed(const char* unit_name, double scale, double lo, double hi) {
    return {unit_name, scale, {lo * scale, hi * scale, false, false}};
  }
  static constexpr Quantity above(const char* unit_name, double scale, double lo, double hi) {
    return {unit_name, scale, {lo * scale, hi * scale, true, false}};
  }
};

// Whether `written` is close enough to `known` to be a typo of it (case, a letter or two
// dropped, doubled or swapped).
bool near_miss(const std::string& written, const std::string& known);

// The candidate nearest to `written` that is a near_miss of it, or "" when none is.
std::string nearest(const std::string& written, const std::vector<std::string>& candidates);

// Shortest round-trip-ish text for a number in a message ("50", "0.003", "1e-06").
std::string format_number(double v);

// Reads the whole file as JSON. Throws ModelError for a missing/unreadable file or a
// syntax error (with nlohmann's line and column).
nlohmann::json read_json_file(const std::string& path);

// One JSON object being read. Remembers its path for messages and which keys were read,
// so finish() can reject the rest. The json must outlive the Section.
class Section {
 public:
  // The document root; origin (usually the file name) prefixes every message.
  // Throws if root is not an object.
  Section(const nlohmann::json& root, std::string origin);

  // A required number in the key's unit, converted to SI by `scale` and checked against
  // `bounds` (SI).
  double number(const std::string& key, double scale, const Bounds& bounds);
  // The same for a field of a known kind: its unit is named in the message with its range.
  // Throws std::logic_error for a quantity without finite bounds (a loader's mistake).
  double number(const std::string& key, const Quantity& q);
  // A required array of three numbers, each converted and checked like number().
  std::array<double, 3> vec3(const std::string& key, const Quantity& q);
  // A required array of min_count..max_count numbers, each converted and checked like
  // number(); element i is named "<key>[i]" in messages.
  std::vector<double> numbers(const std::string& key, std::size_t min_count,
                              std::size_t max_count, const Quantity& q);
  // A required array of `rows` arrays of `columns` numbers (a table), each checked like
  // number(); element j of row i is named "<key>[i][j]".
  std::vector<std::vector<double>> number_rows(const std::string& key, std::size_t rows,
                                               std::size_t columns, const Quantity& q);
  // A required true/false leaf: true, or {"value": true, "source": "..."}.
  bool flag(const std::string& key);
  // A required string (plain, not a {value, source} leaf).
  std::string text(const std::string& key);
  // A required nested object.
  Section child(const std::string& key);
  // A required array of objects, e.g. "intake_walls": [{...}, {...}]: one Section per
  // element, its path "intake_walls[1]". Throws when the key is missing or not an array,
  // when the count is outside [min_count, max_count], or when an element is not an object.
  std::vector<Section> objects(const std::string& key, std::size_t min_count,
                               std::size_t max_count);
  // A required array of strings, with the same count limits; element i is named in
  // messages as "<key>[i]" (fail(key + "[i]", ...)).
  std::vector<std::string> texts(const std::string& key, std::size_t min_count,
                                 std::size_t max_count);
  // A required value of any JSON type, for a caller that checks its shape itself (the
  // lesson's [signal, direction] pairs); marks the key read.
  const nlohmann::json& value(const std::string& key);
  // An optional free-text "note" (every object may carry one for people).
  void note();

  bool has(const std::string& key) const;
  // Marks a key as known without reading it here (an optional section read elsewhere).
  void allow(const std::string& key);
  // Throws naming the first key that was never read or allowed.
  void finish() const;

  // Throws "<origin>: <path>.<key>: <what>" (key may be empty for the section itself).
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;

  const std::string& origin() const { return origin_; }
  // "crane.links.boom_base"; empty at the root.
  const std::string& path() const { return path_; }
  std::string path_of(const std::string& key) const;

 private:
  Section(const nlohmann::json& object, std::string origin, std::string path);
  // The key's value with a {value, source} wrapper removed; marks the key read.
  const nlohmann::json& leaf(const std::string& key);
  // The value of a key the reader asks for, marked read. A missing key may be a typo: the
  // nearest unread key that is a near miss stands in for it, so reading goes on and
  // finish() can call the typo unknown. If the stand-in is later read under its own name,
  // it was a real key after all and the asked-for key is reported missing.
  const nlohmann::json& value_of(const std::string& key);
  // The unread key that is a near miss of `key` and stands in for nothing yet, or "".
  std::string stand_in_for(const std::string& key) const;
  // Whether another key's value stood in for `key`.
  bool borrowed(const std::string& key) const;
  // read(), except that a ModelError from a borrowed value reports `key` missing.
  template <typename Read>
  auto guarded(const std::string& key, Read read);
  double checked(const nlohmann::json& v, const std::string& where, const Quantity& q) const;

  const nlohmann::json* object_;
  std::string origin_;
  std::string path_;
  std::set<std::string> read_;
  mutable std::set<std::string> asked_;         // every key the reader named, for suggestions
  std::map<std::string, std::string> stand_ins_;  // written key -> the missing key it stood in for
};

}  // namespace clamsim::model
