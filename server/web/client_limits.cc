#include "web/client_limits.h"

namespace clamsim::web {

ClientLimits::Admit ClientLimits::admit(const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_ >= total_) return Admit::TotalFull;
  std::size_t& mine = by_client_[client];
  if (mine >= per_client_) {
    if (mine == 0) by_client_.erase(client);  // per_client_ == 0: keep the map clean
    return Admit::ClientFull;
  }
  ++mine;
  ++open_;
  return Admit::Ok;
}

void ClientLimits::release(const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = by_client_.find(client);
  if (it == by_client_.end()) return;
  if (--it->second == 0) by_client_.erase(it);
  --open_;
}

std::size_t ClientLimits::open() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_;
}

std::size_t ClientLimits::open_from(const std::string& client) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = by_client_.find(client);
  return it == by_client_.end() ? 0 : it->second;
}

}  // namespace clamsim::web
