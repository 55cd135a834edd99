// Every number of the shipped machine and scenario files is bounded (docs/security.md, "Model files and runs gone non-finite"):
// each numeric leaf, found by walking the JSON file itself (not a hand list), is set to
// 1e308, -1e308, 0 and inf (a document built in code can hold it; a file's 1e999 is refused
// by the reader), and the loader must either refuse it, naming the leaf, or accept it and
// run 2 s of the dynamics with every output finite.
// A field a loader forgets to bound shows up here as the first leaf that breaks the rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/finite_outputs.h"
#include "core/machine.h"
#include "model/machine_file.h"
#include "model/scenario_file.h"

namespace clamsim::model {
namespace {

using nlohmann::json;

const std::string kModel = std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json";
const std::string kScenario = std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json";

// One number in the file: where it is and the path a message names it by.
struct Leaf {
  json::json_pointer ptr;
  std::string path;
};

// Every number of a document, arrays element by element, through {value, source} wrappers.
void collect(const json& v, const json::json_pointer& ptr, const std::string& path,
             std::vector<Leaf>* out) {
  if (v.is_number()) {
    out->push_back({ptr, path});
  } else if (v.is_object() && v.contains("value")) {
    collect(v["value"], ptr / "value", path, out);
  } else if (v.is_object()) {
    for (const auto& item : v.items())
      collect(item.value(), ptr / item.key(), path.empty() ? item.key() : path + "." + item.key(),
              out);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      collect(v[i], ptr / i, path + "[" + std::to_string(i) + "]", out);
  }
}

std::vector<Leaf> numbers_of(const json& doc) {
  std::vector<Leaf> out;
  collect(doc, json::json_pointer(), "", &out);
  return out;
}

struct Probe {
  const char* name;
  json value;
};

std::vector<Probe> probes() {
  return {{"1e308", 1e308},
          {"-1e308", -1e308},
          {"0", 0},
          {"inf", std::numeric_limits<double>::infinity()}};
}

// Runs the machine 2 s with every lever at 3 V (out of 5) and reports the first non-finite
// output or state ("" when all stay finite).
std::string run_two_seconds(const core::MachineParams& m, const core::InitialConditions& ic,
                            const core::WorldParams* world) {
  core::Environment env{};
  env.world = world;
  core::State st = core::initial_state(m, ic);
  if (world != nullptr) core::reset_world(*world, st.world);
  core::Control u;
  u.volts = {3.0, 3.0, 3.0, -3.0, -3.0};
  for (int k = 1; k <= 40; ++k) {
    core::advance_to(m, st, u, env, 0.05 * k);
    if (st.health.nonfinite_resets != 0) return "the state at t = " + std::to_string(st.time_s);
    const std::string bad = core::first_nonfinite(core::outputs(m, st, env));
    if (!bad.empty()) return bad + " at t = " + std::to_string(st.time_s);
  }
  return "";
}

// A message names the leaf: its path, or (for a cross-field check on a whole vector) the
// vector's path without the element's index.
bool names(const std::string& message, const std::string& path) {
  if (message.find(path + ":") != std::string::npos) return true;
  if (message.find(path + " ") != std::string::npos) return true;
  if (message.find(path + ")") != std::string::npos) return true;
  const auto bracket = path.rfind('[');
  return bracket != std::string::npos && message.find(path.substr(0, bracket)) != std::string::npos;
}

struct Tally {
  int leaves = 0;
  int accepted_huge = 0;   // 1e308 loads
  int accepted_zero = 0;   // 0 loads
  int nonfinite = 0;       // loaded and ran non-finite: the failures
};

void print(const char* what, const Tally& t) {
  std::printf("%s: %d numeric fields; 1e308 accepted by %d, 0 accepted by %d; %d ran non-finite\n",
              what, t.leaves, t.accepted_huge, t.accepted_zero, t.nonfinite);
}

// nlohmann refuses a literal beyond a double (1e999) while parsing: a file holding one is
// invalid JSON, a ModelError like any other, not an exception from the library.
TEST(FieldBounds, AnOverflowingLiteralIsInvalidJson) {
  const std::string path = ::testing::TempDir() + "field_bounds_overflow.json";
  std::ofstream(path) << "{\"mass_kg\": 1e999}";
  try {
    read_json_file(path);
    FAIL() << "1e999 parsed";
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), (path + ": invalid JSON: number overflow parsing '1e999'").c_str());
  }
}

TEST(FieldBounds, EveryMachineNumberIsRefusedByNameOrRunsFinite) {
  const json shipped = read_json_file(kModel);
  Tally tally;
  for (const Leaf& leaf : numbers_of(shipped)) {
    ++tally.leaves;
    for (const Probe& probe : probes()) {
      json doc = shipped;
      doc[leaf.ptr] = probe.value;
      SCOPED_TRACE(leaf.path + " = " + probe.name);
      try {
        const core::MachineParams m = parse_machine_json(doc, "t250.json");
        const core::InitialConditions ic = parse_initial_conditions(doc, "t250.json");
        if (probe.value == json(1e308)) ++tally.accepted_huge;
        if (probe.value == json(0)) ++tally.accepted_zero;
        const std::string bad = run_two_seconds(m, ic, nullptr);
        if (!bad.empty()) ++tally.nonfinite;
        EXPECT_EQ(bad, "") << "accepted, and the run went non-finite";
      } catch (const ModelError& e) {
        EXPECT_TRUE(names(e.what(), leaf.path)) << e.what();
      }
    }
  }
  print("t250.json", tally);
  EXPECT_EQ(tally.leaves, 326);  // the file's numbers when the bounds were written: a new one needs its range
  EXPECT_EQ(tally.accepted_huge, 0);
  EXPECT_EQ(tally.nonfinite, 0);
}

TEST(FieldBounds, EveryScenarioNumberIsRefusedByNameOrRunsFinite) {
  const core::MachineParams machine = load_machine_file(kModel);
  const json shipped = read_json_file(kScenario);
  Tally tally;
  for (const Leaf& leaf : numbers_of(shipped)) {
    ++tally.leaves;
    // a solid moved or resized may swallow a load: that refusal names the load and the solid
    const std::string solid = leaf.path.substr(0, leaf.path.find_first_of(".["));
    const std::string stem = solid.substr(0, solid.find("_bed"));
    for (const Probe& probe : probes()) {
      json doc = shipped;
      doc[leaf.ptr] = probe.value;
      SCOPED_TRACE(leaf.path + " = " + probe.name);
      try {
        const Scenario sc = parse_scenario_json(doc, "dam_intake.json", machine);
        if (probe.value == json(1e308)) ++tally.accepted_huge;
        if (probe.value == json(0)) ++tally.accepted_zero;
        const std::string bad = run_two_seconds(machine, sc.start, &sc.world);
        if (!bad.empty()) ++tally.nonfinite;
        EXPECT_EQ(bad, "") << "accepted, and the run went non-finite";
      } catch (const ModelError& e) {
        const std::string m = e.what();
        const bool swallowed = m.find("starts inside " + stem) != std::string::npos;
        EXPECT_TRUE(names(m, leaf.path) || swallowed) << m;
      }
    }
  }
  print("dam_intake.json", tally);
  EXPECT_EQ(tally.accepted_huge, 0);
  EXPECT_EQ(tally.nonfinite, 0);
}

// The refusal of a value out of its range gives the range and the unit.
TEST(FieldBounds, ARefusalNamesTheFieldItsRangeAndItsUnit) {
  json doc = read_json_file(kModel);
  doc["crane"]["links"]["boom_base"]["mass_kg"]["value"] = 1e308;
  try {
    parse_machine_json(doc, "t250.json");
    FAIL() << "1e308 kg loaded";
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), "t250.json: crane.links.boom_base.mass_kg: expected a number in "
                           "[1, 200000] kg, got 1e+308");
  }
  doc = read_json_file(kModel);
  doc["hydraulics"]["channels"]["boom"]["relief_pressure_MPa"]["value"] = 0;
  try {
    parse_machine_json(doc, "t250.json");
    FAIL() << "a relief valve set at 0 MPa loaded";
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), "t250.json: hydraulics.channels.boom.relief_pressure_MPa: expected a "
                           "number in [0.1, 100] MPa, got 0");
  }
}

}  // namespace
}  // namespace clamsim::model
