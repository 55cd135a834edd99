// Failed logins (and wrong class codes) per client address: after `slow_after` failures
// each further failure is answered only after `slow_delay_s`; at `lockout_after` the
// address is locked out for `lockout_s` (every attempt 429 with Retry-After), and the
// lockout goes to the server's event log. Failures older than `lockout_s` are forgotten,
// and so are an address's failures when it logs in. Thread-safe, clock injected.
//
// A login reserves its place before its password is checked (reserve()) and keeps it until
// its answer is sent: attempts under way count against the lockout, so however many
// requests an address sends at once, no more than `lockout_after` of its guesses are ever
// checked per lockout window; and at most `max_in_flight` of its attempts are under way at
// once, so one address cannot fill the hashing queue that every address shares.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "auth/login_sessions.h"
#include "base/event_log.h"

namespace clamsim::auth {

struct ThrottlePolicy {
  int slow_after = 3;
  double slow_delay_s = 1.0;
  int lockout_after = 10;
  double lockout_s = 300.0;
  int max_in_flight = 2;            // login attempts of one address under way at once
  std::size_t max_clients = 10000;  // addresses tracked; past it the stalest are forgotten
};

struct ThrottleVerdict {
  bool locked = false;
  bool busy = false;            // reserve(): too many attempts of this address under way
  double retry_after_s = 0.0;   // locked or busy: when to try again
  double delay_s = 0.0;         // not locked: wait this long before answering a failure
};

class LoginThrottle {
 public:
  // One login attempt's place, from before its password is checked until its answer has
  // been sent (a slowed answer included). Unsettled when destroyed (its check never ran):
  // not counted as a failure.
  class Attempt {
   public:
    Attempt(const Attempt&) = delete;
    Attempt& operator=(const Attempt&) = delete;
    ~Attempt();
    // Is the address locked out now (by another attempt or a wrong class code while this
    // one waited for its turn)?
    ThrottleVerdict check() const;
    // The password was wrong: counted as failed() counts it.
    ThrottleVerdict failed(const char* what);
    // The password was right: the address's failures are forgotten.
    void succeeded();

   private:
    friend class LoginThrottle;
    Attempt(LoginThrottle& throttle, std::string client)
        : throttle_(throttle), client_(std::move(client)) {}
    LoginThrottle& throttle_;
    const std::string client_;
    bool settled_ = false;
  };

  // log may be null (tests of the policy alone).
  LoginThrottle(ThrottlePolicy policy, const base::EventLog* log, NowFn now = [] {
    return std::chrono::steady_clock::now();
  });

  // Before checking a password: the attempt's place, or null and *refused says why
  // (locked out; or busy: max_in_flight attempts under way, or the failures counted plus
  // the attempts under way already reach lockout_after).
  std::unique_ptr<Attempt> reserve(const std::string& client, ThrottleVerdict* refused);

  // Before trying (a class code): is `client` locked out?
  ThrottleVerdict check(const std::string& client);
  // After a failure not reserved (`what`: "class code"): how to answer it. The failure that
  // reaches lockout_after locks the address out and is logged.
  ThrottleVerdict failed(const std::string& client, const char* what);
  void succeeded(const std::string& client);
  const ThrottlePolicy& policy() const { return policy_; }

 private:
  struct Record {
    int failures = 0;
    Instant last_failure;
    Instant locked_until;   // in the past = not locked
    int pending = 0;        // reserved attempts whose password is not yet checked
    int active = 0;         // reserved attempts whose answer is not yet sent
  };
  void refresh(Record& r, Instant now) const;  // forgets old failures and served lockouts
  ThrottleVerdict count_failure(Record& r, const std::string& client, const char* what,
                                Instant now);  // mutex_ held
  void settle(const std::string& client);      // one reserved attempt checked
  void release(const std::string& client, bool settled);  // one reserved attempt answered
  Record& record(const std::string& client, Instant now);  // mutex_ held
  void forget_stale(Instant now);  // mutex_ held
  ThrottleVerdict locked_verdict(const Record& r, Instant now) const;

  const ThrottlePolicy policy_;
  const base::EventLog* const log_;
  const NowFn now_;
  std::mutex mutex_;
  std::unordered_map<std::string, Record> records_;
};

}  // namespace clamsim::auth
