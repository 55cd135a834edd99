#include "training/task_score.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/stability.h"
#include "training/report_figures.h"

namespace clamsim::training {

namespace {

// Frame times are sums of steps: 0.8 - 0.05 may come out a hair under 0.75.
bool timed_out(double elapsed_s, double limit_s) { return elapsed_s >= limit_s - 1e-9; }

// 100 up to the optimum, falling linearly to none at the limit.
double time_points(double elapsed_s, double optimum_s, double limit_s) {
  if (elapsed_s <= optimum_s) return kTaskFullPoints;
  if (timed_out(elapsed_s, limit_s)) return 0.0;
  return kTaskFullPoints * (limit_s - elapsed_s) / (limit_s - optimum_s);
}

// New events since the last frame. A counter that went down was reset with the world (not
// with this scorer): nothing new then.
int new_events(std::uint64_t now, std::uint64_t before) {
  return now > before ? static_cast<int>(now - before) : 0;
}

}  // namespace

TaskScorer::TaskScorer(const model::TaskSpec& task, std::vector<std::string> load_names)
    : task_(task), load_names_(std::move(load_names)) {
  reset();
}

void TaskScorer::reset(bool practice) {
  score_ = TaskScore{};
  score_.enabled = task_.enabled;
  score_.practice = practice;
  score_.optimum_s = task_.optimum_s;
  score_.limit_s = practice ? 0.0 : task_.limit_s();
  score_.required = static_cast<int>(task_.loads.size());
  score_.time_points = task_.enabled ? kTaskFullPoints : 0.0;
  score_.total = score_.time_points;
  just_finished_ = false;
  started_ = false;
  t0_s_ = last_time_s_ = 0.0;
  last_events_ = core::WorldEvents{};
  last_held_ = -1;
  grip_z_m_ = rise_m_ = 0.0;
  rest_s_.assign(task_.loads.size(), -1.0);
  timeline_.clear();
  notes_.clear();
  wall_start_ = wall_end_ = base::WallTime{};
}

bool TaskScorer::delivered(std::size_t k) const {
  return rest_s_[k] >= kDeliveredRestS - 1e-9;  // frame times add up with rounding
}

double TaskScorer::points_each(Kind kind) const { return task_.penalties.of(kind); }

std::string TaskScorer::load_name(int index) const {
  if (index >= 0 && static_cast<std::size_t>(index) < load_names_.size())
    return load_names_[static_cast<std::size_t>(index)];
  return "load " + std::to_string(index);
}

// Inside the load space's yawed footprint, at any height.
bool TaskScorer::over_truck(const std::array<double, 3>& p) const {
  return model::over_footprint(task_.truck, p[0], p[1]);
}

// A load carried (raised more than kCarriedM) and let go anywhere but over the truck was
// dropped; where it lands does not matter.
void TaskScorer::track_held_load(const core::Outputs& o) {
  const auto height = [&o](int i) { return o.loads[static_cast<std::size_t>(i)].position_m[2]; };
  if (last_held_ >= 0 && last_held_ < o.load_count) {
    rise_m_ = std::max(rise_m_, height(last_held_) - grip_z_m_);
    if (o.held_load != last_held_ && rise_m_ > kCarriedM &&
        !over_truck(o.loads[static_cast<std::size_t>(last_held_)].position_m))
      penalise(Kind::DroppedLoad, 1, o, load_name(last_held_));
  }
  if (o.held_load >= 0 && o.held_load != last_held_ && o.held_load < o.load_count) {
    grip_z_m_ = height(o.held_load);
    rise_m_ = 0.0;
  }
  last_held_ = o.held_load;
}

// In the load space (from the bed's floor to a little above the sides), let go and still.
bool TaskScorer::resting_in_truck(const core::Outputs::Load& l) const {
  const auto& p = l.position_m;
  const auto& v = l.velocity_m_per_s;
  const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return !l.held && model::inside(task_.truck, Eigen::Vector3d(p[0], p[1], p[2]), kAboveSidesM) &&
         speed < kDeliveredSpeed;
}

// The solid behind a hit counted this frame, from the contact markers: the clam's own
// contacts, or those of the load it holds.
std::string TaskScorer::solid_struck(const core::Outputs& o, bool rack_or_gate) const {
  for (int i = 0; i < o.contact_count; ++i) {
    const core::ContactMarker& m = o.contacts[static_cast<std::size_t>(i)];
    const bool by_clam = m.pair == core::ContactPair::ClamWorld ||
                         (m.pair == core::ContactPair::LoadWorld && m.load >= 0 &&
                          m.load == o.held_load);
    if (!by_clam) continue;
    const bool is_rack_or_gate =
        m.solid == core::SolidKind::Rack || m.solid == core::SolidKind::Gate;
    if (is_rack_or_gate == rack_or_gate) return core::to_string(m.solid);
  }
  return "";
}

void TaskScorer::penalise(Kind kind, int count, const core::Outputs& o, const std::string& what) {
  for (int i = 0; i < count; ++i) {
    timeline_.push_back(
        {o.time_s, o.time_s - t0_s_, kind, what, points_each(kind), driver_, instructor_});
  }
  score_.*kPenaltyCounts[static_cast<std::size_t>(kind)] += count;
  score_.penalty_points += count * points_each(kind);
}

void TaskScorer::set_driver(const char* driver, const std::string& instructor) {
  driver_ = driver;
  if (instructor_ != instructor) instructor_ = instructor;
}

void TaskScorer::note(double sim_time_s, const std::string& kind, const std::string& detail,
                      const std::string& by) {
  if (!started_ || score_.finished) return;
  notes_.push_back({sim_time_s, sim_time_s - t0_s_, kind, detail, by});
}

namespace {

// Per penalty kind, its core::WorldEvents counter (the field named as the kind's count), or
// kWorldEventFields.size() when the scorer itself raises the kind (a dropped load).
constexpr std::array<std::size_t, model::kPenaltyKinds> world_counters() {
  std::array<std::size_t, model::kPenaltyKinds> w{};
  for (std::size_t k = 0; k < model::kPenaltyKinds; ++k)
    w[k] = core::index_of(core::kWorldEventFields, model::kPenaltyCountNames[k]);
  return w;
}
constexpr auto kWorldCounters = world_counters();

}  // namespace

// Every world event counted by a penalty kind that rose since the last frame, in the kinds'
// order; a hit names the solid struck.
void TaskScorer::penalise_world_events(const core::Outputs& o) {
  for (std::size_t k = 0; k < model::kPenaltyKinds; ++k) {
    if (kWorldCounters[k] >= core::kWorldEventFields.size()) continue;
    const auto member = core::kWorldEventFields[kWorldCounters[k]].member;
    const int n = new_events(o.events.*member, last_events_.*member);
    if (n == 0) continue;
    const Kind kind = static_cast<Kind>(k);
    const bool hit = kind == Kind::RackGateHit || kind == Kind::StructureHit;
    penalise(kind, n, o, hit ? solid_struck(o, kind == Kind::RackGateHit) : "");
  }
  last_events_ = o.events;
}

const TaskScore& TaskScorer::update(const core::Outputs& o, bool control_moved) {
  just_finished_ = false;
  if (!task_.enabled || score_.finished) return score_;
  if (!started_ && !control_moved) return score_;
  if (!started_) {  // the clock starts at the first frame a control moved
    started_ = true;
    t0_s_ = last_time_s_ = o.time_s;
    wall_start_ = std::chrono::system_clock::now();
    score_.running = true;
  }
  const double dt = std::max(0.0, o.time_s - last_time_s_);
  last_time_s_ = o.time_s;
  score_.elapsed_s = o.time_s - t0_s_;

  penalise_world_events(o);

  track_held_load(o);

  // at rest since the first frame that found it so (-1: not at rest)
  score_.delivered = 0;
  for (std::size_t k = 0; k < task_.loads.size(); ++k) {
    const int i = task_.loads[k];
    const bool resting =
        i < o.load_count && resting_in_truck(o.loads[static_cast<std::size_t>(i)]);
    rest_s_[k] = !resting ? -1.0 : rest_s_[k] < 0.0 ? 0.0 : rest_s_[k] + dt;
    if (delivered(k)) ++score_.delivered;
  }

  // practice keeps the timed rule's points (so two attempts compare) but never times out
  score_.time_points = time_points(score_.elapsed_s, score_.optimum_s, task_.limit_s());
  score_.total = std::max(0.0, score_.time_points - score_.penalty_points);
  // a machine that has tipped over ends the task, whatever was delivered before; the
  // timeline says over which side
  if (o.tipped_over && !score_.tipped_over) {
    notes_.push_back({o.time_s, o.time_s - t0_s_, "tip_over",
                      std::string("over the ") + core::tip_edge_name(o.tilt_edge) + " outriggers",
                      driver_});
  }
  score_.tipped_over = o.tipped_over;
  const bool completed = !o.tipped_over && score_.delivered == score_.required;
  const bool out_of_time = !score_.practice && timed_out(score_.elapsed_s, score_.limit_s);
  if (completed || o.tipped_over || out_of_time) {
    score_.finished = just_finished_ = true;
    score_.completed = completed;
    score_.running = false;
    wall_end_ = std::chrono::system_clock::now();
  }
  return score_;
}

bool TaskScorer::interrupt() {
  if (!score_.enabled || !score_.running || score_.finished) return false;
  score_.finished = score_.interrupted = true;
  score_.running = false;
  wall_end_ = std::chrono::system_clock::now();
  return true;
}

// Penalties and instructors' notes in time order (a note first at a tie: a hand-over
// before the hit it caused).
nlohmann::ordered_json TaskScorer::timeline_json() const {
  using ojson = nlohmann::ordered_json;
  ojson timeline = ojson::array();
  auto note = notes_.begin();
  const auto add_notes_until = [&](double t) {
    for (; note != notes_.end() && note->sim_time_s <= t; ++note)
      timeline.push_back({{"sim_time_s", note->sim_time_s},
                          {"task_time_s", note->task_time_s},
                          {"kind", note->kind},
                          {"detail", note->detail},
                          {"by", note->by}});
  };
  for (const Penalty& p : timeline_) {
    add_notes_until(p.sim_time_s);
    ojson e;
    e["sim_time_s"] = p.sim_time_s;
    e["task_time_s"] = p.task_time_s;
    e["kind"] = model::to_string(p.kind);
    if (!p.what.empty()) e[p.kind == Kind::DroppedLoad ? "load" : "solid"] = p.what;
    e["points"] = p.points;
    e["driver"] = p.driver;
    if (!p.instructor.empty()) e["instructor"] = p.instructor;
    timeline.push_back(std::move(e));
  }
  add_notes_until(std::numeric_limits<double>::infinity());
  return timeline;
}

nlohmann::ordered_json report_head(const ReportHead& h) {
  using ojson = nlohmann::ordered_json;
  const ReportVersions& v = h.versions;
  ojson r;
  r["schema"] = "clamsim-report/1";
  r["kind"] = h.kind;
  r["session"] = h.session_label;
  r["trainee"] = h.trainee.empty() ? ojson(nullptr) : ojson(h.trainee);
  r["task"] = h.task;
  r["versions"] = {{"server", v.server},
                   {"model", {{"name", v.model}, {"sha256", v.model_sha256}}},
                   {"scenario", {{"name", v.scenario}, {"sha256", v.scenario_sha256}}}};
  r["started_utc"] = h.started ? ojson(base::iso8601_utc(*h.started)) : ojson(nullptr);
  r["ended_utc"] = h.ended ? ojson(base::iso8601_utc(*h.ended)) : ojson(nullptr);
  return r;
}

nlohmann::ordered_json TaskScorer::report(const std::string& session_label,
                                          const ReportVersions& versions,
                                          const std::string& trainee) const {
  using ojson = nlohmann::ordered_json;
  const TaskScore& s = score_;
  ojson r = report_head({"task", session_label, trainee, task_.title, versions,
                          started_ ? &wall_start_ : nullptr, s.finished ? &wall_end_ : nullptr});
  r["outcome"] = !s.finished    ? "running"
                 : s.completed   ? "completed"
                 : s.tipped_over ? "tipped over"
                 : s.interrupted ? "interrupted"
                                 : "timed out";
  r["practice"] = s.practice;
  r["elapsed_s"] = s.elapsed_s;
  r["optimum_s"] = s.optimum_s;
  r["limit_s"] = s.practice ? ojson(nullptr) : ojson(s.limit_s);
  r["delivered"] = s.delivered;
  r["required"] = s.required;
  ojson loads = ojson::array();
  for (std::size_t k = 0; k < task_.loads.size(); ++k) {
    loads.push_back({{"id", task_.loads[k]},
                     {"name", load_name(task_.loads[k])},
                     {"delivered", delivered(k)}});
  }
  r["loads"] = std::move(loads);
  r["time_points"] = s.time_points;
  ojson penalties;
  for (std::size_t k = 0; k < model::kPenaltyKinds; ++k) {
    const int count = s.*kPenaltyCounts[k];
    const double each = task_.penalties.points[k];
    penalties[model::kPenaltyNames[k]] = {{"count", count}, {"points_each", each},
                                          {"points", count * each}};
  }
  r["penalties"] = std::move(penalties);
  r["penalty_points"] = s.penalty_points;
  r["total"] = s.total;
  r["timeline"] = timeline_json();
  round_report_figures(r);
  return r;
}

}  // namespace clamsim::training
