#include "training/lesson.h"

#include "training/report_figures.h"

#include <algorithm>
#include <cmath>

namespace clamsim::training {

namespace {

using Kind = model::LessonCheckKind;
constexpr std::size_t kDisplayOpeningDeg = 4;   // Outputs::display: the clam opening
constexpr std::size_t kDisplayLoadKg = 7;   // Outputs::display's last: the load in the jaws

double speed(const core::Outputs::Load& l) {
  const auto& v = l.velocity_m_per_s;
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

// How far the machine has swung from `from_deg`, the short way round: the swing angle is
// continuous, so a slew past 0 reads 359.9 deg, not -0.1 (the HUD shows (-180, 180]).
double swung_deg(double now_deg, double from_deg) {
  const double d = std::remainder(now_deg - from_deg, 360.0);
  return std::abs(d);
}

const core::Outputs::Load* load_at(const core::Outputs& o, int i) {
  return i >= 0 && i < o.load_count ? &o.loads[static_cast<std::size_t>(i)] : nullptr;
}

}  // namespace

LessonTracker::LessonTracker(const model::LessonSpec& lesson) : lesson_(lesson) { reset(); }

void LessonTracker::reset() {
  progress_ = LessonProgress{};
  progress_.enabled = lesson_.enabled;
  progress_.steps = static_cast<int>(lesson_.steps.size());
  just_finished_ = started_ = false;
  t0_s_ = 0.0;
  base_ = Baseline{};
  last_held_ = -1;
  done_at_s_.clear();
  wall_start_ = wall_end_ = base::WallTime{};
}

void LessonTracker::begin_step(int step, const core::Outputs& o) {
  progress_.step = step;
  progress_.progress = 0.0;
  base_.clam_z = o.point_a[2];
  base_.swing_deg = o.joint_pos[0];
  const core::Outputs::Load* held = load_at(o, o.held_load);
  base_.load_z = held ? held->position_m[2] : 0.0;
}

// How far the step's goal is met, 0..1 (1 = done).
double LessonTracker::measure(const model::LessonCheck& c, const core::Outputs& o) const {
  const core::Outputs::Load* held = load_at(o, o.held_load);
  const auto fraction = [](double got, double asked) { return std::clamp(got / asked, 0.0, 1.0); };
  switch (c.kind) {
    case Kind::ClamLowered: return fraction(base_.clam_z - o.point_a[2], c.by_m);
    case Kind::JawsOpened:
      // opened far enough, short of the stop: the bar fills as the jaws open, so the trainee
      // can let go before the stop and the winches' run-on carries them on (docs/training-task.md)
      if (c.by_deg > 0.0) return fraction(o.display[kDisplayOpeningDeg], c.by_deg);
      return o.geo == core::GeoStatus::Open ? 1.0 : 0.0;
    case Kind::LoadGripped:
      // held, and squeezed firmly enough: the step fills as the trainee closes harder
      return held ? fraction(o.grip_holds_kg, c.times_weight * o.display[kDisplayLoadKg]) : 0.0;
    case Kind::LoadLifted: return held ? fraction(held->position_m[2] - base_.load_z, c.by_m) : 0.0;
    case Kind::LoadSwung:
      return held ? fraction(swung_deg(o.joint_pos[0], base_.swing_deg), c.by_deg) : 0.0;
    case Kind::LoadSetDown: {
      // the load last held, let go, at rest on something (not sinking, not swinging in the jaws)
      const core::Outputs::Load* l = load_at(o, last_held_);
      return !held && l && !l->held && l->in_contact && speed(*l) < kSetDownSpeed ? 1.0 : 0.0;
    }
  }
  return 0.0;
}

// The latest step before `step` that asks for a grip; -1 when none.
int LessonTracker::grip_step_before(int step) const {
  for (int k = step - 1; k >= 0; --k)
    if (lesson_.steps[static_cast<std::size_t>(k)].check.kind == Kind::LoadGripped) return k;
  return -1;
}

const LessonProgress& LessonTracker::update(const core::Outputs& o) {
  just_finished_ = false;
  if (!lesson_.enabled || progress_.finished) return progress_;
  if (!started_) {
    started_ = true;
    t0_s_ = o.time_s;
    wall_start_ = std::chrono::system_clock::now();
    begin_step(0, o);
  }
  if (o.held_load >= 0) last_held_ = o.held_load;
  progress_.elapsed_s = o.time_s - t0_s_;
  const model::LessonCheck& check = lesson_.steps[static_cast<std::size_t>(progress_.step)].check;
  if (model::needs_held_load(check.kind) && o.held_load < 0) {
    // the load slipped out: grip it again
    const int back = grip_step_before(progress_.step);
    if (back >= 0) {
      ++progress_.setbacks;
      done_at_s_.resize(static_cast<std::size_t>(back));
      begin_step(back, o);
      return progress_;
    }
  }
  progress_.progress = measure(check, o);
  if (progress_.progress < 1.0) return progress_;
  done_at_s_.push_back(progress_.elapsed_s);
  if (progress_.step + 1 < progress_.steps) {
    begin_step(progress_.step + 1, o);
    return progress_;
  }
  progress_.step = progress_.steps;
  progress_.finished = just_finished_ = true;
  wall_end_ = std::chrono::system_clock::now();
  return progress_;
}

nlohmann::ordered_json LessonTracker::report(const std::string& session_label,
                                             const ReportVersions& versions,
                                             const std::string& trainee) const {
  using ojson = nlohmann::ordered_json;
  ojson r = report_head({"lesson", session_label, trainee, lesson_.title, versions,
                          started_ ? &wall_start_ : nullptr,
                          progress_.finished ? &wall_end_ : nullptr});
  r["outcome"] = progress_.finished ? "completed" : "running";
  r["elapsed_s"] = progress_.elapsed_s;
  // the instructor's list reads steps done / steps from these, as loads for a task
  r["delivered"] = static_cast<int>(done_at_s_.size());
  r["required"] = progress_.steps;
  r["setbacks"] = progress_.setbacks;
  ojson steps = ojson::array();
  for (std::size_t k = 0; k < lesson_.steps.size(); ++k) {
    ojson s = {{"goal", lesson_.steps[k].goal},
               {"check", model::to_string(lesson_.steps[k].check.kind)}};
    s["done_s"] = k < done_at_s_.size() ? ojson(done_at_s_[k]) : ojson(nullptr);
    steps.push_back(std::move(s));
  }
  r["steps"] = std::move(steps);
  round_report_figures(r);
  return r;
}

}  // namespace clamsim::training
