// Scenario files (config/scenarios/*.json, schema "clamsim-scenario/1") -> the working world
// around the machine (the dam's solids, the water, the loads), the machine's start pose, the
// training task, and the scene browsers draw.
//
// Conventions as for machine files (json_fields.h): the unit is in the key, a numeric leaf
// is a number or {"value", "source"}, every key is required unless docs/scenario-file.md
// says otherwise, unknown keys are errors, any object may carry a "note". Any failure throws
// ModelError "<file>: <path>: <what>".
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

#include "core/params.h"
#include "core/state.h"
#include "core/world.h"
#include "model/lesson_spec.h"
#include "model/penalty_kinds.h"

namespace clamsim::model {

inline constexpr const char* kScenarioSchema = "clamsim-scenario/1";
inline constexpr double kMaxLoadMassKg = 25000.0;  // loads up to 25 t, the machine's heaviest lift
// WorldState keeps one bit per solid (clam_touching, clam_touch_hold) in 32-bit masks.
inline constexpr std::size_t kMaxSolids = 32;

// Points taken off the task's score per event of each kind (docs/training-task.md).
struct TaskPenalties {
  std::array<double, kPenaltyKinds> points{};
  double of(PenaltyKind k) const { return points[static_cast<std::size_t>(k)]; }
};

// The truck's load space (the scene's truck_bed): an upright box yawed about z. Its bottom
// face is the bed's floor; its top is the top of the sides.
struct LoadSpace {
  Eigen::Vector3d center_m = Eigen::Vector3d::Zero();
  Eigen::Vector3d half_size_m = Eigen::Vector3d::Zero();  // along the box's own x, y, z
  double yaw_rad = 0.0;
};

// Is (x, y) over the load space's (yawed) footprint?
bool over_footprint(const LoadSpace& space, double x, double y);
// Inside it: over the footprint, from the floor up to `above_sides_m` over the sides' top.
bool inside(const LoadSpace& space, const Eigen::Vector3d& p, double above_sides_m = 0.0);

// The task's time limit, in optimums: none of the time points are left at 1.5 x the
// optimum (docs/training-task.md). The one place of this rule: the score, the scene sent to
// browsers and every report take it from TaskSpec::limit_s().
inline constexpr double kTaskLimitFactor = 1.5;

// The file's "task": clear some loads into the truck, scored against an optimum time.
struct TaskSpec {
  bool enabled = false;           // the file has a "task" section
  std::string title;
  std::vector<int> loads;         // indices into WorldParams::loads, named in the file
  double optimum_s = 0.0;         // points start to fall after this; none left at limit_s()
  TaskPenalties penalties;
  LoadSpace truck;                // where the loads are to be delivered
  // The scenario whose lesson a newcomer takes before this task ("" = none); the catalog
  // checks that it exists and has a lesson.
  std::string lesson;

  double limit_s() const { return kTaskLimitFactor * optimum_s; }
};

struct Scenario {
  std::string name;               // the file's "name" (the catalog keys it by file stem)
  core::WorldParams world;
  core::InitialConditions start;  // the file's "start", checked against the machine
  TaskSpec task;
  LessonSpec lesson;              // the file's "lesson" (enabled false without it)
  // The scene for browsers (websocket hello.scene): the geometry as written, {value,
  // source} leaves reduced to numbers, plus "water", "loads" and (with a task or a lesson)
// "task" and "lesson".
  nlohmann::ordered_json client_scene;
  std::string site_file;          // the scenario file its site came from ("site"), or ""
};

// Reads, parses and validates a scenario file; the start pose is checked against `machine`.
// A "site" key takes the site from the scenario it names beside the file (scenario_site.h).
Scenario load_scenario_file(const std::string& path, const core::MachineParams& machine);

// The same for an already parsed document; origin names it in messages.
Scenario parse_scenario_json(const nlohmann::json& doc, const std::string& origin,
                             const core::MachineParams& machine);

}  // namespace clamsim::model
