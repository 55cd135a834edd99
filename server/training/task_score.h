// The training task's live score (docs/training-task.md): time against an optimum
// by the practical crane exam's rule, points off per collision, slack cable, overload and
// dropped load, and the report at the end. Fed one frame of outputs at a time by the
// session thread; pure bookkeeping, no clocks but the wall-clock stamps of the report.
#pragma once

#include <array>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/field_list.h"
#include "core/state.h"
#include "model/scenario_file.h"
#include "base/utc_time.h"

namespace clamsim::training {

// The rule's constants (docs/training-task.md).
inline constexpr double kTaskFullPoints = 100.0;    // kept up to the optimum time
inline constexpr double kDeliveredRestS = 1.0;      // at rest in the truck this long
inline constexpr double kDeliveredSpeed = 0.2;      // "at rest": slower than this [m/s]
inline constexpr double kAboveSidesM = 0.5;         // counts up to this above the sides
// A load let go is dropped only if it was carried: raised more than this above where the clam
// took it. An open grab that lands on a log takes it into its throat (Table 2.5's contact)
// and loses it a few centimetres up as the hoist pulls the jaws apart; a regrasp where it
// lies is not a drop either.
inline constexpr double kCarriedM = 0.3;

struct TaskScore {
  bool enabled = false;     // the scenario has a task
  bool running = false;     // the clock runs (a control moved, not finished)
  bool finished = false;    // completed or timed out; the score is final
  bool completed = false;   // finished with every task load delivered
  bool interrupted = false; // finished because the server stopped the session
  bool tipped_over = false; // finished because the machine tipped over (core/stability.h)
  double elapsed_s = 0.0;   // since the first moved control; frozen once finished
  double optimum_s = 0.0;
  double limit_s = 0.0;     // 1.5 x optimum: the task times out here; 0 in practice (none)
  int delivered = 0;        // task loads at rest in the truck
  int required = 0;
  double time_points = 0.0;     // 100 up to the optimum, falling linearly to 0 at the limit
  double penalty_points = 0.0;
  double total = 0.0;           // max(0, time_points - penalty_points)
  // one count per penalty kind, named as the kind with "s" (model/penalty_kinds.h)
#define CLAMSIM_PENALTY_COUNT(Enum, name, help) int name##s = 0;
  CLAMSIM_PENALTY_KINDS(CLAMSIM_PENALTY_COUNT)
#undef CLAMSIM_PENALTY_COUNT
  bool practice = false;        // a practice attempt: scored, no time limit
};

// The score's one list: the display JSON, /sessions, the CORBA frame (where its fixed IDL
// has the field) and the receiver walk it.
inline constexpr auto kTaskScoreFields = std::make_tuple(
    core::field("enabled", "", "The scenario has a task.", &TaskScore::enabled),
    core::field("running", "", "The clock runs.", &TaskScore::running),
    core::field("finished", "", "Completed or timed out: the score is final.",
                &TaskScore::finished),
    core::field("completed", "", "Finished with every task load delivered.",
                &TaskScore::completed),
    core::field("interrupted", "", "Finished because the server stopped the session.",
                &TaskScore::interrupted),
    core::field("tipped_over", "", "Finished because the machine tipped over.",
                &TaskScore::tipped_over),
    core::field("elapsed_s", "s", "Time since the first moved control.", &TaskScore::elapsed_s),
    core::field("optimum_s", "s", "The task's optimum time.", &TaskScore::optimum_s),
    core::field("limit_s", "s", "The time limit (1.5 x optimum); 0: none (practice).",
                &TaskScore::limit_s),
    core::field("delivered", "", "Task loads at rest in the truck.", &TaskScore::delivered),
    core::field("required", "", "Task loads to deliver.", &TaskScore::required),
    core::field("time_points", "", "Points for time.", &TaskScore::time_points),
    core::field("penalty_points", "", "Points off.", &TaskScore::penalty_points),
    core::field("total", "", "The score: time points less penalties, at least 0.",
                &TaskScore::total),
#define CLAMSIM_PENALTY_FIELD(Enum, name, help) \
    core::field(#name "s", "", help, &TaskScore::name##s),
    CLAMSIM_PENALTY_KINDS(CLAMSIM_PENALTY_FIELD)
#undef CLAMSIM_PENALTY_FIELD
    core::field("practice", "", "A practice attempt: scored, no time limit.",
                &TaskScore::practice));
static_assert(core::covers_struct(kTaskScoreFields));

// Each penalty kind's count in the score, in model::kPenaltyNames's order.
inline constexpr std::array<int TaskScore::*, model::kPenaltyKinds> kPenaltyCounts{
#define CLAMSIM_PENALTY_MEMBER(Enum, name, help) &TaskScore::name##s,
    CLAMSIM_PENALTY_KINDS(CLAMSIM_PENALTY_MEMBER)
#undef CLAMSIM_PENALTY_MEMBER
};

// What a report was scored with, so two reports can be compared knowingly: the server's
// build version, and the machine and scenario files by name and content hash.
struct ReportVersions {
  std::string server;            // clamsim::kVersion
  std::string model;             // catalog name, e.g. "t250"
  std::string model_sha256;      // of the machine file's bytes
  std::string scenario;          // the world scenario's catalog name, e.g. "dam_intake"
  std::string scenario_sha256;   // of its file's bytes
};

// The head every report (a task's, a lesson's) starts with: schema, kind, session, trainee
// (null when none was given), task, versions, started_utc and ended_utc (null until then).
struct ReportHead {
  const char* kind;                   // "task" or "lesson"
  std::string session_label;
  std::string trainee;
  std::string task;
  ReportVersions versions;
  const base::WallTime* started = nullptr;  // null: not started
  const base::WallTime* ended = nullptr;    // null: not finished
};
nlohmann::ordered_json report_head(const ReportHead& h);

class TaskScorer {
 public:
  // load_names: the world's loads in order (names the dropped load in the timeline).
  explicit TaskScorer(const model::TaskSpec& task, std::vector<std::string> load_names = {});

  // A new attempt: clock stopped, no penalties, nothing delivered. A practice attempt is
  // scored alike but has no time limit (it never times out) and its report says so.
  void reset(bool practice = false);
  // Scores one frame. Frames must come in time order within an attempt. The clock waits
  // for the first frame whose control moved (`control_moved`): a trainee still giving a
  // name, choosing a lesson or reading the help is not timed; until then nothing is scored.
  const TaskScore& update(const core::Outputs& o, bool control_moved);
  const TaskScore& score() const { return score_; }
  // The server stops the session with the task under way (drain over, shutdown): the task
  // finishes as it stands, outcome "interrupted". False, changing nothing, when no task
  // was running.
  bool interrupt();
  // Whose inputs drive the frames that follow ("trainee", "instructor" or
  // "both", and the instructor's name): each penalty says who was driving.
  void set_driver(const char* driver, const std::string& instructor);
  // An instructor's action for the timeline (a hand-over of the controls, a fault, a
  // message): kind, what, by whom. Noted while the task runs; none before or after.
  void note(double sim_time_s, const std::string& kind, const std::string& detail,
            const std::string& by);
  // True right after the update() in which the task finished (completed or timed out).
  bool just_finished() const { return just_finished_; }
  // The report, schema "clamsim-report/1" (docs/training-task.md); trainee "" = not given.
  // Its figures are rounded for people (report_figures.h).
  nlohmann::ordered_json report(const std::string& session_label, const ReportVersions& versions,
                                const std::string& trainee = "") const;

 private:
  using Kind = model::PenaltyKind;
  struct Penalty {
    double sim_time_s;
    double task_time_s;
    Kind kind;
    std::string what;   // the solid struck or the load dropped ("" when not known)
    double points;
    const char* driver;         // set_driver's at the time
    std::string instructor;
  };
  struct Note {
    double sim_time_s;
    double task_time_s;
    std::string kind, detail, by;
  };

  nlohmann::ordered_json timeline_json() const;
  void penalise(Kind kind, int count, const core::Outputs& o, const std::string& what);
  void penalise_world_events(const core::Outputs& o);
  double points_each(Kind kind) const;
  bool over_truck(const std::array<double, 3>& p) const;
  void track_held_load(const core::Outputs& o);
  bool resting_in_truck(const core::Outputs::Load& l) const;
  bool delivered(std::size_t task_load) const;
  std::string solid_struck(const core::Outputs& o, bool rack_or_gate) const;
  std::string load_name(int index) const;

  const model::TaskSpec task_;
  const std::vector<std::string> load_names_;
  TaskScore score_;
  bool just_finished_ = false;
  bool started_ = false;
  double t0_s_ = 0.0;
  double last_time_s_ = 0.0;
  core::WorldEvents last_events_;
  int last_held_ = -1;
  double grip_z_m_ = 0.0;              // the held load's height when the clam took it
  double rise_m_ = 0.0;                // ... and the most it has risen above that since
  std::vector<double> rest_s_;         // per task load: time at rest in the truck, -1 none
  std::vector<Penalty> timeline_;
  std::vector<Note> notes_;
  const char* driver_ = "trainee";
  std::string instructor_;
  base::WallTime wall_start_{};
  base::WallTime wall_end_{};
};

}  // namespace clamsim::training
