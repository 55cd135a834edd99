#include "session/session.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <utility>
#include <vector>

#include "session/frame_stepper.h"
#include "session/health_watch.h"
#include "training/report_file.h"
#include "training/task_score.h"
#include "version/version.h"

namespace clamsim::session {

namespace {

double seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

std::int64_t to_ns(Instant t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

Session::Session(std::uint64_t id, MachineSetup machine, std::shared_ptr<FrameSink> sink,
                 SessionOptions options, Clock& clock)
    : id_(id), machine_(std::move(machine)), sink_(std::move(sink)), options_(options),
      clock_(clock) {}

Session::~Session() { stop(); }

void Session::start() {
  std::lock_guard<std::mutex> lock(lifecycle_mutex_);
  if (thread_.joinable()) return;
  started_ = clock_.now();
  running_ = true;
  thread_ = std::thread([this] { run(); });
}

void Session::request_stop() {
  stop_requested_ = true;
  alarm_.ring();  // this session's thread only
}

void Session::stop() {
  std::lock_guard<std::mutex> lock(lifecycle_mutex_);
  request_stop();
  if (thread_.joinable()) thread_.join();
  running_ = false;
}

ControlVerdict Session::accept(ControlVerdict v) {
  counters_.controls_received.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(control_mutex_);
  ++control_seq_;  // a rejected control is answered too: the one in force stays
  if (v.kind == ControlVerdict::Kind::Rejected) {
    counters_.controls_rejected.fetch_add(1, std::memory_order_relaxed);
    return v;
  }
  if (v.kind == ControlVerdict::Kind::Clamped)
    counters_.controls_clamped.fetch_add(1, std::memory_order_relaxed);
  control_ = v.control;
  return v;
}

ControlVerdict Session::submit_control(const double* volts, std::size_t count) {
  return accept(validate_control(volts, count));
}

ControlVerdict Session::submit_control(const float* volts, std::size_t count) {
  return accept(validate_control(volts, count));
}

bool Session::delivery_failed_too_long() const {
  const std::int64_t since = failing_since_ns_.load();
  if (since < 0) return false;
  return static_cast<double>(to_ns(clock_.now()) - since) * 1e-9 > options_.send_grace_s;
}

bool Session::stalled(Duration limit) const {
  if (!running_) return false;
  return clock_.now().time_since_epoch().count() - progress_ns_.load() > limit.count();
}

double Session::age_s() const { return seconds(clock_.now() - started_); }

double Session::sim_time_s() const { return sim_time_s_.load(); }

training::TaskScore Session::score() const {
  std::lock_guard<std::mutex> lock(score_mutex_);
  return score_;
}

training::LessonProgress Session::lesson() const {
  std::lock_guard<std::mutex> lock(score_mutex_);
  return lesson_;
}

void Session::set_trainee(std::string name) {
  std::lock_guard<std::mutex> lock(score_mutex_);
  trainee_ = std::move(name);
}

std::string Session::trainee() const {
  std::lock_guard<std::mutex> lock(score_mutex_);
  return trainee_;
}

void Session::request_restart(bool practice) {
  restart_practice_ = practice;
  restart_requested_ = true;
}

std::string Session::label() const {
  std::string l = "session " + std::to_string(id_) + " (" + machine_.name;
  if (!machine_.world_name.empty()) l += ", " + machine_.world_name;
  return l + ")";
}

training::ReportVersions Session::report_versions() const {
  return {kVersion, machine_.name, machine_.model_sha256, machine_.world_name,
          machine_.world_sha256};
}

std::shared_ptr<const std::string> Session::publish_report(const std::string& json_text) {
  auto report = std::make_shared<const std::string>(json_text);
  if (options_.report_dir.empty()) return report;
  std::string error;
  const std::string path = training::write_report_file(options_.report_dir, id_,
                                             std::chrono::system_clock::now(), *report, &error);
  if (path.empty()) {
    // the trainee's frame still carries the report; the server goes on
    counters_.report_failures.fetch_add(1, std::memory_order_relaxed);
    std::fprintf(stderr, "%s: task report not saved: %s\n", label().c_str(), error.c_str());
  } else {
    counters_.reports_written.fetch_add(1, std::memory_order_relaxed);
  }
  return report;
}

std::string Session::recording_name() const {
  std::lock_guard<std::mutex> lock(score_mutex_);
  return recording_;
}

std::unique_ptr<SessionRecorder> Session::open_recorder() const {
  if (!options_.recording.enabled) return nullptr;
  RecordingInfo info;
  info.session_id = id_;
  info.label = label();
  info.model = machine_.name;
  info.model_sha256 = machine_.model_sha256;
  info.world = machine_.world_name;
  info.world_sha256 = machine_.world_sha256;
  info.initial = machine_.initial;
  if (machine_.seed) {
    info.seed_recording = machine_.seed->recording;
    info.seed_k = machine_.seed->k;
  }
  info.frame_period_s = options_.frame_period_s;
  info.start = std::chrono::system_clock::now();
  auto r = std::make_unique<SessionRecorder>(options_.recording, info);
  if (!r->ok()) {
    // the session runs unrecorded; the server goes on
    std::fprintf(stderr, "%s: not recorded: %s\n", label().c_str(), r->error().c_str());
    return nullptr;
  }
  return r;
}

// The stepper a session starts from: the start pose, or a replayed moment renumbered so
// that the next frame is this session's frame 1.
FrameStepper Session::first_stepper() const {
  if (!machine_.seed)
    return FrameStepper(*machine_.params, machine_.scenario.get(), machine_.initial,
                        options_.frame_period_s);
  FrameStepper s = machine_.seed->stepper;
  s.renumber(machine_.seed->k);
  return s;
}

// What the session thread carries from one frame to the next.
struct Session::RunState {
  RunState(FrameStepper s, std::unique_ptr<SessionRecorder> r)
      : stepper(std::move(s)), recorder(std::move(r)) {}
  FrameStepper stepper;
  std::unique_ptr<SessionRecorder> recorder;   // null: not recorded
  std::string recorded_trainee;                // the name the recording has last
  Duration period{};
  Instant t0{};
  std::uint64_t seq = 0;                       // the next frame's
  // A task or lesson that finished in the last step is reported; the task's report rides
  // on the next frame sent.
  std::shared_ptr<const std::string> report;
  HealthWatches health;
};

// Frame k carries the state at k periods and is due at t0 + k periods: an absolute
// schedule, so sleeping late never accumulates into drift. It is computed at its due time
// from the controls in force then, and sent at once: a control reaches the next frame
// after half a period on average (computing ahead and holding the frame to its due time
// added a whole period, which a trainee feels as a sluggish stick).
void Session::run() {
  RunState r(first_stepper(), open_recorder());
  if (r.recorder) {
    std::lock_guard<std::mutex> lock(score_mutex_);
    recording_ = std::filesystem::path(r.recorder->path()).filename().string();
  }
  mark_progress(clock_.now());
  r.period = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(options_.frame_period_s));
  r.t0 = clock_.now();
  for (std::uint64_t k = 1; !stop_requested_; ++k) {
    const Instant due = r.t0 + static_cast<Duration::rep>(k) * r.period;
    if (!sleep_until(due)) break;
    run_frame(r, k, due);
    catch_up(r, k);
  }
  end_run(r);
}

bool Session::sleep_until(Instant due) {
  while (!stop_requested_ && clock_.now() < due) clock_.sleep_until(due, alarm_);
  return !stop_requested_;
}

// Frame k, at its due time: computed, timed, sent, and shown to the observers.
void Session::run_frame(RunState& r, std::uint64_t k, Instant due) {
  const bool restarted = restart_if_requested(r, k);
  const Instant computing = clock_.now();
  Frame frame;
  const StepInputs step_in = merge_inputs(r, k, frame);
  compute_frame(r, k, step_in, frame);
  const Instant computed = clock_.now();  // one reading for the histogram, drain, liveness
  time_frame(frame, computing, computed, due, r.period);
  deliver(frame, computed);
  publish_to_observers(frame, step_in.control, restarted);
  sim_time_s_ = r.stepper.state().time_s;
  mark_progress(clock_.now());
}

bool Session::restart_if_requested(RunState& r, std::uint64_t k) {
  if (!restart_requested_.exchange(false)) return false;
  const bool practice = restart_practice_.load();
  r.stepper.restart(k, practice);
  if (r.recorder) r.recorder->restart(k, practice);
  counters_.restarts.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// The trainee's latest control merged with what the instructors do: their inputs take
// effect here, at the frame boundary (instructor_desk.h). Recorded as the frame's inputs.
StepInputs Session::merge_inputs(RunState& r, std::uint64_t k, Frame& frame) {
  core::Control trainee_u;
  {
    std::lock_guard<std::mutex> lock(control_mutex_);
    trainee_u = control_;
    frame.control_seq = control_seq_;
  }
  FrameInputs in = desk_.begin_frame(trainee_u, static_cast<double>(k) * options_.frame_period_s);
  StepInputs step_in{in.control.control, in.faults, in.control.driver, in.control.instructor,
                     std::move(in.notes)};
  if (r.recorder) r.recorder->inputs(k, trainee_u, step_in, in.notices.get());
  frame.notices = std::move(in.notices);
  return step_in;
}

// Steps the model to frame k and scores it; the frame takes a report that just finished.
void Session::compute_frame(RunState& r, std::uint64_t k, const StepInputs& in, Frame& frame) {
  frame.seq = r.seq++;
  frame.outputs = r.stepper.step(k, &in);
  r.health.after_step(r.stepper.state(), static_cast<double>(k) * options_.frame_period_s,
                      counters_, label());
  report_finished(r);
  frame.score = r.stepper.scorer().score();
  frame.lesson = r.stepper.lesson().progress();
  record_score(r, k, frame);
  if (r.recorder) r.recorder->frame(k, frame.seq, frame.outputs, frame.score, r.stepper.state());
  frame.report = std::move(r.report);
  r.report.reset();
}

// The score and lesson for readers on other threads; a new trainee name into the recording.
void Session::record_score(RunState& r, std::uint64_t k, const Frame& frame) {
  std::string name;
  {
    std::lock_guard<std::mutex> lock(score_mutex_);
    score_ = frame.score;
    lesson_ = frame.lesson;
    if (r.recorder && trainee_ != r.recorded_trainee) name = trainee_;
  }
  if (name.empty()) return;
  r.recorder->trainee(k, name);
  r.recorded_trainee = name;
}

// A task or lesson that ended in the last step: its report, published (and the task's kept
// for the next frame sent).
void Session::report_finished(RunState& r) {
  if (r.stepper.scorer().just_finished())
    r.report = publish_report(
        with_recording(r, r.stepper.scorer().report(label(), report_versions(), trainee())));
  // a finished lesson is recorded like a task, so the instructor sees who finished it
  if (r.stepper.lesson().just_finished())
    publish_report(
        with_recording(r, r.stepper.lesson().report(label(), report_versions(), trainee())));
}

// A report names the recording and the frame its attempt began at: the debrief's Replay.
// Ordered as the scorer wrote it: people read the file, and the pages list its penalties in
// its order.
std::string Session::with_recording(const RunState& r, nlohmann::ordered_json j) const {
  if (r.recorder) {
    j["recording"] = std::filesystem::path(r.recorder->path()).filename().string();
    j["recording_from_k"] = r.stepper.attempt_first_k();
  }
  return j.dump(2);
}

// The frame's timing into the server's histograms, the drain's countdown, liveness.
void Session::time_frame(Frame& frame, Instant computing, Instant computed, Instant due,
                         Duration period) {
  if (options_.wide) {
    options_.wide->compute_s.observe(seconds(computed - computing));
    frame.drain_s_left = options_.wide->drain_seconds_left(computed);
  }
  mark_progress(computed);
  if (computed - due > period) counters_.late_frames.fetch_add(1, std::memory_order_relaxed);
  if (options_.wide) options_.wide->lateness_s.observe(seconds(computed - due));
}

// Hands the frame to the transport; a sink failing for longer than the grace gets reaped.
void Session::deliver(const Frame& frame, Instant sent_at) {
  if (sink_->deliver(frame)) {
    counters_.frames_sent.fetch_add(1, std::memory_order_relaxed);
    failing_since_ns_ = -1;
  } else {
    counters_.send_failures.fetch_add(1, std::memory_order_relaxed);
    std::int64_t none = -1;
    failing_since_ns_.compare_exchange_strong(none, to_ns(sent_at));
  }
}

// Fallen more than two periods behind (machine overloaded, sink slow): skip frames rather
// than replay a burst; the model still integrates every step, and scores it: a load let go
// in a skipped frame is still a drop.
void Session::catch_up(RunState& r, std::uint64_t& k) {
  const auto behind = clock_.now() - (r.t0 + static_cast<Duration::rep>(k) * r.period);
  if (behind <= 2 * r.period) return;
  const auto skip = static_cast<std::uint64_t>(behind / r.period) - 1;
  counters_.skipped_frames.fetch_add(skip, std::memory_order_relaxed);
  for (std::uint64_t i = 0; i < skip && !stop_requested_; ++i) {
    ++k;
    const core::Outputs& o = r.stepper.step(k, nullptr);
    r.health.after_step(r.stepper.state(), static_cast<double>(k) * options_.frame_period_s,
                        counters_, label());
    report_finished(r);
    if (r.recorder) r.recorder->frame(k, r.seq, o, r.stepper.scorer().score(), r.stepper.state());
    ++r.seq;  // receivers see the gap
  }
  mark_progress(clock_.now());
}

// The thread stops: a task stopped by the server under way says so in its report; the
// recording is closed and the observers told.
void Session::end_run(RunState& r) {
  if (interrupt_task_ && r.stepper.scorer().interrupt()) {
    publish_report(
        with_recording(r, r.stepper.scorer().report(label(), report_versions(), trainee())));
    std::lock_guard<std::mutex> lock(score_mutex_);
    score_ = r.stepper.scorer().score();
  }
  if (r.recorder) r.recorder->finish(r.seq, trainee());
  observers_.end_all(label() + " ended");
  running_ = false;
}

void Session::publish_to_observers(const Frame& frame, const core::Control& u, bool restarted) {
  // the events are watched on every frame, so the first frame an observer gets has no
  // stale difference in it
  if (!observers_.any()) {
    event_watch_.update(frame, restarted, nullptr);
    return;
  }
  // one shared block per frame, whatever the number of observers
  auto f = std::make_shared<ObservedFrame>();
  f->frame = frame;
  f->volts = u.volts;
  event_watch_.update(frame, restarted, f.get());
  observers_.publish(f);
}

}  // namespace clamsim::session
