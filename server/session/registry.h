// The live sessions of a server: creation under a limit, removal, reaping of sessions whose
// receiver is dead or hung, and server-wide counters. Shared by every transport.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/event_log.h"
#include "core/params.h"
#include "session/server_wide.h"
#include "session/session.h"

namespace clamsim::session {

struct RegistryOptions {
  std::size_t max_sessions = 250;
  // Sessions at once from one client address (FrameSink::client_address; 0 = no cap): one
  // classroom PC cannot take the whole class's share.
  std::size_t max_sessions_per_client = 0;
  double default_frame_period_s = core::kFramePeriod_s;
  double send_grace_s = 2.0;       // a session whose sends fail this long is reaped
  double reap_interval_s = 0.2;    // how often the reaper looks
  std::string report_dir = "reports";  // SessionOptions::report_dir of every session
  RecordingOptions recording;          // SessionOptions::recording of every session
  // Every session's start and end go here (transport, peer, duration, outcome); null =
  // not logged. Must outlive the registry.
  const base::EventLog* log = nullptr;
};

// Whether the server takes new sessions (/readyz): status "ready", or "draining", "full",
// "stopping" with a reason a person can read.
struct Readiness {
  bool ready = true;
  std::string status = "ready";
  std::string reason;
};

// Why create() refused a session; counted per reason for /metrics.
enum class Refusal { Period, Stopping, Draining, Full, PerClient };
inline constexpr std::size_t kRefusalKinds = 5;
const char* to_string(Refusal r);   // "period", "stopping", "draining", "full", "per_client"

// Called (on the reaper thread, never a session thread) after a session was reaped, so
// the transport can release what it holds for it (e.g. deactivate the CORBA servant).
using ReapHandler = std::function<void(const std::shared_ptr<Session>&)>;

class SessionRegistry {
 public:
  SessionRegistry(RegistryOptions options, Clock& clock);
  ~SessionRegistry();  // stops the reaper and every session
  SessionRegistry(const SessionRegistry&) = delete;
  SessionRegistry& operator=(const SessionRegistry&) = delete;

  // Starts a session at frame_period_s (0 = the default). Returns null and sets *refused
  // to the reason when the server is full or the period does not fit the model's step.
  std::shared_ptr<Session> create(MachineSetup machine, std::shared_ptr<FrameSink> sink,
                                  double frame_period_s, ReapHandler on_reap,
                                  std::string* refused);

  // Stops and forgets a session (its client left). Returns false if it was not (or no
  // longer) registered.
  bool remove(std::uint64_t id) { return remove(id, EndReason::ClientLeft); }
  std::shared_ptr<Session> find(std::uint64_t id) const;

  // Drain (SIGTERM): refuse new sessions from now on, and tell every session's clients, in
  // its frames, that the server stops it in `seconds`. The sessions keep running.
  void begin_drain(double seconds);
  bool draining() const { return draining_.load(); }
  // The first step of the ordered stop: refuse new sessions; every session removed from
  // now on was stopped by the server (its running task is reported "interrupted").
  void begin_stop();
  bool stopping() const { return server_stop_.load(); }  // begin_stop() was called
  // Stop accepting, stop every session (ordered shutdown).
  void close();
  bool closed() const { return closed_.load(); }
  Readiness readiness() const;
  // Sessions whose thread has made no progress for `limit` (/livez).
  std::vector<std::uint64_t> stalled_sessions(Duration limit) const;
  // Live sessions per transport name ("corba", "websocket").
  std::map<std::string, std::size_t> sessions_by_transport() const;
  const ServerWide& wide() const { return wide_; }

  std::size_t size() const;   // live sessions (one that is stopping no longer counts)
  // No session live or still stopping: every thread joined, every recording closed. A
  // session leaves size() before its thread is joined (remove), so a recording may still
  // be being finished while size() is already 0.
  bool all_stopped() const;
  std::size_t capacity() const { return options_.max_sessions; }
  const std::string& report_dir() const { return options_.report_dir; }
  const RecordingOptions& recording() const { return options_.recording; }
  CounterSnapshot totals() const;         // live sessions plus every ended one
  std::uint64_t sessions_reaped() const { return reaped_.load(); }
  std::uint64_t sessions_created() const { return next_id_.load() - 1; }
  std::uint64_t sessions_refused(Refusal why) const {
    return refused_[static_cast<std::size_t>(why)].load();
  }
  std::vector<std::shared_ptr<Session>> sessions() const;

 private:
  enum class EndReason { ClientLeft, Reaped, ServerStop };
  bool remove(std::uint64_t id, EndReason reason);
  // Why a session for `client` cannot start now, or nothing (mutex_ held).
  std::optional<Refusal> refusal_for(const std::string& client, std::string* reason) const;
  std::size_t sessions_from(const std::string& client) const;   // mutex_ held
  void reap_loop();
  void log_end(const Session& s, EndReason reason) const;

  const RegistryOptions options_;
  Clock& clock_;
  mutable std::mutex mutex_;   // guards the maps and retired_; never held while stopping
  std::map<std::uint64_t, std::shared_ptr<Session>> sessions_;
  std::map<std::uint64_t, ReapHandler> reap_handlers_;
  std::map<std::uint64_t, std::shared_ptr<Session>> stopping_;  // removed, being joined
  CounterSnapshot retired_;
  std::atomic<std::uint64_t> next_id_{1};
  std::atomic<std::uint64_t> reaped_{0};
  std::array<std::atomic<std::uint64_t>, kRefusalKinds> refused_{};
  std::atomic<bool> closed_{false};
  std::atomic<bool> draining_{false};
  std::atomic<bool> server_stop_{false};   // begin_stop() was called
  ServerWide wide_;

  std::mutex reaper_mutex_;
  std::condition_variable reaper_cv_;
  bool reaper_stop_ = false;
  std::thread reaper_;
};

}  // namespace clamsim::session
