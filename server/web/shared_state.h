// What every connection of one WebServer shares (after Beast's chat-multi example's
// shared_state): options, the registry and catalog, the scene, counters, and the set of
// open WebSocket connections. The mutex guards only that set; posting has its own gate
// (post()); nothing is sent or stopped while holding either.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>

#include "auth/ticket_table.h"
#include "session/catalog.h"
#include "session/registry.h"
#include "session/replay_player.h"
#include "web/client_limits.h"
#include "web/host_check.h"
#include "web/log_limit.h"
#include "web/security_headers.h"
#include "web/static_files.h"
#include "web/tls_context.h"
#include "web/web_auth.h"
#include "web/web_options.h"
#include "web/web_stats.h"

namespace clamsim::web {

class WebSocketSession;

// Abuse is logged, but an attacker must not be able to flood the log: a burst of lines,
// then one count per window.
inline constexpr std::size_t kLogBurst = 20;
inline constexpr std::chrono::seconds kLogWindow{10};

// Not on a wildcard address or a non-loopback one: only this machine can connect.
bool listens_on_loopback_only(const WebOptions& o);

// Of max_replays places, those kept for instructors (trainees' tickets never take them):
// a quarter, at least one, none when there is only one place.
std::size_t instructor_replay_places(std::size_t max_replays);

class SharedState {
 public:
  // Loads the TLS certificate and key when options name them (throws TlsError).
  SharedState(WebOptions options, session::SessionRegistry& registry,
              const session::Catalog& catalog, nlohmann::ordered_json scene);

  const WebOptions& options() const { return options_; }
  session::SessionRegistry& registry() { return registry_; }
  const session::Catalog& catalog() const { return catalog_; }
  // hello.scene of sessions without a world scenario of their own (WebOptions::scene)
  const nlohmann::ordered_json& scene() const { return scene_; }
  const std::vector<StaticMount>& mounts() const { return mounts_; }
  WebCounters& counters() { return counters_; }
  WebStats stats() const;
  const std::string& server_name() const { return server_name_; }  // "clamsim 0.1.0"
  // The Server header's value; "" = send none (WebOptions::server_header).
  const std::string& server_header() const { return server_header_; }
  const HostPolicy& hosts() const { return hosts_; }
  // The headers every answer carries (security_headers.h).
  const SecurityHeaders& security_headers() const { return security_headers_; }
  // The TLS context holder; null when the port speaks plain HTTP.
  TlsContextHolder* tls() const { return tls_.get(); }
  ClientLimits& limits() { return limits_; }
  // Instructor logins and the class code (WebOptions::access).
  WebAuth& auth() { return *auth_; }
  // The debrief (websocket_replay.cc): a trainee's tickets to replay their own
  // recording (the file name; an hour, reusable) and take-over tickets (the machine and
  // the replayed moment a live session starts from; ten minutes, used once).
  auth::TicketTable<std::string>& replay_tickets() { return replay_tickets_; }
  auth::TicketTable<session::MachineSetup>& takeover_tickets() { return takeover_tickets_; }
  // Where a replay's player goes when its connection ends: joined there, not on an I/O
  // thread (session::PlayerReaper; the WebServer owns it and outlives this state's users).
  void set_player_reaper(session::PlayerReaper& reaper) { reaper_ = &reaper; }
  session::PlayerReaper& player_reaper() { return *reaper_; }
  // A place for one replay (WebOptions::max_replays): "" when taken, else why not (a close
  // reason). `instructor`: a logged-in instructor's (or, without accounts, a loopback
  // server's); else a trainee's ticket, which may use neither the places kept for
  // instructors (instructor_replay_places) nor more than max_replays_per_client of them
  // from one address, so trainees can never lock an instructor's debrief out.
  std::string begin_replay(const std::string& client, bool instructor);
  void end_replay(const std::string& client, bool instructor);
  // Tells every open WebSocket connection to look at its login again now (a logout).
  void recheck_logins();
  // Through a LogLimit: at most kLogBurst lines per kLogWindow, the rest counted.
  void log(const std::string& line) const;

  // Membership of open WebSocket connections, and the registry sessions they own.
  // False once stop has begun: the connection must not start a session.
  bool join(WebSocketSession* ws, std::weak_ptr<WebSocketSession> weak);
  void leave(WebSocketSession* ws);
  std::vector<std::weak_ptr<WebSocketSession>> connections() const;
  std::size_t open_websockets() const;
  void own_session(std::uint64_t id);
  void disown_session(std::uint64_t id);
  std::vector<std::uint64_t> owned_sessions() const;

  // Posts fn to ex unless the server has stopped (the io_context may be gone). Used by
  // the threads that are not ours: session threads (frames) and the registry's reaper.
  //
  // Not under the membership mutex: every session thread posts every frame, and
  // must not queue behind join/leave/connections() or behind each other. The gate is a
  // reader-writer lock of its own: posts hold it shared (they never wait for one another),
  // stop_posts() takes it exclusively, so it returns only after every post already past the
  // check has finished; after that none gets past, and the io_context may go. join/leave
  // touch only the membership map, which post never reads: a frame for a connection that
  // just left reaches its strand and finds the weak reference empty.
  template <class Executor, class Fn>
  bool post(const Executor& ex, Fn&& fn) {
    std::shared_lock<std::shared_mutex> gate(post_gate_);
    if (!accepting_posts_) return false;
    boost::asio::post(ex, std::forward<Fn>(fn));
    return true;
  }
  void stop_posts();
  // Refuse new WebSocket connections (the first step of WebServer::stop()).
  void begin_stop();

 private:
  const WebOptions options_;
  session::SessionRegistry& registry_;
  const session::Catalog& catalog_;
  const nlohmann::ordered_json scene_;
  std::vector<StaticMount> mounts_;
  const std::string server_name_;
  const std::string server_header_;
  const HostPolicy hosts_;
  const SecurityHeaders security_headers_;
  const std::unique_ptr<TlsContextHolder> tls_;
  ClientLimits limits_;
  mutable LogLimit log_limit_;
  WebCounters counters_;
  std::unique_ptr<WebAuth> auth_;
  auth::TicketTable<std::string> replay_tickets_{3600.0, 4096};
  auth::TicketTable<session::MachineSetup> takeover_tickets_{600.0, 64};
  session::PlayerReaper* reaper_ = nullptr;
  std::mutex replay_mutex_;
  std::size_t replays_ = 0;           // all, guarded by replay_mutex_
  std::size_t ticket_replays_ = 0;    // of those, on a trainee's ticket
  std::unordered_map<std::string, std::size_t> ticket_replays_by_client_;

  mutable std::mutex mutex_;
  std::unordered_map<WebSocketSession*, std::weak_ptr<WebSocketSession>> websockets_;
  std::set<std::uint64_t> sessions_;
  bool stopping_ = false;

  mutable std::shared_mutex post_gate_;
  bool accepting_posts_ = true;   // guarded by post_gate_
};

// One open TCP connection counted against max_connections and its client's share
// (ClientLimits); moves from the HTTP session to the WebSocket session on upgrade and frees
// the slot when its last owner goes.
class ConnectionSlot {
 public:
  ConnectionSlot() = default;
  // For a connection SharedState::limits() admitted for `client`.
  ConnectionSlot(std::shared_ptr<SharedState> state, std::string client)
      : state_(std::move(state)), client_(std::move(client)) {
    state_->counters().connections_open.fetch_add(1);
  }
  ConnectionSlot(ConnectionSlot&&) noexcept = default;
  ConnectionSlot& operator=(ConnectionSlot&&) = delete;
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;
  const std::string& client() const { return client_; }   // the address it was admitted for
  ~ConnectionSlot() {
    if (!state_) return;
    state_->counters().connections_open.fetch_sub(1);
    state_->limits().release(client_);
  }

 private:
  std::shared_ptr<SharedState> state_;
  std::string client_;
};

}  // namespace clamsim::web
