// Who is logged in: one entry per login, keyed by a random 256-bit token (the cookie's
// value). Only the token's SHA-256 is kept, so the table cannot be used to log in and a
// lookup's timing says nothing about stored tokens. A login ends on logout, after
// `idle_s` without a request, or `max_s` after it began. Thread-safe; the clock is
// injected so tests need not wait.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace clamsim::auth {

using Instant = std::chrono::steady_clock::time_point;
using NowFn = std::function<Instant()>;

struct LoginLimits {
  double idle_s = 1800.0;       // 30 min without a request
  double max_s = 43200.0;       // 12 h after logging in, whatever happens
  std::size_t max_logins = 4096;  // past it, the oldest login ends
};

class LoginSessions {
 public:
  explicit LoginSessions(LoginLimits limits, NowFn now = [] {
    return std::chrono::steady_clock::now();
  });

  // A new login for `name`; returns its token (64 hex digits).
  std::string open(const std::string& name);
  // The name logged in with `token`, and the login's idle time restarts; nothing when the
  // token is unknown or its login has expired (it is then forgotten).
  std::optional<std::string> who(std::string_view token);
  // Ends the login; false when there was none.
  bool close(std::string_view token);
  std::size_t size() const;
  const LoginLimits& limits() const { return limits_; }

 private:
  struct Entry {
    std::string name;
    Instant started;
    Instant last_seen;
  };
  bool expired(const Entry& e, Instant now) const;
  void drop_oldest();  // mutex_ held

  const LoginLimits limits_;
  const NowFn now_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;  // by SHA-256 of the token
};

}  // namespace clamsim::auth
