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

LoginThrottle::LoginThrottle(ThrottlePolicy policy, const session::EventLog* log, NowFn now)
    : policy_(policy), log_(log), now_(std::move(now)) {}

ThrottleVerdict LoginThrottle::locked_verdict(const Record& r, Instant now) const {
  ThrottleVerdict v;
  v.locked = true;
  v.retry_after_s = std::ceil(to_seconds(r.locked_until - now));
  return v;
}

ThrottleVerdict LoginThrottle::check(const std::string& client) {
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = records_.find(client);
  if (it == records_.end() || it->second.locked_until <= now) return {};
  return locked_verdict(it->second, now);
}

ThrottleVerdict LoginThrottle::failed(const std::string& client, const char* what) {
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  if (records_.size() >= policy_.max_clients && !records_.count(client)) forget_stale(now);
  Record& r = records_[client];
  if (r.locked_until > now) return locked_verdict(r, now);
  if (r.failures > 0 && now - r.last_failure >= seconds(policy_.lockout_s)) r.failures = 0;
  if (r.locked_until != Instant{} && r.locked_until <= now) {
    r.failures = 0;  // a lockout served starts the count afresh
    r.locked_until = Instant{};
  }
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

void LoginThrottle::succeeded(const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = records_.find(client);
  // a login does not lift a lockout (it cannot happen during one: check() refuses first)
  if (it != records_.end() && it->second.locked_until <= now_()) records_.erase(it);
}

void LoginThrottle::forget_stale(Instant now) {
  for (auto it = records_.begin(); it != records_.end();) {
    const bool stale = it->second.locked_until <= now &&
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

}  // namespace clamsim::auth
