// Who is logged in: one entry per login, keyed by a random 256-bit token (the cookie's
// value). Only the token's SHA-256 is kept, so the table cannot be used to log in and a
// lookup's timing says nothing about stored tokens. A login ends on logout, after
// `idle_s` without a request, or `max_s` after it began. Each login remembers the
// credential it was issued for (the account's stored password hash), so the web layer can
// end it when that account is removed or its password changes. An ended login is kept a
// minute as a tombstone, so every connection holding it hears the same reason. Thread-safe;
// the clock is injected so tests need not wait.
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

enum class LoginState {
  Live,
  Expired,     // idle too long, or past its lifetime
  LoggedOut,   // POST /api/logout
  Unknown,     // never issued, or forgotten (ended over a minute ago, or pushed out)
};

struct Login {
  LoginState state = LoginState::Unknown;
  std::string name;         // Live only
  std::string credential;   // Live only: what open() was given
};

class LoginSessions {
 public:
  explicit LoginSessions(LoginLimits limits, NowFn now = [] {
    return std::chrono::steady_clock::now();
  });

  // A new login for `name`, issued for `credential` (the stored hash the password was
  // checked against); returns its token (64 hex digits).
  std::string open(const std::string& name, std::string credential = "");
  // The login of `token`. `touch`: this is a request made with the login, so its idle
  // time restarts; a check that only watches (an open observer's) leaves it.
  Login check(std::string_view token, bool touch);
  // The name logged in with `token` (a request: the idle time restarts); nothing when
  // the login is not live.
  std::optional<std::string> who(std::string_view token);
  // Ends the login; false when it was not live.
  bool close(std::string_view token);
  // Live logins.
  std::size_t size() const;
  const LoginLimits& limits() const { return limits_; }

 private:
  struct Entry {
    std::string name;
    std::string credential;
    Instant started;
    Instant last_seen;
    std::optional<Instant> logged_out;
  };
  bool expired(const Entry& e, Instant now) const;
  std::optional<Instant> ended_at(const Entry& e, Instant now) const;
  void forget_ended(Instant now);  // mutex_ held
  void drop_oldest();  // mutex_ held

  const LoginLimits limits_;
  const NowFn now_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;  // by SHA-256 of the token
};

}  // namespace clamsim::auth
