// The first lesson's progress (docs/training-task.md "The first lesson"): checks
// each step of a scenario's lesson against the frames the session computes, the same
// frames every receiver sees, and moves on when the step's goal is met. Pure bookkeeping
// like TaskScorer: fed one frame of outputs at a time by the session thread.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/state.h"
#include "model/lesson_spec.h"
#include "training/task_score.h"
#include "base/utc_time.h"

namespace clamsim::training {

// A released load counts as set down once slower than this [m/s] and touching something.
inline constexpr double kSetDownSpeed = 0.2;

struct LessonProgress {
  bool enabled = false;    // the scenario has a lesson
  bool finished = false;   // every step done
  int step = 0;            // the step under way (0-based; = steps once finished)
  int steps = 0;
  double progress = 0.0;   // of the step under way, 0..1 (measured / asked for)
  double elapsed_s = 0.0;  // since the first frame; frozen once finished
  int setbacks = 0;        // load lost during a step that needs it: back to the grip step
};

class LessonTracker {
 public:
  explicit LessonTracker(const model::LessonSpec& lesson);

  void reset();
  // Checks one frame; at most one step is completed per frame.
  const LessonProgress& update(const core::Outputs& o);
  const LessonProgress& progress() const { return progress_; }
  // True right after the update() in which the last step was done.
  bool just_finished() const { return just_finished_; }
  // The lesson's record for the instructor, schema "clamsim-report/1" with kind "lesson".
  // Versions and rounding as in the task's report (task_score.h, report_figures.h).
  nlohmann::ordered_json report(const std::string& session_label, const ReportVersions& versions,
                                const std::string& trainee = "") const;

 private:
  // Where a step's measurement starts: the frame in which the step began.
  struct Baseline {
    double clam_z = 0.0;   // point A
    double swing_deg = 0.0;
    double load_z = 0.0;   // the held load's centre (0 when none)
  };
  void begin_step(int step, const core::Outputs& o);
  double measure(const model::LessonCheck& c, const core::Outputs& o) const;
  int grip_step_before(int step) const;

  const model::LessonSpec lesson_;
  LessonProgress progress_;
  bool just_finished_ = false;
  bool started_ = false;
  double t0_s_ = 0.0;
  Baseline base_;
  int last_held_ = -1;                 // the load most recently in the jaws
  std::vector<double> done_at_s_;      // lesson time each step was done
  base::WallTime wall_start_{};
  base::WallTime wall_end_{};
};

}  // namespace clamsim::training
