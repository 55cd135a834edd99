#include "auth/login_sessions.h"

#include <algorithm>

#include <openssl/sha.h>

#include "auth/random.h"

namespace clamsim::auth {

namespace {

constexpr std::size_t kTokenBytes = 32;  // 256 bits
// How long an ended login is remembered as ended (not unknown): long enough for every
// open connection holding it to look once (they look every second).
constexpr std::chrono::seconds kTombstone{60};

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

std::optional<Instant> LoginSessions::ended_at(const Entry& e, Instant now) const {
  if (e.logged_out) return e.logged_out;
  if (!expired(e, now)) return std::nullopt;
  return std::min(e.last_seen + seconds(limits_.idle_s), e.started + seconds(limits_.max_s));
}

void LoginSessions::forget_ended(Instant now) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    const auto end = ended_at(it->second, now);
    it = end && now - *end >= kTombstone ? entries_.erase(it) : std::next(it);
  }
}

std::string LoginSessions::open(const std::string& name, std::string credential) {
  const std::string token = random_hex(kTokenBytes);
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  // logins ended a while ago go first; past the cap, the oldest one
  forget_ended(now);
  while (entries_.size() >= limits_.max_logins && !entries_.empty()) drop_oldest();
  entries_[digest(token)] = Entry{name, std::move(credential), now, now, std::nullopt};
  return token;
}

void LoginSessions::drop_oldest() {
  auto oldest = entries_.begin();
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->second.started < oldest->second.started) oldest = it;
  entries_.erase(oldest);
}

Login LoginSessions::check(std::string_view token, bool touch) {
  Login l;
  if (token.size() != 2 * kTokenBytes) return l;
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(digest(token));
  if (it == entries_.end()) return l;
  Entry& e = it->second;
  if (e.logged_out) {
    l.state = LoginState::LoggedOut;
  } else if (expired(e, now)) {
    l.state = LoginState::Expired;
  } else {
    if (touch) e.last_seen = now;
    l.state = LoginState::Live;
    l.name = e.name;
    l.credential = e.credential;
  }
  return l;
}

std::optional<std::string> LoginSessions::who(std::string_view token) {
  Login l = check(token, /*touch=*/true);
  if (l.state != LoginState::Live) return std::nullopt;
  return std::move(l.name);
}

bool LoginSessions::close(std::string_view token) {
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(digest(token));
  if (it == entries_.end() || ended_at(it->second, now)) return false;
  it->second.logged_out = now;
  return true;
}

std::size_t LoginSessions::size() const {
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<std::size_t>(std::count_if(
      entries_.begin(), entries_.end(), [&](const auto& kv) { return !ended_at(kv.second, now); }));
}

}  // namespace clamsim::auth
