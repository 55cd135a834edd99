// The web front end's side of instructor accounts: the accounts file, the logins, the
// failed-login tracker and the thread that hashes passwords. A password check costs about
// 0.1 s of CPU (auth/password_hash.h); it runs on its own thread so that a login never
// delays another browser's frames on the I/O threads.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/thread_pool.hpp>

#include "auth/account_store.h"
#include "auth/login_sessions.h"
#include "auth/login_throttle.h"
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

  // The name `password` logs in (checked against the hash in the accounts file, or a
  // dummy hash for an unknown name so the time is the same), else nothing. Slow: call
  // it through hash().
  std::optional<std::string> check_password(const std::string& name, const std::string& password);

  // Runs `job` on the hashing thread. False (job not run) when kMaxWaiting checks are
  // waiting already: an attacker cannot queue unbounded work.
  bool hash(std::function<void()> job);
  // Waits for the checks under way; later hash() calls are refused. Idempotent.
  void stop();

  // A constant-time comparison with the class code (true when none is set).
  bool class_code_matches(const std::string& given) const;

 private:
  static constexpr int kMaxWaiting = 8;
  const AccessOptions options_;
  std::unique_ptr<auth::AccountStore> accounts_;
  auth::LoginSessions logins_;
  auth::LoginThrottle throttle_;
  boost::asio::thread_pool pool_{1};
  std::atomic<int> waiting_{0};
  std::atomic<bool> stopped_{false};
};

}  // namespace clamsim::web
