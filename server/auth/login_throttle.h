// Failed logins (and wrong class codes) per client address: after `slow_after` failures
// each further failure is answered only after `slow_delay_s`; at `lockout_after` the
// address is locked out for `lockout_s` (every attempt 429 with Retry-After), and the
// lockout goes to the server's event log. Failures older than `lockout_s` are forgotten,
// and so are an address's failures when it logs in. Thread-safe, clock injected.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "auth/login_sessions.h"
#include "session/event_log.h"

namespace clamsim::auth {

struct ThrottlePolicy {
  int slow_after = 3;
  double slow_delay_s = 1.0;
  int lockout_after = 10;
  double lockout_s = 300.0;
  std::size_t max_clients = 10000;  // addresses tracked; past it the stalest are forgotten
};

struct ThrottleVerdict {
  bool locked = false;
  double retry_after_s = 0.0;   // locked: when to try again
  double delay_s = 0.0;         // not locked: wait this long before answering a failure
};

class LoginThrottle {
 public:
  // log may be null (tests of the policy alone).
  LoginThrottle(ThrottlePolicy policy, const session::EventLog* log, NowFn now = [] {
    return std::chrono::steady_clock::now();
  });

  // Before trying: is `client` locked out?
  ThrottleVerdict check(const std::string& client);
  // After a failure (`what`: "login", "class code"): how to answer it. The failure that
  // reaches lockout_after locks the address out and is logged.
  ThrottleVerdict failed(const std::string& client, const char* what);
  void succeeded(const std::string& client);
  const ThrottlePolicy& policy() const { return policy_; }

 private:
  struct Record {
    int failures = 0;
    Instant last_failure;
    Instant locked_until;   // in the past = not locked
  };
  void forget_stale(Instant now);  // mutex_ held
  ThrottleVerdict locked_verdict(const Record& r, Instant now) const;

  const ThrottlePolicy policy_;
  const session::EventLog* const log_;
  const NowFn now_;
  std::mutex mutex_;
  std::unordered_map<std::string, Record> records_;
};

}  // namespace clamsim::auth
