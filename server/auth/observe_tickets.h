// Tickets for native observers (docs/instructor.md, "Watching a trainee"; docs/security.md,
// "Observers"): a logged-in instructor asks the web front end for a ticket to watch one session,
// and a CORBA receiver redeems it with CLAMX::Admin::observe. A ticket names one session, is used
// once, and expires after `ttl_s`; only its SHA-256 is kept (as for login tokens), so the table
// cannot be used to observe. The two transports share one table, made by the app. Thread-safe; the
// clock is injected so tests need not wait.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "auth/login_sessions.h"

namespace clamsim::auth {

struct TicketLimits {
  double ttl_s = 300.0;            // five minutes to start the receiver
  std::size_t max_tickets = 1024;  // past it, the oldest ticket is forgotten
};

class ObserveTickets {
 public:
  explicit ObserveTickets(TicketLimits limits = {}, NowFn now = [] {
    return std::chrono::steady_clock::now();
  });

  // A ticket for `instructor` to watch session `session_id`; returns it (64 hex digits).
  std::string issue(std::uint64_t session_id, const std::string& instructor);

  struct Redeemed {
    std::string instructor;   // who asked for the ticket
  };
  // Uses the ticket up. Nothing, and *why says which, when it is unknown, expired, already
  // used, or for another session.
  std::optional<Redeemed> redeem(std::string_view ticket, std::uint64_t session_id,
                                 std::string* why);
  std::size_t size() const;
  const TicketLimits& limits() const { return limits_; }

  // Where receivers redeem tickets (the CORBA admin's corbaloc), known once the CORBA
  // transport listens; the web front end puts it into the command line it shows.
  void set_redeem_at(std::string reference);
  std::string redeem_at() const;

 private:
  struct Entry {
    std::uint64_t session_id;
    std::string instructor;
    Instant issued;
  };
  bool expired(const Entry& e, Instant now) const;

  const TicketLimits limits_;
  const NowFn now_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;  // by SHA-256 of the ticket
  std::string redeem_at_;
};

}  // namespace clamsim::auth
