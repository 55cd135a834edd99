// How many TCP connections the web front end holds, in total and per client address, and
// how fast one address may open new ones (docs/security.md, "Connection exhaustion" and
// "Connection floods"). One address opening hundreds of idle or half-sent requests
// (slowloris), or reconnecting in a tight loop, then fills only its own share, and every
// other browser still gets in. Thread-safe; the listener admits, the connection's slot
// releases.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace clamsim::web {

// New connections per second from one address: a token bucket holding `burst` tokens,
// refilled at `per_second` (a page load opens a handful at once, a loop opens thousands).
struct ConnectionRate {
  double per_second = 0.0;   // 0 = no rate limit
  double burst = 0.0;        // tokens when idle; at least 1
};

class ClientLimits {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Admit { Ok, TotalFull, ClientFull, ClientRate };

  ClientLimits(std::size_t total, std::size_t per_client, ConnectionRate rate = {})
      : total_(total), per_client_(per_client), rate_(rate) {}

  // Counts a connection from `client` (its address as text) unless a limit is reached.
  Admit admit(const std::string& client) { return admit(client, Clock::now()); }
  Admit admit(const std::string& client, Clock::time_point now);
  // A connection admitted for `client` closed.
  void release(const std::string& client);

  std::size_t open() const;
  std::size_t open_from(const std::string& client) const;
  std::size_t total_limit() const { return total_; }
  std::size_t per_client_limit() const { return per_client_; }
  const ConnectionRate& rate() const { return rate_; }
  std::size_t tracked_rates() const;   // addresses whose bucket is not full (bounded)

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  bool take_token(const std::string& client, Clock::time_point now);   // mutex_ held
  void forget_full_buckets(Clock::time_point now);                      // mutex_ held

  const std::size_t total_, per_client_;
  const ConnectionRate rate_;
  mutable std::mutex mutex_;
  std::size_t open_ = 0;
  std::unordered_map<std::string, std::size_t> by_client_;   // only addresses with >0 open
  std::unordered_map<std::string, Bucket> buckets_;          // only recently active addresses
};

}  // namespace clamsim::web
