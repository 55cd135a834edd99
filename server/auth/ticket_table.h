// A table of capability tickets: each ticket is 64 random hex digits handed to one client,
// standing for a payload (what it lets that client do) for ttl_s seconds. Only the
// tickets' SHA-256 is kept (as for login tokens), so the table cannot be used to act.
// Past max_tickets the oldest is forgotten. Thread-safe; the clock is injected for tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "auth/login_sessions.h"
#include "auth/random.h"

namespace clamsim::auth {

// SHA-256 of a ticket, as the table keys it.
std::string ticket_digest(std::string_view ticket);

template <class Payload>
class TicketTable {
 public:
  static constexpr std::size_t kTicketBytes = 32;

  TicketTable(double ttl_s, std::size_t max_tickets,
              NowFn now = [] { return std::chrono::steady_clock::now(); })
      : ttl_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(ttl_s))),
        ttl_s_(ttl_s), max_tickets_(max_tickets), now_(std::move(now)) {}

  std::string issue(Payload payload) {
    const std::string ticket = random_hex(kTicketBytes);
    const Instant now = now_();
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();)
      it = now - it->second.issued >= ttl_ ? entries_.erase(it) : std::next(it);
    while (entries_.size() >= max_tickets_ && !entries_.empty()) {
      auto oldest = entries_.begin();
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->second.issued < oldest->second.issued) oldest = it;
      entries_.erase(oldest);
    }
    entries_.insert_or_assign(ticket_digest(ticket), Entry{std::move(payload), now});
    return ticket;
  }

  // The payload of a live ticket; `use_up` forgets the ticket. Nothing, with *why for the
  // person holding it, when the ticket is unknown or expired.
  std::optional<Payload> find(std::string_view ticket, bool use_up, std::string* why) {
    const Instant now = now_();
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = ticket.size() == 2 * kTicketBytes ? entries_.find(ticket_digest(ticket))
                                                      : entries_.end();
    const std::string lasts = std::to_string(static_cast<long>(ttl_s_)) + " s";
    if (it == entries_.end()) {
      *why = "unknown ticket (tickets last " + lasts + (use_up ? " and are used once)" : ")");
      return std::nullopt;
    }
    if (now - it->second.issued >= ttl_) {
      entries_.erase(it);
      *why = "the ticket expired (tickets last " + lasts + ")";
      return std::nullopt;
    }
    std::optional<Payload> p = it->second.payload;
    if (use_up) entries_.erase(it);
    return p;
  }

  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }

 private:
  struct Entry {
    Payload payload;
    Instant issued;
  };
  const std::chrono::steady_clock::duration ttl_;
  const double ttl_s_;
  const std::size_t max_tickets_;
  const NowFn now_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace clamsim::auth
