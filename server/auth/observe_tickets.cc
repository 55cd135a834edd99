#include "auth/observe_tickets.h"

#include <openssl/sha.h>

#include "auth/random.h"
#include "auth/ticket_table.h"

namespace clamsim::auth {

namespace {

constexpr std::size_t kTicketBytes = 32;  // 256 bits, as a login token

std::string digest(std::string_view ticket) { return ticket_digest(ticket); }

}  // namespace

std::string ticket_digest(std::string_view ticket) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(ticket.data()), ticket.size(), md);
  return std::string(reinterpret_cast<const char*>(md), sizeof md);
}

ObserveTickets::ObserveTickets(TicketLimits limits, NowFn now)
    : limits_(limits), now_(std::move(now)) {}

bool ObserveTickets::expired(const Entry& e, Instant now) const {
  return now - e.issued >= std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(limits_.ttl_s));
}

std::string ObserveTickets::issue(std::uint64_t session_id, const std::string& instructor) {
  const std::string ticket = random_hex(kTicketBytes);
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end();)
    it = expired(it->second, now) ? entries_.erase(it) : std::next(it);
  while (entries_.size() >= limits_.max_tickets && !entries_.empty()) {
    auto oldest = entries_.begin();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->second.issued < oldest->second.issued) oldest = it;
    entries_.erase(oldest);
  }
  entries_[digest(ticket)] = Entry{session_id, instructor, now};
  return ticket;
}

std::optional<ObserveTickets::Redeemed> ObserveTickets::redeem(std::string_view ticket,
                                                               std::uint64_t session_id,
                                                               std::string* why) {
  const Instant now = now_();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = ticket.size() == 2 * kTicketBytes ? entries_.find(digest(ticket))
                                                    : entries_.end();
  if (it == entries_.end()) {
    *why = "unknown ticket (ask the instructor page for one: it is used once and lasts " +
           std::to_string(static_cast<long>(limits_.ttl_s)) + " s)";
    return std::nullopt;
  }
  Entry e = it->second;
  entries_.erase(it);  // used once, whatever the outcome
  if (expired(e, now)) {
    *why = "the ticket expired (tickets last " + std::to_string(static_cast<long>(limits_.ttl_s)) +
           " s; ask for a new one)";
    return std::nullopt;
  }
  if (e.session_id != session_id) {
    *why = "the ticket is for session " + std::to_string(e.session_id) + ", not " +
           std::to_string(session_id);
    return std::nullopt;
  }
  return Redeemed{e.instructor};
}

void ObserveTickets::set_redeem_at(std::string reference) {
  std::lock_guard<std::mutex> lock(mutex_);
  redeem_at_ = std::move(reference);
}

std::string ObserveTickets::redeem_at() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return redeem_at_;
}

std::size_t ObserveTickets::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace clamsim::auth
