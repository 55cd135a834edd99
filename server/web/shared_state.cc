#include "web/shared_state.h"

#include <algorithm>

#include <boost/asio/ip/address.hpp>

#include "version/version.h"
#include "web/websocket_session.h"

namespace clamsim::web {

bool listens_on_loopback_only(const WebOptions& o) {
  if (o.all_interfaces) return false;
  boost::system::error_code ec;
  const auto a = boost::asio::ip::make_address(o.address, ec);
  return !ec && a.is_loopback();
}

namespace {

std::string server_header_of(const WebOptions& o, const std::string& name) {
  switch (o.server_header) {
    case ServerHeader::Version: return name;
    case ServerHeader::Off: return "";
    case ServerHeader::Auto: break;
  }
  return listens_on_loopback_only(o) ? name : "";
}

// The literal addresses a Host header may name: the listen address, or every interface's
// when listening on all of them.
std::vector<std::string> listen_addresses(const WebOptions& o) {
  boost::system::error_code ec;
  const auto a = boost::asio::ip::make_address(o.address, ec);
  if (o.all_interfaces || (!ec && a.is_unspecified())) return HostPolicy::interface_addresses();
  if (ec) return {};  // WebServer::start() reports the bad address
  return {a.to_string()};
}

}  // namespace

SharedState::SharedState(WebOptions options, session::SessionRegistry& registry,
                         const session::Catalog& catalog, nlohmann::ordered_json scene)
    : options_(std::move(options)), registry_(registry), catalog_(catalog),
      scene_(std::move(scene)), server_name_(std::string("clamsim ") + kVersion),
      server_header_(server_header_of(options_, server_name_)),
      hosts_(options_.allowed_hosts, listen_addresses(options_)),
      security_headers_(options_.web_root),
      tls_(options_.tls_cert_file.empty() && options_.tls_key_file.empty()
               ? nullptr
               : std::make_unique<TlsContextHolder>(options_.tls_cert_file,
                                                    options_.tls_key_file)),
      limits_(options_.max_connections, options_.max_connections_per_client,
              {options_.connection_rate_per_client, options_.connection_burst_per_client}),
      log_limit_(kLogBurst, kLogWindow) {
  // the accounts file's warnings are rare and matter: past the log limit
  auth_ = std::make_unique<WebAuth>(options_.access, options_.log);
  mounts_.push_back({"/", options_.web_root});
  mounts_.push_back({"/vendor/three/", options_.vendor_three_dir});
  mounts_.push_back({"/vendor/uplot/", options_.vendor_uplot_dir});
}

WebStats SharedState::stats() const {
  WebStats s;
  for (const WebStatField& f : kWebStatFields)
    if (f.live != nullptr) s.*f.member = (counters_.*f.live).load();
  s.ws_open = open_websockets();
  s.connections_refused =
      s.refused_limit + s.refused_per_client + s.refused_rate + s.refused_descriptors;
  return s;
}

void SharedState::log(const std::string& line) const {
  if (!options_.log) return;
  for (const std::string& l : log_limit_.admit(line, LogLimit::Clock::now())) options_.log(l);
}

bool SharedState::join(WebSocketSession* ws, std::weak_ptr<WebSocketSession> weak) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return false;
  websockets_.emplace(ws, std::move(weak));
  return true;
}

void SharedState::leave(WebSocketSession* ws) {
  std::lock_guard<std::mutex> lock(mutex_);
  websockets_.erase(ws);
}

std::vector<std::weak_ptr<WebSocketSession>> SharedState::connections() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::weak_ptr<WebSocketSession>> v;
  v.reserve(websockets_.size());
  for (const auto& kv : websockets_) v.push_back(kv.second);
  return v;
}

std::size_t SharedState::open_websockets() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return websockets_.size();
}

void SharedState::own_session(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  sessions_.insert(id);
}

void SharedState::disown_session(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  sessions_.erase(id);
}

std::vector<std::uint64_t> SharedState::owned_sessions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {sessions_.begin(), sessions_.end()};
}

void SharedState::begin_stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_ = true;
}

std::size_t instructor_replay_places(std::size_t max_replays) {
  return max_replays < 2 ? 0 : std::max<std::size_t>(1, max_replays / 4);
}

std::string SharedState::begin_replay(const std::string& client, bool instructor) {
  const std::size_t max = options_.max_replays, per_client = options_.max_replays_per_client;
  std::lock_guard<std::mutex> lock(replay_mutex_);
  if (replays_ >= max)
    return std::to_string(max) + " replays are running, the most this server allows "
           "(--max-replays); try again later";
  if (!instructor) {
    const std::size_t kept = instructor_replay_places(max);
    if (ticket_replays_ >= max - kept)
      return std::to_string(ticket_replays_) + " replays on trainees' tickets are running, the "
             "most allowed (" + std::to_string(kept) + " of " + std::to_string(max) +
             " kept for instructors); try again later";
    std::size_t& mine = ticket_replays_by_client_[client];
    if (per_client > 0 && mine >= per_client) {
      return "too many replays from " + client + ": " + std::to_string(per_client) +
             " allowed per client address (--max-replays-per-client)";
    }
    mine += 1;
    ticket_replays_ += 1;
  }
  replays_ += 1;
  return "";
}

void SharedState::end_replay(const std::string& client, bool instructor) {
  std::lock_guard<std::mutex> lock(replay_mutex_);
  if (replays_ > 0) replays_ -= 1;
  if (instructor) return;
  if (ticket_replays_ > 0) ticket_replays_ -= 1;
  const auto it = ticket_replays_by_client_.find(client);
  if (it != ticket_replays_by_client_.end() && --it->second == 0) ticket_replays_by_client_.erase(it);
}

void SharedState::recheck_logins() {
  for (const auto& weak : connections())
    if (auto ws = weak.lock()) ws->recheck_login();
}

void SharedState::stop_posts() {
  std::unique_lock<std::shared_mutex> gate(post_gate_);  // waits out the posts under way
  accepting_posts_ = false;
}

}  // namespace clamsim::web
