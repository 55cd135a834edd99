#include "web/client_limits.h"

#include <algorithm>

namespace clamsim::web {

namespace {

// Above this many tracked addresses, buckets that have refilled are dropped: a full bucket
// is what an unknown address gets anyway, so forgetting it changes no decision, and many
// source addresses (IPv6) cannot grow the map without bound.
constexpr std::size_t kSweepAbove = 4096;

}  // namespace

ClientLimits::Admit ClientLimits::admit(const std::string& client, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_ >= total_) return Admit::TotalFull;
  const auto it = by_client_.find(client);
  if (per_client_ == 0 || (it != by_client_.end() && it->second >= per_client_))
    return Admit::ClientFull;
  if (!take_token(client, now)) return Admit::ClientRate;
  ++by_client_[client];
  ++open_;
  return Admit::Ok;
}

bool ClientLimits::take_token(const std::string& client, Clock::time_point now) {
  if (rate_.per_second <= 0.0) return true;
  const double burst = std::max(1.0, rate_.burst);
  if (buckets_.size() > kSweepAbove) forget_full_buckets(now);
  auto [it, fresh] = buckets_.try_emplace(client, Bucket{burst, now});
  Bucket& b = it->second;
  if (!fresh) {
    const double idle_s = std::chrono::duration<double>(now - b.at).count();
    b.tokens = std::min(burst, b.tokens + std::max(0.0, idle_s) * rate_.per_second);
    b.at = now;
  }
  if (b.tokens < 1.0) return false;
  b.tokens -= 1.0;
  return true;
}

void ClientLimits::forget_full_buckets(Clock::time_point now) {
  const double burst = std::max(1.0, rate_.burst);
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    const double idle_s = std::chrono::duration<double>(now - it->second.at).count();
    if (it->second.tokens + idle_s * rate_.per_second >= burst)
      it = buckets_.erase(it);
    else
      ++it;
  }
}

void ClientLimits::release(const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = by_client_.find(client);
  if (it == by_client_.end()) return;
  if (--it->second == 0) by_client_.erase(it);
  --open_;
}

std::size_t ClientLimits::open() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_;
}

std::size_t ClientLimits::open_from(const std::string& client) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = by_client_.find(client);
  return it == by_client_.end() ? 0 : it->second;
}

std::size_t ClientLimits::tracked_rates() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return buckets_.size();
}

}  // namespace clamsim::web
