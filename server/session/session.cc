#include "session/session.h"

#include <cmath>
#include <utility>

namespace clamsim::session {

namespace {

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
  running_ = true;
  thread_ = std::thread([this] { run(); });
}

void Session::request_stop() {
  stop_requested_ = true;
  clock_.wake();
}

void Session::stop() {
  std::lock_guard<std::mutex> lock(lifecycle_mutex_);
  request_stop();
  if (thread_.joinable()) thread_.join();
  running_ = false;
}

ControlVerdict Session::accept(ControlVerdict v) {
  counters_.controls_received.fetch_add(1, std::memory_order_relaxed);
  if (v.kind == ControlVerdict::Kind::Rejected) {
    counters_.controls_rejected.fetch_add(1, std::memory_order_relaxed);
    return v;  // the previous control stays in force
  }
  if (v.kind == ControlVerdict::Kind::Clamped)
    counters_.controls_clamped.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(control_mutex_);
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

double Session::sim_time_s() const { return sim_time_s_.load(); }

void Session::run() {
  const core::MachineParams& model = *machine_.params;
  const core::Environment env;
  core::State state = core::initial_state(model, machine_.initial);
  const auto period = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(options_.frame_period_s));
  const Instant t0 = clock_.now();
  std::uint64_t seq = 0;
  // Frame k carries the state at k periods and is due at t0 + k periods: an absolute
  // schedule, so sleeping late never accumulates into drift.
  for (std::uint64_t k = 1; !stop_requested_; ++k) {
    core::Control u;
    {
      std::lock_guard<std::mutex> lock(control_mutex_);
      u = control_;
    }
    core::advance_to(model, state, u, env, static_cast<double>(k) * options_.frame_period_s);
    Frame frame{seq++, core::outputs(model, state, env)};

    const Instant due = t0 + static_cast<Duration::rep>(k) * period;
    while (!stop_requested_ && clock_.now() < due) clock_.sleep_until(due);
    if (stop_requested_) break;
    const Instant sent_at = clock_.now();
    if (sent_at - due > period) counters_.late_frames.fetch_add(1, std::memory_order_relaxed);

    if (sink_->deliver(frame)) {
      counters_.frames_sent.fetch_add(1, std::memory_order_relaxed);
      failing_since_ns_ = -1;
    } else {
      counters_.send_failures.fetch_add(1, std::memory_order_relaxed);
      std::int64_t none = -1;
      failing_since_ns_.compare_exchange_strong(none, to_ns(sent_at));
    }
    sim_time_s_ = state.time_s;

    // Fallen more than two periods behind (machine overloaded, sink slow): skip frames
    // rather than replay a burst; the model still integrates every step.
    const auto behind = clock_.now() - (t0 + static_cast<Duration::rep>(k) * period);
    if (behind > 2 * period) {
      const auto skip = static_cast<std::uint64_t>(behind / period) - 1;
      counters_.skipped_frames.fetch_add(skip, std::memory_order_relaxed);
      for (std::uint64_t i = 0; i < skip && !stop_requested_; ++i) {
        ++k;
        core::advance_to(model, state, u, env, static_cast<double>(k) * options_.frame_period_s);
        ++seq;  // receivers see the gap
      }
    }
  }
  running_ = false;
}

}  // namespace clamsim::session
