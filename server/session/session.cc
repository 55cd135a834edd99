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

void Session::run() {
  FrameStepper stepper = first_stepper();
  std::unique_ptr<SessionRecorder> recorder = open_recorder();
  if (recorder) {
    std::lock_guard<std::mutex> lock(score_mutex_);
    recording_ = std::filesystem::path(recorder->path()).filename().string();
  }
  std::string recorded_trainee;
  mark_progress(clock_.now());
  const auto period = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(options_.frame_period_s));
  const Instant t0 = clock_.now();
  std::uint64_t seq = 0;
  // A task or lesson that finished in the last step is reported; the task's report rides
  // on the next frame sent.
  std::shared_ptr<const std::string> report;
  // a report names the recording and the frame its attempt began at: the debrief's Replay
  const auto with_recording = [&](nlohmann::json j) {
    if (recorder) {
      j["recording"] = std::filesystem::path(recorder->path()).filename().string();
      j["recording_from_k"] = stepper.attempt_first_k();
    }
    return j.dump(2);
  };
  const auto report_finished = [&] {
    if (stepper.scorer().just_finished())
      report = publish_report(with_recording(stepper.scorer().report(label(), report_versions(), trainee())));
    // a finished lesson is recorded like a task, so the instructor sees who finished it
    if (stepper.lesson().just_finished())
      publish_report(with_recording(stepper.lesson().report(label(), report_versions(), trainee())));
  };
  // Frame k carries the state at k periods and is due at t0 + k periods: an absolute
  // schedule, so sleeping late never accumulates into drift. It is computed at its due time
  // from the controls in force then, and sent at once: a control reaches the next frame
  // after half a period on average (computing ahead and holding the frame to its due time
  // added a whole period; issue 14, "Smooth and responsive").
  HealthWatches health;
  std::uint64_t k = 1;
  for (; !stop_requested_; ++k) {
    const Instant due = t0 + static_cast<Duration::rep>(k) * period;
    while (!stop_requested_ && clock_.now() < due) clock_.sleep_until(due, alarm_);
    if (stop_requested_) break;
    const bool restarted = restart_requested_.exchange(false);
    if (restarted) {
      const bool practice = restart_practice_.load();
      stepper.restart(k, practice);
      if (recorder) recorder->restart(k, practice);
      counters_.restarts.fetch_add(1, std::memory_order_relaxed);
    }
    const Instant computing = clock_.now();
    core::Control trainee_u;
    std::uint64_t control_seq = 0;
    {
      std::lock_guard<std::mutex> lock(control_mutex_);
      trainee_u = control_;
      control_seq = control_seq_;
    }
    // the instructors' inputs take effect here, at the frame boundary (instructor_desk.h)
    FrameInputs in = desk_.begin_frame(trainee_u, static_cast<double>(k) * options_.frame_period_s);
    const StepInputs step_in{in.control.control, in.faults, in.control.driver,
                             in.control.instructor, std::move(in.notes)};
    if (recorder) recorder->inputs(k, trainee_u, step_in, in.notices.get());
    Frame frame;
    frame.notices = std::move(in.notices);
    frame.seq = seq++;
    frame.control_seq = control_seq;
    frame.outputs = stepper.step(k, &step_in);
    health.after_step(stepper.state(), static_cast<double>(k) * options_.frame_period_s,
                         counters_, label());
    report_finished();
    frame.score = stepper.scorer().score();
    frame.lesson = stepper.lesson().progress();
    std::string name;
    {
      std::lock_guard<std::mutex> lock(score_mutex_);
      score_ = frame.score;
      lesson_ = frame.lesson;
      if (recorder && trainee_ != recorded_trainee) name = trainee_;
    }
    if (!name.empty()) {
      recorder->trainee(k, name);
      recorded_trainee = name;
    }
    if (recorder) recorder->frame(k, frame.seq, frame.outputs, frame.score, stepper.state());
    frame.report = std::move(report);
    report.reset();
    const Instant computed = clock_.now();  // one reading for the histogram, drain, liveness
    if (options_.wide) {
      options_.wide->compute_s.observe(seconds(computed - computing));
      frame.drain_s_left = options_.wide->drain_seconds_left(computed);
    }
    mark_progress(computed);

    const Instant sent_at = computed;
    if (sent_at - due > period) counters_.late_frames.fetch_add(1, std::memory_order_relaxed);
    if (options_.wide) options_.wide->lateness_s.observe(seconds(sent_at - due));

    if (sink_->deliver(frame)) {
      counters_.frames_sent.fetch_add(1, std::memory_order_relaxed);
      failing_since_ns_ = -1;
    } else {
      counters_.send_failures.fetch_add(1, std::memory_order_relaxed);
      std::int64_t none = -1;
      failing_since_ns_.compare_exchange_strong(none, to_ns(sent_at));
    }
    publish_to_observers(frame, step_in.control, restarted);
    sim_time_s_ = stepper.state().time_s;
    mark_progress(clock_.now());

    // Fallen more than two periods behind (machine overloaded, sink slow): skip frames
    // rather than replay a burst; the model still integrates every step, and scores it:
    // a load let go in a skipped frame is still a drop.
    const auto behind = clock_.now() - (t0 + static_cast<Duration::rep>(k) * period);
    if (behind > 2 * period) {
      const auto skip = static_cast<std::uint64_t>(behind / period) - 1;
      counters_.skipped_frames.fetch_add(skip, std::memory_order_relaxed);
      for (std::uint64_t i = 0; i < skip && !stop_requested_; ++i) {
        ++k;
        const core::Outputs& o = stepper.step(k, nullptr);
        health.after_step(stepper.state(), static_cast<double>(k) * options_.frame_period_s,
                             counters_, label());
        report_finished();
        if (recorder) recorder->frame(k, seq, o, stepper.scorer().score(), stepper.state());
        ++seq;  // receivers see the gap
      }
      mark_progress(clock_.now());
    }
  }
  // stopped by the server with the task under way: its report says so
  if (interrupt_task_ && stepper.scorer().interrupt()) {
    publish_report(with_recording(stepper.scorer().report(label(), report_versions(), trainee())));
    std::lock_guard<std::mutex> lock(score_mutex_);
    score_ = stepper.scorer().score();
  }
  if (recorder) recorder->finish(seq, trainee());
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
