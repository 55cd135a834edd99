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
    return nullptr;
  }
  SessionOptions so;
  so.frame_period_s = period;
  so.send_grace_s = options_.send_grace_s;
  so.report_dir = options_.report_dir;
  std::shared_ptr<Session> s;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) {
      if (refused) *refused = "server is shutting down";
      return nullptr;
    }
    if (sessions_.size() >= options_.max_sessions) {
      if (refused)
        *refused = "server full: " + std::to_string(sessions_.size()) + " of " +
                   std::to_string(options_.max_sessions) + " sessions in use";
      return nullptr;
    }
    s = std::make_shared<Session>(next_id_++, std::move(machine), std::move(sink), so, clock_);
    sessions_[s->id()] = s;
    if (on_reap) reap_handlers_[s->id()] = std::move(on_reap);
  }
  s->start();
  return s;
}

bool SessionRegistry::remove(std::uint64_t id) {
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
  s->stop();  // outside the lock: joining may take up to one send timeout
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_.erase(id);
  retired_ += s->counters();
  return true;
}

std::shared_ptr<Session> SessionRegistry::find(std::uint64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : it->second;
}

void SessionRegistry::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);  // no create() can slip in after this
    closed_ = true;
  }
  // Ask all to stop first, so they wind down together instead of one join at a time.
  const auto all = sessions();
  for (const auto& s : all) s->request_stop();
  for (const auto& s : all) remove(s->id());
}

std::size_t SessionRegistry::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sessions_.size();
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
      if (remove(s->id())) {
        ++reaped_;
        if (handler) handler(s);
      }
    }
    lock.lock();
  }
}

}  // namespace clamsim::session
