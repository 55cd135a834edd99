// Configuration and counters of the web front end (HTTP + WebSocket), kept apart from the
// Boost headers so the app can fill them without compiling Beast.
#pragma once

#include <memory>

#include "auth/observe_tickets.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/event_log.h"
#include "core/params.h"
#include "web/web_stats.h"

namespace clamsim::web {

// Who may see instructor data and start a session (docs/security.md, "Instructor
// accounts"). The app decides the accounts file by the rule of auth/instructor_access.h.
struct AccessOptions {
  // "" = no accounts: /api/sessions and /api/reports are open (the app allows that only
  // while the server listens on loopback alone). Otherwise they need a login.
  std::string accounts_file;
  double login_idle_s = 1800.0;       // a login ends after this long without a request
  double login_max_s = 43200.0;       // and this long after it began (the cookie's Max-Age)
  int failures_before_lockout = 10;   // failed logins (or class codes) from one address
  double lockout_s = 300.0;           // how long that address is then refused (429)
  // Mark the login cookie Secure (sent over https only): true when the page came over TLS.
  bool secure_cookie = false;
  // "" = none; else a trainee's browser must give it to start a session (/ws?class_code=).
  std::string class_code;
  // Lockouts go here as login_lockout events; null = not logged (tests).
  const base::EventLog* event_log = nullptr;
  // Native observers' tickets (POST /api/sessions/ID/observe-ticket), shared with the CORBA
  // transport that redeems them; null = the route answers 404 (no CORBA transport).
  std::shared_ptr<auth::ObserveTickets> observe_tickets;
};

// The Server header of answers (docs/security.md, "Fingerprinting"): Auto sends the name
// and version only while the server listens on loopback alone.
enum class ServerHeader { Auto, Version, Off };

struct WebOptions {
  // Where to listen. The default serves this machine only; all_interfaces binds 0.0.0.0
  // (every IPv4 interface) instead of `address`.
  std::string address = "127.0.0.1";
  bool all_interfaces = false;
  std::uint16_t port = 8080;            // 0 = any free port; WebServer::port() tells which
  int threads = 2;                      // I/O threads running the io_context
  // Under load each I/O thread handles a tick's events per wake-up (web/io_loop.h); an event
  // waits at most this long. 0 = a wake-up per event.
  int io_tick_us = 1000;

  // Static files. "" = not served (404). web_root is the browser client (the repo's web/);
  // vendor_three_dir is mounted at /vendor/three/ (the repo's node_modules/three/),
  // vendor_uplot_dir at /vendor/uplot/ (node_modules/uplot/dist/: the replay's plots).
  std::string web_root;
  std::string vendor_three_dir;
  std::string vendor_uplot_dir;

  // The working world the browser draws (hello.scene): the scenario's client scene, sent
  // as it is (docs/websocket-protocol.md, "The scene"). Must be a JSON object; an empty
  // object (the default) is an empty world.
  nlohmann::ordered_json scene = nlohmann::ordered_json::object();
  // The keyboard layout the page drives with (model/keyboard_file.h's to_json), sent in
  // GET /api/client-config; null = none (the page then says the keys are not available).
  nlohmann::ordered_json keyboard;

  // Pages allowed to open /ws (Origin header). Empty = the same host as the page's Host
  // header, and any localhost origin. "*" = any origin.
  std::vector<std::string> allowed_origins;

  // Host names this server answers for besides "localhost", the loopback addresses and the
  // addresses it listens on (host_check.h). Anything else gets 421, no Host 400.
  std::vector<std::string> allowed_hosts;
  ServerHeader server_header = ServerHeader::Auto;
  AccessOptions access;

  // TLS on the web port (docs/security.md, "TLS on the web port"). Both set: HTTPS and
  // WSS only; a plain HTTP request is answered with the https:// address. Both "": plain.
  std::string tls_cert_file;   // PEM: the certificate, then its intermediates
  std::string tls_key_file;    // PEM: its private key

  // Sessions.
  double frame_period_s = core::kFramePeriod_s;   // passed to the registry
  // The most frames per second a browser may ask for with /ws?rate= (frame_rate.h).
  double max_frame_rate_hz = 60.0;
  // Debrief replays at once: each has a thread and the run's checkpoints.
  std::size_t max_replays = 8;
  // Of those, replays on trainees' tickets from one client address (0 = no cap). Trainees'
  // tickets never take the places kept for instructors (instructor_replay_places).
  std::size_t max_replays_per_client = 2;
  std::size_t max_connections = 1024;   // open TCP connections, HTTP and WebSocket together
  std::size_t max_connections_per_client = 32;  // of those, from one address (a classroom
                                                // behind one NAT address: raise it)
  // New connections per second from one address, and the burst allowed after a quiet
  // spell (a page load opens up to ~7 at once); 0 = no rate limit.
  double connection_rate_per_client = 20.0;
  double connection_burst_per_client = 40.0;

  // Abuse limits (docs/websocket-protocol.md, "Abuse").
  std::size_t max_message_bytes = 4096;     // larger: close 1009
  std::size_t max_messages_per_s = 200;     // frames of any kind (messages, pings, empty
                                            // fragments) within one second; more: close 1008
  std::size_t send_queue_limit = 8;         // per connection; oldest display frames dropped
  double idle_timeout_s = 20.0;   // no data from the browser for half of it: ping; for all of it: close
  double write_stall_s = 10.0;              // a write this long in flight fails the frames
                                            // (the registry then reaps the session)
  double http_timeout_s = 10.0;             // one HTTP request (or WebSocket handshake),
                                            // from connection or last answer to written
  double stall_limit_s = 5.0;               // /livez fails when a session thread has made
                                            // no progress this long (100 frame periods)
  // SO_SNDBUF of accepted sockets (0 = the OS default, up to 4 MiB with autotuning): a
  // browser that stops reading can pin only this much kernel memory.
  int socket_send_buffer_bytes = 65536;
  // Bytes queued for one browser (the kernel's unsent queue plus the send queue) above
  // which it counts as not reading: its frames fail and the registry reaps the session
  // after its grace period. 0 = only the write_stall_s rule.
  std::size_t max_queued_bytes = 96 * 1024;

  // One line per notable event (listening, refusals, abuse closes). Empty = silent.
  // Called from I/O threads.
  std::function<void(const std::string&)> log;
};


}  // namespace clamsim::web
