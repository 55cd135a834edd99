#include "session/registry.h"

#include <cmath>
#include <utility>

namespace clamsim::session {

SessionRegistry::SessionRegistry(RegistryOptions options, Clock& clock)
    : options_(options), clock_(clock) {
  reaper_ = std::thread([this] { reap_loop(); });
}

SessionRegistry::~SessionRegistry() {
  close();
  {
    std::lock_guard<std::mutex> lock(reaper_mutex_);
    reaper_stop_ = true;
  }
  reaper_cv_.notify_all();
  reaper_.join();
}

std::shared_ptr<Session> SessionRegistry::create(MachineSetup machine,
                                                 std::shared_ptr<FrameSink> sink,
                                                 double frame_period_s, ReapHandler on_reap,
                                                 std::string* refused) {
  const double period = frame_period_s > 0.0 ? frame_period_s : options_.default_frame_period_s;
  const double step = machine.params->integrator.step_s;
  const double steps = period / step;
  if (!(period >= step && period <= 1.0) || std::fabs(steps - std::round(steps)) > 1e-6) {
    if (refused)
      *refused = "frame period " + std::to_string(period) + " s is not a whole number of the " +
                 "model's " + std::to_string(step) + " s steps between " + std::to_string(step) +
                 " s and 1 s";
    refused_[static_cast<std::size_t>(Refusal::Period)].fetch_add(1);
    return nullptr;
  }
  SessionOptions so;
  so.frame_period_s = period;
  so.send_grace_s = options_.send_grace_s;
  so.report_dir = options_.report_dir;
  so.recording = options_.recording;
  so.wide = &wide_;
  std::shared_ptr<Session> s;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string reason;
    if (const auto why = refusal_for(sink ? sink->client_address() : "", &reason)) {
      refused_[static_cast<std::size_t>(*why)].fetch_add(1);
      if (refused) *refused = reason;
      return nullptr;
    }
    s = std::make_shared<Session>(next_id_++, std::move(machine), std::move(sink), so, clock_);
    sessions_[s->id()] = s;
    if (on_reap) reap_handlers_[s->id()] = std::move(on_reap);
  }
  s->start();
  if (options_.log)
    options_.log->write("session_start", {{"id", s->id()},
                                          {"transport", s->sink().transport()},
                                          {"peer", s->sink().peer()},
                                          {"model", s->machine().name},
                                          {"world", s->machine().world_name}});
  return s;
}

const char* to_string(Refusal r) {
  switch (r) {
    case Refusal::Period: return "period";
    case Refusal::Stopping: return "stopping";
    case Refusal::Draining: return "draining";
    case Refusal::Full: return "full";
    case Refusal::PerClient: return "per_client";
  }
  return "?";
}

std::optional<Refusal> SessionRegistry::refusal_for(const std::string& client,
                                                    std::string* reason) const {
  if (closed_) {
    *reason = "server is shutting down";
    return Refusal::Stopping;
  }
  if (draining_) {
    *reason = "server is draining: it takes no new sessions and stops once the running "
              "ones end; try another server or again later";
    return Refusal::Draining;
  }
  if (sessions_.size() >= options_.max_sessions) {
    *reason = "server full: " + std::to_string(sessions_.size()) + " of " +
              std::to_string(options_.max_sessions) + " sessions in use";
    return Refusal::Full;
  }
  const std::size_t cap = options_.max_sessions_per_client;
  if (cap > 0 && !client.empty() && sessions_from(client) >= cap) {
    *reason = "too many sessions from " + client + ": " + std::to_string(cap) + " of " +
              std::to_string(cap) + " allowed per client address are running";
    return Refusal::PerClient;
  }
  return std::nullopt;
}

std::size_t SessionRegistry::sessions_from(const std::string& client) const {
  std::size_t n = 0;
  for (const auto& [id, s] : sessions_) n += s->sink().client_address() == client ? 1 : 0;
  return n;
}

bool SessionRegistry::remove(std::uint64_t id, EndReason reason) {
  std::shared_ptr<Session> s;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return false;
    s = it->second;
    sessions_.erase(it);
    reap_handlers_.erase(id);
    stopping_[id] = s;  // still counted in totals() while it stops
  }
  if (reason == EndReason::ClientLeft && server_stop_) reason = EndReason::ServerStop;
  if (reason == EndReason::ServerStop) s->interrupt_task();
  s->stop();  // outside the lock: joining may take up to one send timeout
  log_end(*s, reason);
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_.erase(id);
  retired_ += s->counters();
  return true;
}

void SessionRegistry::log_end(const Session& s, EndReason reason) const {
  if (!options_.log) return;
  static constexpr const char* kOutcome[] = {"client_left", "reaped", "server_stop"};
  nlohmann::ordered_json f = {{"id", s.id()},
                              {"transport", s.sink().transport()},
                              {"peer", s.sink().peer()},
                              {"duration_s", std::round(s.age_s() * 1000.0) / 1000.0},
                              {"outcome", kOutcome[static_cast<int>(reason)]},
                              {"frames_sent", s.counters().frames_sent}};
  const training::TaskScore t = s.score();
  if (t.enabled)
    f["task"] = !t.running && !t.finished ? "not_started"
                : !t.finished             ? "running"
                : t.completed             ? "completed"
                : t.interrupted           ? "interrupted"
                                          : "timed_out";
  options_.log->write("session_end", f);
}

void SessionRegistry::begin_drain(double seconds) {
  {
    std::lock_guard<std::mutex> lock(mutex_);  // no create() can slip in after this
    draining_ = true;
  }
  const auto deadline = clock_.now() + std::chrono::duration_cast<Duration>(
                                           std::chrono::duration<double>(seconds));
  wide_.drain_deadline_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                deadline.time_since_epoch()).count();
}

void SessionRegistry::begin_stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  server_stop_ = true;
}

Readiness SessionRegistry::readiness() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Readiness r;
  if (closed_) {
    r = {false, "stopping", "the server is stopping"};
  } else if (draining_) {
    r = {false, "draining", "the server is draining: no new sessions; it stops once the " +
                                std::to_string(sessions_.size()) + " running ones end"};
  } else if (sessions_.size() >= options_.max_sessions) {
    r = {false, "full", "every one of the " + std::to_string(options_.max_sessions) +
                            " sessions is in use"};
  }
  return r;
}

std::vector<std::uint64_t> SessionRegistry::stalled_sessions(Duration limit) const {
  std::vector<std::uint64_t> ids;
  for (const auto& s : sessions())
    if (s->stalled(limit)) ids.push_back(s->id());
  return ids;
}

std::map<std::string, std::size_t> SessionRegistry::sessions_by_transport() const {
  std::map<std::string, std::size_t> n;
  for (const auto& s : sessions()) ++n[s->sink().transport()];
  return n;
}

std::shared_ptr<Session> SessionRegistry::find(std::uint64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : it->second;
}

void SessionRegistry::close() {
  begin_stop();  // no create() can slip in after this
  // Ask all to stop first, so they wind down together instead of one join at a time.
  const auto all = sessions();
  for (const auto& s : all) {
    s->interrupt_task();  // before the stop request, so the thread sees it on its way out
    s->request_stop();
  }
  for (const auto& s : all) remove(s->id(), EndReason::ServerStop);
}

std::size_t SessionRegistry::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sessions_.size();
}

bool SessionRegistry::all_stopped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sessions_.empty() && stopping_.empty();
}

CounterSnapshot SessionRegistry::totals() const {
  std::lock_guard<std::mutex> lock(mutex_);
  CounterSnapshot t = retired_;
  for (const auto& kv : sessions_) t += kv.second->counters();
  for (const auto& kv : stopping_) t += kv.second->counters();
  return t;
}

std::vector<std::shared_ptr<Session>> SessionRegistry::sessions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<Session>> v;
  v.reserve(sessions_.size());
  for (const auto& kv : sessions_) v.push_back(kv.second);
  return v;
}

void SessionRegistry::reap_loop() {
  const auto interval = std::chrono::duration<double>(options_.reap_interval_s);
  std::unique_lock<std::mutex> lock(reaper_mutex_);
  while (!reaper_cv_.wait_for(lock, interval, [&] { return reaper_stop_; })) {
    lock.unlock();
    for (const auto& s : sessions()) {
      if (!s->delivery_failed_too_long()) continue;
      ReapHandler handler;
      {
        std::lock_guard<std::mutex> g(mutex_);
        auto it = reap_handlers_.find(s->id());
        if (it != reap_handlers_.end()) handler = it->second;
      }
      if (remove(s->id(), EndReason::Reaped)) {
        ++reaped_;
        if (handler) handler(s);
      }
    }
    lock.lock();
  }
}

}  // namespace clamsim::session
