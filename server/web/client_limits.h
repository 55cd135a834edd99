// How many TCP connections the web front end holds, in total and per client address
// (docs/security.md, "Connection exhaustion"). One address opening hundreds of idle or
// half-sent requests (slowloris) then fills only its own share, and every other browser
// still gets in. Thread-safe; the listener admits, the connection's slot releases.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace clamsim::web {

class ClientLimits {
 public:
  enum class Admit { Ok, TotalFull, ClientFull };

  ClientLimits(std::size_t total, std::size_t per_client)
      : total_(total), per_client_(per_client) {}

  // Counts a connection from `client` (its address as text) unless a limit is reached.
  Admit admit(const std::string& client);
  // A connection admitted for `client` closed.
  void release(const std::string& client);

  std::size_t open() const;
  std::size_t open_from(const std::string& client) const;
  std::size_t total_limit() const { return total_; }
  std::size_t per_client_limit() const { return per_client_; }

 private:
  const std::size_t total_, per_client_;
  mutable std::mutex mutex_;
  std::size_t open_ = 0;
  std::unordered_map<std::string, std::size_t> by_client_;   // only addresses with >0 open
};

}  // namespace clamsim::web
