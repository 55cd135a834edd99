#include "auth/login_sessions.h"

#include <openssl/sha.h>

#include "auth/random.h"

namespace clamsim::auth {

namespace {

constexpr std::size_t kTokenBytes = 32;  // 256 bits

std::string digest(std::string_view token) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), md);
  return std::string(reinterpret_cast<const char*>(md), sizeof md);
}

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(s));
}

}  // namespace

LoginSessions::LoginSessions(LoginLimits limits, NowFn now)
    : limits_(limits), now_(std::move(now)) {}

bool LoginSessions::expired(const Entry& e, Instant now) const {
  return now - e.last_seen >= seconds(limits_.idle_s) || now - e.started >= seconds(limits_.max_s);
}

std::string LoginSessions::open(const std::string& name) {
  const std::string token = random_hex(kTokenBytes);
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  // expired logins go first; past the cap, the oldest live one
  for (auto it = entries_.begin(); it != entries_.end();)
    it = expired(it->second, now) ? entries_.erase(it) : std::next(it);
  while (entries_.size() >= limits_.max_logins && !entries_.empty()) drop_oldest();
  entries_[digest(token)] = Entry{name, now, now};
  return token;
}

void LoginSessions::drop_oldest() {
  auto oldest = entries_.begin();
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->second.started < oldest->second.started) oldest = it;
  entries_.erase(oldest);
}

std::optional<std::string> LoginSessions::who(std::string_view token) {
  if (token.size() != 2 * kTokenBytes) return std::nullopt;
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(digest(token));
  if (it == entries_.end()) return std::nullopt;
  if (expired(it->second, now)) {
    entries_.erase(it);
    return std::nullopt;
  }
  it->second.last_seen = now;
  return it->second.name;
}

bool LoginSessions::close(std::string_view token) {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.erase(digest(token)) > 0;
}

std::size_t LoginSessions::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace clamsim::auth
