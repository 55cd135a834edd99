#include "auth/login_throttle.h"

#include <cmath>

namespace clamsim::auth {

namespace {

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(s));
}

double to_seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

LoginThrottle::LoginThrottle(ThrottlePolicy policy, const base::EventLog* log, NowFn now)
    : policy_(policy), log_(log), now_(std::move(now)) {}

ThrottleVerdict LoginThrottle::locked_verdict(const Record& r, Instant now) const {
  ThrottleVerdict v;
  v.locked = true;
  v.retry_after_s = std::ceil(to_seconds(r.locked_until - now));
  return v;
}

void LoginThrottle::refresh(Record& r, Instant now) const {
  if (r.locked_until > now) return;
  if (r.failures > 0 && now - r.last_failure >= seconds(policy_.lockout_s)) r.failures = 0;
  if (r.locked_until != Instant{}) {
    r.failures = 0;  // a lockout served starts the count afresh
    r.locked_until = Instant{};
  }
}

LoginThrottle::Record& LoginThrottle::record(const std::string& client, Instant now) {
  if (records_.size() >= policy_.max_clients && !records_.count(client)) forget_stale(now);
  return records_[client];
}

std::unique_ptr<LoginThrottle::Attempt> LoginThrottle::reserve(const std::string& client,
                                                              ThrottleVerdict* refused) {
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  Record& r = record(client, now);
  refresh(r, now);
  *refused = {};
  if (r.locked_until > now) {
    *refused = locked_verdict(r, now);
  } else if (r.active >= policy_.max_in_flight || r.failures + r.pending >= policy_.lockout_after) {
    // its earlier attempts are answered within a hash and a slowed answer's delay
    refused->busy = true;
    refused->retry_after_s = std::ceil(1.0 + policy_.slow_delay_s);
  }
  if (refused->locked || refused->busy) {
    if (r.failures == 0 && r.active == 0) records_.erase(client);
    return nullptr;
  }
  r.pending += 1;
  r.active += 1;
  return std::unique_ptr<Attempt>(new Attempt(*this, client));
}

ThrottleVerdict LoginThrottle::check(const std::string& client) {
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = records_.find(client);
  if (it == records_.end() || it->second.locked_until <= now) return {};
  return locked_verdict(it->second, now);
}

ThrottleVerdict LoginThrottle::count_failure(Record& r, const std::string& client,
                                             const char* what, Instant now) {
  refresh(r, now);
  if (r.locked_until > now) return locked_verdict(r, now);
  r.failures += 1;
  r.last_failure = now;
  if (r.failures >= policy_.lockout_after) {
    r.locked_until = now + seconds(policy_.lockout_s);
    if (log_)
      log_->write("login_lockout", {{"client", client},
                                    {"failures", r.failures},
                                    {"what", what},
                                    {"lockout_s", policy_.lockout_s}});
    return locked_verdict(r, now);
  }
  ThrottleVerdict v;
  if (r.failures > policy_.slow_after) v.delay_s = policy_.slow_delay_s;
  return v;
}

ThrottleVerdict LoginThrottle::failed(const std::string& client, const char* what) {
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  return count_failure(record(client, now), client, what, now);
}

void LoginThrottle::succeeded(const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = records_.find(client);
  // a login does not lift a lockout (it cannot happen during one: reserve() refuses first)
  if (it == records_.end() || it->second.locked_until > now_()) return;
  it->second.failures = 0;
  if (it->second.active == 0) records_.erase(it);
}

void LoginThrottle::settle(const std::string& client) {
  const auto it = records_.find(client);
  if (it != records_.end() && it->second.pending > 0) it->second.pending -= 1;
}

void LoginThrottle::release(const std::string& client, bool settled) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!settled) settle(client);
  const auto it = records_.find(client);
  if (it == records_.end()) return;  // forgotten in an address flood
  Record& r = it->second;
  if (r.active > 0) r.active -= 1;
  if (r.active == 0 && r.failures == 0 && r.locked_until <= now_()) records_.erase(it);
}

void LoginThrottle::forget_stale(Instant now) {
  for (auto it = records_.begin(); it != records_.end();) {
    const bool stale = it->second.active == 0 && it->second.locked_until <= now &&
                       now - it->second.last_failure >= seconds(policy_.lockout_s);
    it = stale ? records_.erase(it) : std::next(it);
  }
  // still full (an address flood): forget the oldest failure so memory stays bounded
  while (records_.size() >= policy_.max_clients) {
    auto oldest = records_.begin();
    for (auto it = records_.begin(); it != records_.end(); ++it)
      if (it->second.last_failure < oldest->second.last_failure) oldest = it;
    records_.erase(oldest);
  }
}

// ---- one attempt ----

LoginThrottle::Attempt::~Attempt() { throttle_.release(client_, settled_); }

ThrottleVerdict LoginThrottle::Attempt::check() const { return throttle_.check(client_); }

ThrottleVerdict LoginThrottle::Attempt::failed(const char* what) {
  const Instant now = throttle_.now_();
  std::lock_guard<std::mutex> lock(throttle_.mutex_);
  if (!settled_) throttle_.settle(client_);
  settled_ = true;
  return throttle_.count_failure(throttle_.record(client_, now), client_, what, now);
}

void LoginThrottle::Attempt::succeeded() {
  {
    std::lock_guard<std::mutex> lock(throttle_.mutex_);
    if (!settled_) throttle_.settle(client_);
    settled_ = true;
  }
  throttle_.succeeded(client_);
}

}  // namespace clamsim::auth
