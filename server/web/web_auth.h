// The web front end's side of instructor accounts: the accounts file, the logins, the
// failed-login tracker and the thread that hashes passwords. A password check costs about
// 0.1 s of CPU (auth/password_hash.h); it runs on its own thread so that a login never
// delays another browser's frames on the I/O threads. Every instructor action asks
// check_login(): a login is valid while it is live and its account still has the password
// hash the login was issued for, so a logout, an expiry, a removed account or a changed
// password counts at once, on every connection.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "auth/account_store.h"
#include "auth/login_sessions.h"
#include "auth/login_throttle.h"
#include "web/hash_queue.h"
#include "web/web_options.h"

namespace clamsim::web {

inline constexpr const char* kLoginCookie = "clamsim_login";

class WebAuth {
 public:
  // Throws auth::AccountsError when the accounts file cannot be loaded. warn: one line
  // per problem worth a log line (a file others may read).
  WebAuth(const AccessOptions& options, std::function<void(const std::string&)> warn);
  ~WebAuth();  // stop()

  // Whether instructor data needs a login (an accounts file is configured).
  bool login_required() const { return accounts_ != nullptr; }
  const AccessOptions& options() const { return options_; }
  auth::LoginSessions& logins() { return logins_; }
  auth::LoginThrottle& throttle() { return throttle_; }

  struct Verified {
    std::string name;
    std::string hash;   // the stored hash it matched: the login is issued for it
  };
  // The account `password` logs in to (checked against the hash in the accounts file, or
  // a dummy hash for an unknown name so the time is the same), else nothing. Slow: call
  // it through hash().
  std::optional<Verified> check_password(const std::string& name, const std::string& password);

  struct LoginCheck {
    std::string name;    // live: who
    std::string ended;   // "" = live; else why not, for people: "logged out", "expired",
                         // "account removed", "password changed", "unknown login"
  };
  // Whether `token`'s login may act now. `touch`: this is a request made with it (its
  // idle time restarts); a connection that only watches passes false. Reads the accounts
  // file again when it changed on disk (a stat() per call otherwise).
  LoginCheck check_login(std::string_view token, bool touch);

  // Runs `job` on the hashing thread, in `client`'s line (hash_queue.h: fair between
  // addresses). False (job not run) when kMaxWaiting checks are waiting already: an
  // attacker cannot queue unbounded work.
  bool hash(const std::string& client, std::function<void()> job);
  // Waits for the checks under way; later hash() calls are refused. Idempotent.
  void stop();

  // A constant-time comparison with the class code (true when none is set).
  bool class_code_matches(const std::string& given) const;

 private:
  // 32 checks of about 0.15 s: the last waits about 5 s, within the HTTP timeout
  static constexpr std::size_t kMaxWaiting = 32;
  const AccessOptions options_;
  std::unique_ptr<auth::AccountStore> accounts_;
  auth::LoginSessions logins_;
  auth::LoginThrottle throttle_;
  HashQueue hashing_{kMaxWaiting};
};

}  // namespace clamsim::web
