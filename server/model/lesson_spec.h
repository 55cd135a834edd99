// The first lesson, a newcomer's first two minutes: a scenario's "lesson" section, a short list of
// steps that each name a goal, the controls that do it and a physical check that it happened. Steps
// are data; server/training/lesson.{h,cc} checks them frame by frame. docs/scenario-file.md
// documents the format.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/json_fields.h"

namespace clamsim::model {

inline constexpr std::size_t kMaxLessonSteps = 16;
inline constexpr int kControlSignals = 5;   // ControlSignal[5]: swing, boom, telescope, cable 1, 2

// What a step's check measures in the frames (each from the step's first frame on).
enum class LessonCheckKind {
  ClamLowered,   // point A went down by by_m
  JawsOpened,    // the clam opening reached by_deg; without by_deg, the clam on its open
                 // stop (Geo status Open)
  LoadGripped,   // a load is held in the jaws, squeezed to carry times_weight its weight
  LoadLifted,    // the held load rose by by_m
  LoadSwung,     // the machine swung by by_deg with the load held
  LoadSetDown,   // the load was let go and rests on something
};

// The file's spelling of each kind ("clam_lowered", ...).
const char* to_string(LessonCheckKind k);
// Needs a load in the jaws all along: losing it sends the lesson back to the grip step.
bool needs_held_load(LessonCheckKind k);

struct LessonCheck {
  LessonCheckKind kind = LessonCheckKind::ClamLowered;
  double by_m = 0.0;     // ClamLowered, LoadLifted
  double by_deg = 0.0;   // LoadSwung; JawsOpened (0: to the open stop)
  // LoadGripped: the shells' contacts, pressed as they are, carry this many times the load's
  // weight (Outputs::grip_holds_kg): a grip firm enough to lift it, not one that merely
  // touches (1 = it hangs, nothing to spare for the lift's acceleration)
  double times_weight = 0.0;
};

// One way to move toward the goal, e.g. "close": cable 1 out, cable 2 in.
struct LessonControl {
  std::string does;                          // "lower", "close", ...
  std::vector<std::pair<int, int>> signals;  // [signal index 0..4, direction +1 / -1]
  // Done at half speed (the browser's half-speed key with the others): a move that must be
  // let go of at the right moment (the jaws at a stop) is taught slow, since the winch runs
  // on after the key is released (docs/training-task.md, "The first lesson")
  bool half_speed = false;
};

struct LessonStep {
  std::string goal;                     // what the trainee is asked to do
  std::string label;                    // a few words for the list of steps; "" lists the goal
  std::vector<LessonControl> controls;  // the controls that do it
  LessonCheck check;
};

struct LessonSpec {
  bool enabled = false;   // the scenario has a "lesson" section
  std::string title;
  std::vector<LessonStep> steps;
};

// Reads a "lesson" section; throws ModelError naming the field.
LessonSpec read_lesson(Section s);
// The lesson as the browser gets it (hello.scene.lesson).
nlohmann::ordered_json client_lesson(const LessonSpec& lesson);

}  // namespace clamsim::model
