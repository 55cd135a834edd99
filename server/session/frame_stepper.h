// One session's machine from frame to frame: the dynamics, the task's score and the lesson, driven
// by a frame's inputs. The live session (session.cc) and the re-simulation of a recording
// (tools/replay.cc) both step through this one class, so a recording replays bit for bit
// (docs/architecture.md, "Inputs are the record"). No threads, no clocks, no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/machine.h"
#include "model/scenario_file.h"
#include "session/instructor_desk.h"
#include "training/lesson.h"
#include "training/task_score.h"

namespace clamsim::session {

struct MachineSetup;

// What reaches the machine at a frame boundary (after the instructor desk merged it).
struct StepInputs {
  core::Control control;                 // the volts that drive this frame
  core::Faults faults;                   // the physics faults in force
  Driver driver = Driver::Trainee;       // whose inputs drive
  std::string instructor;                // the instructor driving, "" for the trainee
  std::vector<DeskNote> notes;           // changes for the report's timeline
};

// A control further off centre than this has moved: a stick at rest reads 0 after the
// page's dead zone, and a key gives volts.
inline constexpr double kControlMovedV = 0.05;

class FrameStepper {
 public:
  FrameStepper(const core::MachineParams& model, const model::Scenario* scenario,
               const core::InitialConditions& initial, double frame_period_s);

  // A new attempt begins before frame k: the start pose, the world as loaded, the score
  // cleared (a practice attempt: no time limit); its sim time counts from there.
  void restart(std::uint64_t k, bool practice = false);
  // Frame k (k = 1, 2, ...): the inputs take effect, the model integrates to frame k's
  // time, and the outputs are scored (the task's clock starts with the first frame whose
  // control is off centre by more than kControlMovedV). A frame skipped by a late session passes
  // `inputs` = null: the last control goes on and only the score is updated.
  const core::Outputs& step(std::uint64_t k, const StepInputs* inputs);

  const core::State& state() const { return state_; }
  const core::Outputs& outputs() const { return outputs_; }
  const core::Control& control() const { return control_; }
  training::TaskScorer& scorer() { return scorer_; }
  const training::TaskScorer& scorer() const { return scorer_; }
  training::LessonTracker& lesson() { return lesson_; }
  const training::LessonTracker& lesson() const { return lesson_; }
  // The attempt's own time of frame k [s].
  double sim_time(std::uint64_t k) const {
    return static_cast<double>(static_cast<std::int64_t>(k) - k0_) * frame_period_s_;
  }
  // The frame the attempt under way began with (1 for one taken over from a replay).
  std::uint64_t attempt_first_k() const {
    return k0_ < 0 ? 1 : static_cast<std::uint64_t>(k0_) + 1;
  }
  // Frame numbers count from 1 again after frame k_done: a session taken over from a
  // replay at that frame goes on from this state as its frame 1 (the attempt's time, score
  // and world go on as they were).
  void renumber(std::uint64_t k_done) { k0_ -= static_cast<std::int64_t>(k_done); }

 private:
  const core::MachineParams& model_;
  const model::Scenario* scenario_;
  const core::InitialConditions initial_;
  const double frame_period_s_;
  core::Environment env_;
  training::TaskScorer scorer_;
  training::LessonTracker lesson_;
  core::State state_;
  core::Control control_;
  core::Outputs outputs_;
  std::int64_t k0_ = 0;   // the attempt began after frame k0_ (negative once renumbered)
};

}  // namespace clamsim::session
